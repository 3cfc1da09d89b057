#!/usr/bin/env python3
"""Turns every tests/vectors/*.json file into C data (vectors_data.h) for the C tests and the
firmware, which cannot parse JSON. The JSON stays the source of truth: this script only re-encodes
it, mapping every name to the header's constant of the same name (e.g. "max_retries" ->
SB_GIVE_UP_MAX_RETRIES), and fails on any kind, op or name it does not know, so no vector is
silently skipped.

usage: gen_vectors.py VECTOR_DIR HEADER OUT
"""
import json
import pathlib
import re
import sys

OPS = {"n": "VEC_OP_NEXT", "h": "VEC_OP_HINT", "x": "VEC_OP_STOP", "t": "VEC_OP_AT",
       "r": "VEC_OP_RESET", "s": "VEC_OP_SNAPSHOT", "l": "VEC_OP_RATE_LIMIT"}
BUDGET_OPS = {"fe": "VEC_B_FAIL_ERROR", "ft": "VEC_B_FAIL_TIMEOUT", "ae": "VEC_B_ACQUIRE_ERROR",
              "at": "VEC_B_ACQUIRE_TIMEOUT", "s": "VEC_B_SUCCESS_FIRST_TRY",
              "se": "VEC_B_SUCCESS_AFTER_ERROR", "st": "VEC_B_SUCCESS_AFTER_TIMEOUT"}
SEND_RATE_EVENTS = {"ask": "VEC_S_ASK", "accepted": "VEC_S_ACCEPTED", "throttled": "VEC_S_THROTTLED",
                    "no_answer": "VEC_S_NO_ANSWER"}
# sb_send_rate_config's fields in its declaration order.
SEND_RATE_FIELDS = ["max_rate_milli", "min_rate_milli", "margin_permille", "probe_ms",
                    "probe_first_permille", "probe_max_permille", "guard_ms", "burst", "max_hold_ms",
                    "fail_fast"]
POLICY_FIELDS = ["initial_ms", "multiplier_num", "multiplier_den", "max_backoff_ms", "max_retries",
                 "jitter", "jitter_ms", "spread_per_mille", "max_hint_ms", "max_elapsed_ms",
                 "deadline", "paced"]


class Header:
    """The identifiers the header defines, to check every mapped name exists."""

    def __init__(self, path):
        text = pathlib.Path(path).read_text()
        self.names = set(re.findall(r"\b(SB_[A-Z0-9_]+)\b", text))
        status = re.search(r"enum sb_status\b[^{]*\{(.*?)\}", text, re.S)
        if not status:
            sys.exit("gen_vectors: no enum sb_status in " + str(path))
        self.status = re.findall(r"\b(SB_[A-Z0-9_]+)\s*=", status.group(1))
        self.functions = re.findall(r"^[a-z][\w ]*[ *](sb_\w+)\(", text, re.M)
        if len(self.functions) < 25:  # the regex broke, not the API
            sys.exit(f"gen_vectors: found only {len(self.functions)} functions in {path}")

    def const(self, prefix, name):
        ident = prefix + name.upper()
        if ident not in self.names:
            sys.exit(f"gen_vectors: {name!r} has no constant {ident} in the header")
        return ident


def u64(n):
    if not 0 <= n < 2**64:
        sys.exit(f"gen_vectors: {n} is not a u64")
    return f"UINT64_C({n})"


def u32(n):
    if not 0 <= n < 2**32:
        sys.exit(f"gen_vectors: {n} is not a u32")
    return f"{n}u"


# Values longer than C99's 4095-byte string literal (the header-value bound's vectors), as arrays.
LONG_VALUES = []


def send_rate_config(cfg):
    return "{" + ", ".join(u32(int(cfg[f])) for f in SEND_RATE_FIELDS) + "}"


def c_bytes(data):
    if len(data) > 4095:
        LONG_VALUES.append(f"static const char vec_long_{len(LONG_VALUES)}[] = {{"
                           + ", ".join(str(b) for b in data) + "};")
        return f"vec_long_{len(LONG_VALUES) - 1}"
    # Three-digit octal escapes: never swallow a following digit, and embedded NULs are fine.
    return '"' + "".join(f"\\{b:03o}" for b in data) + '"'


def policy_values(h, pol):
    """A vector's policy object as vec_policy's initialisers, in POLICY_FIELDS order."""
    return [h.const("SB_JITTER_", pol[f]) if f == "jitter" else
            h.const("SB_DEADLINE_", pol[f]) if f == "deadline" else
            ("1u" if pol.get(f, False) else "0u") if f == "paced" else u32(pol[f])
            for f in POLICY_FIELDS]


def main(vector_dir, header_path, out_path):
    h = Header(header_path)
    # The CLI writes *.json, reconnect/ (SPEC.md section 12.3, which only the core and this
    # library have) and startup/ (section 15.3's runs); the fleet vectors (sections 12.1, 12.2) come from the Python model.
    files = sorted(pathlib.Path(vector_dir).glob("*.json"))
    files += sorted(pathlib.Path(vector_dir).glob("fleet/*.json"))
    files += sorted(pathlib.Path(vector_dir).glob("reconnect/*.json"))
    files += sorted(pathlib.Path(vector_dir).glob("startup/*.json"))
    if not files:
        sys.exit(f"gen_vectors: no vector files in {vector_dir}")
    schedules, cases, ops, snapshots, wide_args = [], [], [], [], []
    retry_after, budget_cases, budget_ops, http, grpc = [], [], [], [], []
    rate_limits, methods = [], []
    fleet_seeds, startup_delays, call_seeds = [], [], []
    reconnect_cases, reconnect_ops = [], []
    run_cases, run_events, run_rates = [], [], []
    pacer_cases, pacer_ops = [], []
    send_rate_cases, send_rate_events, send_rate_errors = [], [], []
    for path in files:
        doc = json.loads(path.read_text())
        kind = doc["kind"]
        if kind == "schedule":
            pol = doc["policy"]
            values = []
            for f in POLICY_FIELDS:
                if f == "jitter":
                    values.append(h.const("SB_JITTER_", pol[f]))
                elif f == "deadline":
                    values.append(h.const("SB_DEADLINE_", pol[f]))
                elif f == "paced":
                    values.append("1u" if pol.get(f, False) else "0u")
                else:
                    values.append(u32(pol[f]))
            first_case = len(cases)
            for case in doc["cases"]:
                if len(case["ops"]) != len(case["expect"]):
                    sys.exit(f"gen_vectors: {path.name}: ops and expect differ in length")
                first_op = len(ops)
                for op, want in zip(case["ops"], case["expect"]):
                    code, arg = op[0], op[1:]
                    if code not in OPS or (arg and code not in "htl") or (code in "htl" and not arg):
                        sys.exit(f"gen_vectors: {path.name}: unknown op {op!r}")
                    if code in "hl":
                        u32(int(arg))  # a hint is a u32; the elapsed clock a u64
                    if code == "t" and int(arg) > 0xFFFFFFFF:
                        op_c, arg_c = "VEC_OP_AT_WIDE", u32(len(wide_args))
                        wide_args.append(u64(int(arg)))
                    else:
                        op_c, arg_c = OPS[code], u32(int(arg)) if arg else "0u"
                    if want is None:
                        exp = ("VEC_EXPECT_NONE", "0u")
                    elif isinstance(want, int):
                        exp = ("VEC_EXPECT_DELAY", u32(want))
                    elif code == "s":
                        raw = bytes.fromhex(want)
                        if len(raw) != 40:
                            sys.exit(f"gen_vectors: {path.name}: snapshot of {len(raw)} bytes")
                        exp = ("VEC_EXPECT_SNAPSHOT", u32(len(snapshots)))
                        snapshots.append(raw)
                    else:
                        exp = ("VEC_EXPECT_STATUS", h.const("SB_GIVE_UP_", want))
                    if (code == "r") != (want is None) or (code == "s") != (exp[0] == "VEC_EXPECT_SNAPSHOT"):
                        sys.exit(f"gen_vectors: {path.name}: op {op!r} with expectation {want!r}")
                    ops.append(f"{{{op_c}, {exp[0]}, {exp[1]}, {arg_c}}}")
                cases.append(f"{{{u64(int(case['seed']))}, {first_op}u, {len(ops) - first_op}u}}")
            schedules.append(f'{{"{doc["name"]}", {{{", ".join(values)}}}, {first_case}u, '
                             f"{len(cases) - first_case}u}}")
        elif kind == "retry_after":
            for case in doc["cases"]:
                raw = bytes.fromhex(case["value_hex"]) if "value_hex" in case else case["value"].encode()
                if "error" in case:
                    status, ms = h.const("SB_ERR_PARSE_", case["error"]), "0u"
                else:
                    status, ms = "SB_OK", u32(case["expect_ms"])
                retry_after.append(f"{{{c_bytes(raw)}, {len(raw)}u, {u64(case['now'])}, {status}, {ms}}}")
        elif kind == "rate_limit":
            for case in doc["cases"]:
                raw = bytes.fromhex(case["value_hex"]) if "value_hex" in case else case["value"].encode()
                # The C constant is derived from the core's header name, and must exist.
                header = h.const("SB_RATE_LIMIT_", case["header"].replace("-", "_"))
                if "error" in case:
                    status, ms = h.const("SB_ERR_PARSE_", case["error"]), "0u"
                else:
                    status, ms = "SB_OK", u32(case["expect_ms"])
                rate_limits.append(f"{{{header}, {c_bytes(raw)}, {len(raw)}u, {u64(case['now'])}, "
                                   f"{status}, {ms}}}")
        elif kind == "budget":
            for case in doc["cases"]:
                b = case["budget"]
                if b["kind"] == "grpc":
                    mode = h.const("SB_BUDGET_", "grpc")
                    params = [b["max_tokens"], b["token_ratio_milli"], 0, 0]
                elif b["kind"] == "aws_quota":
                    mode = h.const("SB_BUDGET_", "aws_quota")
                    params = [b["capacity"], b["retry_cost"], b["timeout_cost"], b["no_retry_increment"]]
                else:
                    sys.exit(f"gen_vectors: unknown budget kind {b['kind']!r}")
                first_op = len(budget_ops)
                for op, (allowed, tokens) in zip(case["ops"], case["expect"], strict=True):
                    if op not in BUDGET_OPS or allowed not in (0, 1):
                        sys.exit(f"gen_vectors: budget op {op!r} / {allowed!r}")
                    budget_ops.append(f"{{{BUDGET_OPS[op]}, {allowed}u, {u32(tokens)}}}")
                budget_cases.append(f"{{{mode}, {{{', '.join(u32(p) for p in params)}}}, "
                                    f"{first_op}u, {len(budget_ops) - first_op}u}}")
        elif kind in ("run", "run_send_rate"):
            for case in doc["cases"]:
                pol = case["policy"]
                values = policy_values(h, pol)
                b = case.get("budget")
                if b is None:
                    budget = "0u, 0u, {0u, 0u, 0u, 0u}, 0u"
                else:
                    params = ([b["max_tokens"], b["token_ratio_milli"], 0, 0] if b["kind"] == "grpc" else
                              [b["capacity"], b["retry_cost"], b["timeout_cost"], b["no_retry_increment"]])
                    budget = (f"1u, {h.const('SB_BUDGET_', b['kind'])}, "
                              f"{{{', '.join(u32(p) for p in params)}}}, {u32(case['expect_tokens_milli'])}")
                rate = case.get("send_rate")
                paced = "0u"
                if rate:
                    run_rates.append(f"{{{send_rate_config(rate)}, {u32(case['expect_rate_milli'])}}}")
                    paced = f"{len(run_rates)}u"
                first = len(run_events)
                for ev, want in zip(case["events"], case["expect"], strict=True):
                    e = ev["e"]
                    arg = (h.const("SB_PAUSE_", ev["reason"]) if e == "pause" else
                           h.const("SB_FAILURE_", ev.get("kind", "error")))
                    hint = ev.get("hint")
                    flag = {None: "0u", "retry_after": "SB_INPUT_RETRY_AFTER",
                            "rate_limit": "SB_INPUT_RATE_LIMIT", "do_not_retry": "SB_INPUT_DO_NOT_RETRY"}[hint]
                    now = f'{u64(ev["now"])}, 1u' if "now" in ev else "0u, 0u"
                    a = want["a"]
                    # A paced outcome's answer (SPEC.md section 15.2), or the outcome's own.
                    answer = (h.const("SB_ANSWER_", ev["answer"]) if "answer" in ev
                              else "SB_ANSWER_FROM_OUTCOME")
                    # A snapshot's bytes to compare, or a restore's bytes to restore from.
                    raw = bytes.fromhex(want["bytes"] if a == "snapshot" else ev.get("bytes", ""))
                    data = f"(const uint8_t *){c_bytes(raw)}, {len(raw)}u" if raw else "0, 0u"
                    if a == "pace":  # the shared send rate's own answers, as replay.c writes them
                        code = {"send": "SB_OK", "wait": "SB_SEND_RATE_WAIT", "refuse": "SB_SEND_RATE_REFUSE"}
                        status, act = "SB_OK", f"{{{code[want['pace']]}, 0u, {u32(want.get('ms', 0))}, 0u}}"
                    elif a == "rate":
                        status, act = "SB_OK", f"{{0u, {u32(want['rate_milli'])}, 0u, 0u}}"
                    elif a == "error":
                        prefix = "SB_ERR_SNAPSHOT_" if e == "restore" else "SB_ERR_RUN_"
                        status, act = h.const(prefix, want["error"]), "{0u, 0u, 0u, 0u}"
                    elif a in ("snapshot", "restored"):
                        status, act = "SB_OK", "{99u, 99u, 99u, 99u}"  # no action is written
                    else:
                        status = "SB_OK"
                        max_ms = want.get("max_ms")
                        reason = want.get("reason")
                        act = (f"{{{h.const('SB_ACTION_', a)}, {u32(want.get('attempt', want.get('attempts', 0)))}, "
                               f"{u32(want.get('delay_ms', 0xFFFFFFFF if a == 'paused' and max_ms is None else max_ms or 0))}, "
                               f"{h.const('SB_GIVE_UP_', reason) if reason else '0u'}}}")
                    run_events.append(f"{{{'VEC_R_' + e.upper()}, {answer}, {arg}, {flag}, "
                                      f"{u32(ev.get('hint_ms', 0))}, {now}, {status}, {act}, {data}}}")
                run_cases.append(f'{{"{case["name"]}", {{{", ".join(values)}}}, {u64(int(case["seed"]))}, '
                                 f'{"SB_RUN_COUNT_PAUSED" if case["count_paused"] else "0u"}, {budget}, '
                                 f"{first}u, {len(run_events) - first}u, {paced}, "
                                 f"{u32(case.get('startup_window_ms', 0))}}}")
        elif kind == "classify":
            for table, rows in (("http", http), ("grpc", grpc)):
                for code, cls in doc[table]:
                    rows.append(f"{{{u32(code)}, {h.const('SB_CLASS_', cls)}}}")
            for _given, sent, may_retry in doc["methods"]:
                raw = sent.encode()
                methods.append(f"{{{c_bytes(raw)}, {len(raw)}u, {1 if may_retry else 0}u}}")
        elif kind == "fleet":
            for case in doc["seeds"]:
                raw = bytes.fromhex(case["id_hex"])
                fleet_seeds.append(f"{{{c_bytes(raw)}, {len(raw)}u, {u32(case['boot_counter'])}, "
                                   f"{u64(int(case['seed']))}}}")
            for case in doc["startup_delays"]:
                if "error" in case:
                    status, ms = h.const("SB_ERR_FLEET_", case["error"]), "0u"
                else:
                    status, ms = "SB_OK", u32(case["expect_ms"])
                startup_delays.append(f"{{{u64(int(case['seed']))}, {u32(case['window_ms'])}, "
                                      f"{status}, {ms}}}")
        elif kind == "call_seed":
            for case in doc["cases"]:
                delays = [u32(0xFFFFFFFF if d is None else d) for d in case["google_delays"]]
                if len(delays) != 3:
                    sys.exit(f"gen_vectors: {path.name}: {len(delays)} delays, not 3")
                call_seeds.append(f"{{{u64(int(case['seed']))}, {u64(int(case['index']))}, "
                                  f"{u64(int(case['expect']))}, {{{', '.join(delays)}}}}}")
        elif kind == "reconnect":
            for case in doc["cases"]:
                pol = case["policy"]
                values = policy_values(h, pol)
                first = len(reconnect_ops)
                if "error" in case:
                    # The one refusal of SPEC.md section 12.3 (a time budget): the C library
                    # reports a valid policy it cannot run as SB_ERR_UNSUPPORTED.
                    status = {"time_budget": "SB_ERR_UNSUPPORTED"}[case["error"]]
                else:
                    status = "SB_OK"
                    for op, want, retries in zip(case["ops"], case["expect"], case["expect_retries"],
                                                 strict=True):
                        if op[0] not in "nrf" or (op[0] != "f" and len(op) > 1):
                            sys.exit(f"gen_vectors: {path.name}: unknown reconnect op {op!r}")
                        arg = u32(int(op[1:])) if op[0] == "f" else "0u"
                        if op != "n":
                            got, delay = "SB_OK", "0u"
                        elif isinstance(want, str):
                            got, delay = h.const("SB_GIVE_UP_", want), "0u"
                        else:
                            got, delay = "SB_RETRY", u32(want)
                        reconnect_ops.append(f"{{'{op[0]}', {got}, {arg}, {delay}, {u32(retries)}}}")
                reconnect_cases.append(f'{{"{case["name"]}", {{{", ".join(values)}}}, '
                                       f'{u64(int(case["seed"]))}, {status}, {first}u, '
                                       f'{len(reconnect_ops) - first}u}}')
        elif kind == "pacer":
            for case in doc["cases"]:
                c = case["config"]
                config = ", ".join(u32(c[f]) for f in ("capacity_per_s", "reserve_per_mille", "max_wait_s"))
                first = len(pacer_ops)
                if "error" in case:
                    status = h.const("SB_ERR_PACER_", case["error"])
                else:
                    status = "SB_OK"
                    for op, want in zip(case["ops"], case["expect"], strict=True):
                        code = op[0]
                        u64(int(op[1:]))
                        # Packed as vectors.h's vec_pacer_op says.
                        now_c = f"{u32(int(op[1:]) & 0xFFFFFFFF)}, {u32(int(op[1:]) >> 32)}"
                        if (code == "a" and isinstance(want, list) and len(want) == 3 and want[2] in (0, 1)
                                and 0 <= want[0] < 2**30):
                            flags = " | VEC_P_FULL" if want[2] else ""
                            pacer_ops.append(f"{{{now_c}, {u32(want[0])}{flags}, {u32(want[1])}}}")
                        elif code == "p" and isinstance(want, int) and 0 <= want < 2**48:
                            pacer_ops.append(f"{{{now_c}, VEC_P_PENDING | {u32(want >> 32)}, "
                                             f"{u32(want & 0xFFFFFFFF)}}}")
                        else:
                            sys.exit(f"gen_vectors: {path.name}: pacer op {op!r} with expectation {want!r}")
                pacer_cases.append(f"{{{config}, {u64(int(c['seed']))}, {status}, {first}u, "
                                   f"{len(pacer_ops) - first}u}}")
        elif kind == "send_rate":
            for case in doc["cases"]:
                if len(case["events"]) != len(case["expect"]):
                    sys.exit(f"gen_vectors: {path.name}: events and expect differ in length")
                first = len(send_rate_events)
                for ev, want in zip(case["events"], case["expect"]):
                    if ev["e"] not in SEND_RATE_EVENTS:
                        sys.exit(f"gen_vectors: {path.name}: unknown send-rate event {ev['e']!r}")
                    if ev["e"] == "ask":
                        status = {"send": "SB_OK", "wait": "SB_SEND_RATE_WAIT",
                                  "refuse": "SB_SEND_RATE_REFUSE"}[want["pace"]]
                        value = u32(want.get("ms", 0))
                    else:
                        status, value = "SB_OK", u32(want["rate_milli"])
                    h.const("", status)
                    send_rate_events.append(f"{{{SEND_RATE_EVENTS[ev['e']]}, {u32(ev.get('hint_ms', 0))}, "
                                            f"{u64(ev['now'])}, {status}, {value}}}")
                send_rate_cases.append(f'{{"{case["name"]}", {send_rate_config(case["config"])}, '
                                       f"{first}u, {len(send_rate_events) - first}u}}")
            for err in doc["errors"]:
                send_rate_errors.append(f"{{{send_rate_config(err['config'])}, "
                                        f"{h.const('SB_ERR_SEND_RATE_', err['error'])}}}")
        else:
            sys.exit(f"gen_vectors: {path.name}: unknown kind {kind!r}")

    def table(ctype, name, rows):
        body = ",\n".join("    " + r for r in rows) if rows else "    {0}"
        return (f"static const {ctype} {name}[] = {{\n{body}\n}};\n"
                f"#define {name.upper()}_COUNT {len(rows)}u\n")

    out = ["/* Generated by ffi/tests/c/gen_vectors.py from the JSON files in tests/vectors. Do not edit. */",
           "#ifndef VECTORS_DATA_H", "#define VECTORS_DATA_H", '#include "vectors.h"',
           f"#define VEC_FILE_COUNT {len(files)}u",
           *LONG_VALUES,
           table("vec_schedule", "vec_schedules", schedules),
           table("vec_case", "vec_cases", cases),
           table("vec_op", "vec_ops", ops),
           table("uint64_t", "vec_wide_args", wide_args),
           table("vec_snapshot", "vec_snapshots",
                 ["{{" + ", ".join(f"0x{b:02x}" for b in s) + "}}" for s in snapshots]),
           table("vec_retry_after", "vec_retry_afters", retry_after),
           table("vec_rate_limit", "vec_rate_limits", rate_limits),
           table("vec_budget_case", "vec_budget_cases", budget_cases),
           table("vec_budget_op", "vec_budget_ops", budget_ops),
           table("vec_run_case", "vec_run_cases", run_cases),
           table("vec_run_event", "vec_run_events", run_events),
           table("vec_run_rate", "vec_run_rates", run_rates),
           table("vec_class", "vec_http", http),
           table("vec_class", "vec_grpc", grpc),
           table("vec_method", "vec_methods", methods),
           table("vec_fleet_seed", "vec_fleet_seeds", fleet_seeds),
           table("vec_startup_delay", "vec_startup_delays", startup_delays),
           table("vec_call_seed", "vec_call_seeds", call_seeds),
           table("vec_reconnect_case", "vec_reconnect_cases", reconnect_cases),
           table("vec_reconnect_op", "vec_reconnect_ops", reconnect_ops),
           table("vec_pacer_case", "vec_pacer_cases", pacer_cases),
           table("vec_pacer_op", "vec_pacer_ops", pacer_ops),
           "/* The send rate's (SPEC.md section 17), for test_send_rate.c only: the firmware leaves out",
           " * its thousands of events. */",
           "#ifdef VEC_SEND_RATE_TABLES",
           table("vec_send_rate_case", "vec_send_rate_cases", send_rate_cases),
           table("vec_send_rate_event", "vec_send_rate_events", send_rate_events),
           table("vec_send_rate_error", "vec_send_rate_errors", send_rate_errors),
           "#endif",
           table("int32_t", "vec_all_status", h.status),
           "/* Every function the header declares, so a firmware that takes this table links all of",
           " * them (the no-panic link proof covers the whole API). */",
           table("vec_any_fn", "vec_all_functions", [f"(vec_any_fn){f}" for f in h.functions]),
           "#endif"]
    pathlib.Path(out_path).write_text("\n".join(out) + "\n")
    print(f"gen_vectors: {len(files)} files: {len(schedules)} schedules, {len(cases)} cases, "
          f"{len(ops)} ops, {len(snapshots)} snapshots, {len(retry_after)} Retry-After values, "
          f"{len(rate_limits)} rate-limit values, "
          f"{len(budget_cases)} budgets with {len(budget_ops)} ops, "
          f"{len(http)} HTTP + {len(grpc)} gRPC classifications, {len(methods)} methods, "
          f"{len(fleet_seeds)} device seeds, {len(startup_delays)} startup delays, "
          f"{len(call_seeds)} call seeds, "
          f"{len(reconnect_cases)} reconnect loops with {len(reconnect_ops)} ops, "
          f"{len(run_cases)} runs with {len(run_events)} events, "
          f"{len(pacer_cases)} pacers with {len(pacer_ops)} ops, "
          f"{len(send_rate_cases)} send rates with {len(send_rate_events)} events")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
