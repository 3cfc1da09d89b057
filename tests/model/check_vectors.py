#!/usr/bin/env python3
"""Check the cross-language test vectors (SPEC.md §11) against the independent Python model.

Usage: python3 tests/model/check_vectors.py [VECTORS_DIR]     (default: <repo root>/tests/vectors)

Prints one line per file with its number of checks, every mismatch (file, case, op, expected vs
model), and finally exactly `N passed, M failed` (files). Exit status 0 only if no file failed and at
least one file was checked. A file that cannot be read, has an unknown kind, or runs no checks fails.
"""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_model as m  # noqa: E402
import rate_limit_model as rl  # noqa: E402
import run_model  # noqa: E402
import run_send_rate_model  # noqa: E402
import send_rate_model  # noqa: E402
import fleet_model  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OP_RE = re.compile(r"^(?:(n)|(x)|(r)|(s)|h(\d+)|t(\d+)|l(\d+))$")


class Checker:
    def __init__(self, fname):
        self.fname = fname
        self.checks = 0
        self.mismatches = []

    def check(self, where, expected, got):
        self.checks += 1
        if expected != got:
            self.mismatches.append("%s: %s: expected %s, model %s"
                                   % (self.fname, where, json.dumps(expected), json.dumps(got)))

    def fail(self, where, msg):
        self.mismatches.append("%s: %s: %s" % (self.fname, where, msg))


def _int(v):
    """Vectors give u64 values as decimal strings (seeds) or JSON numbers."""
    return int(v, 10) if isinstance(v, str) else int(v)


def _policy(obj):
    fields = {k: obj[k] for k in ("initial_ms", "max_backoff_ms", "multiplier_num", "multiplier_den",
                                  "jitter", "jitter_ms", "spread_per_mille", "max_hint_ms",
                                  "max_retries", "max_elapsed_ms", "deadline", "paced") if k in obj}
    return m.make_policy(**fields)


# Each preset of SPEC.md §2 has its schedule vector; the vector's policy must be the preset as the
# model reads it from SPEC, so a preset that drifts from the table fails here.
PRESET_VECTORS = {"schedule-preset-google": "google", "schedule-preset-google-64s": "google_64s",
                  "schedule-preset-aws": "aws_standard", "schedule-preset-grpc": "grpc",
                  "schedule-preset-mobile": "mobile"}
assert sorted(PRESET_VECTORS.values()) == sorted(m.PRESETS), "a preset without its vector file"


def check_schedule(doc, c):
    try:
        policy = _policy(doc["policy"])
    except m.SpecError as e:
        c.fail("policy", "model rejects the policy: %s" % e.name)
        return
    preset = PRESET_VECTORS.get(doc.get("name"))
    if preset is not None:
        c.check("policy", m.preset(preset)._asdict(), policy._asdict())
    for ci, case in enumerate(doc["cases"]):
        b = m.Backoff(policy, _int(case["seed"]))
        ops, expect = case["ops"], case["expect"]
        if len(ops) != len(expect):
            c.fail("case %d" % ci, "%d ops but %d expectations" % (len(ops), len(expect)))
        for oi, (op, exp) in enumerate(zip(ops, expect)):
            where = "case %d (seed %s) op %d %r" % (ci, case["seed"], oi, op)
            mt = OP_RE.match(op)
            if not mt:
                c.fail(where, "unknown op")
                break
            n, x, r, s, h, t, lim = mt.groups()
            if r:
                b.reset()
                got = None
            elif s:
                snap = b.snapshot()
                got = snap.hex()
                try:
                    b = m.Backoff.restore(policy, snap)
                except m.SpecError as e:
                    c.fail(where, "model cannot restore its own snapshot: %s" % e.name)
                    break
            else:
                hint = (m.DO_NOT_RETRY if x else m.RetryAfter(int(h)) if h
                        else m.RateLimit(int(lim)) if lim else None)
                res = b.next(hint=hint, elapsed=int(t) if t else None)
                got = res.delay_ms if isinstance(res, m.Retry) else res.reason
            c.check(where, exp, got)


def check_retry_after(doc, c):
    for ci, case in enumerate(doc["cases"]):
        if "value_hex" in case:
            value, shown = bytes.fromhex(case["value_hex"]), "hex " + case["value_hex"]
        else:
            value, shown = case["value"], repr(case["value"])
        where = "case %d value %s now %s" % (ci, shown, case["now"])
        try:
            got = {"expect_ms": m.parse_retry_after(value, _int(case["now"]))}
        except m.SpecError as e:
            got = {"error": e.name}
        exp = {k: case[k] for k in ("expect_ms", "error") if k in case}
        c.check(where, exp, got)


def check_rate_limit(doc, c):
    names = [name for _, name, _ in rl.HEADERS]
    c.check("headers", names, doc.get("headers"))
    for ci, case in enumerate(doc["cases"]):
        if "value_hex" in case:
            value, shown = bytes.fromhex(case["value_hex"]), "hex " + case["value_hex"]
        else:
            value, shown = case["value"], repr(case["value"])
        where = "case %d %s %s now %s" % (ci, case["header"], shown, case["now"])
        try:
            got = {"expect_ms": rl.parse_rate_limit(case["header"], value, _int(case["now"]))}
        except m.SpecError as e:
            got = {"error": e.name}
        exp = {k: case[k] for k in ("expect_ms", "error") if k in case}
        c.check(where, exp, got)


def _budget(obj):
    """§11 does not name the budget object's keys; accept a mode key or infer it from the fields."""
    mode = str(obj.get("mode", obj.get("kind", obj.get("type", "")))).lower()
    params = {k: v for k, v in obj.items() if k not in ("mode", "kind", "type")}
    if mode in ("grpc",) or (not mode and "max_tokens" in obj):
        return m.GrpcBudget(params["max_tokens"], params["token_ratio_milli"])
    if mode in ("aws", "aws_quota", "quota") or (not mode and "capacity" in obj):
        return m.AwsBudget(**params)
    raise ValueError("unrecognised budget %r" % (obj,))


BUDGET_KIND = {"e": "error", "t": "timeout"}


def check_budget(doc, c):
    for ci, case in enumerate(doc["cases"]):
        bud = _budget(case["budget"])
        ops, expect = case["ops"], case["expect"]
        if len(ops) != len(expect):
            c.fail("case %d" % ci, "%d ops but %d expectations" % (len(ops), len(expect)))
        for oi, (op, exp) in enumerate(zip(ops, expect)):
            where = "case %d op %d %r" % (ci, oi, op)
            allowed = 1
            if op in ("fe", "ft"):
                bud.record_failure(BUDGET_KIND[op[1]])
            elif op in ("ae", "at"):
                allowed = int(bud.try_acquire(BUDGET_KIND[op[1]]))
            elif op == "s":
                bud.record_success(None)
            elif op in ("se", "st"):
                bud.record_success(BUDGET_KIND[op[1]])
            else:
                c.fail(where, "unknown op")
                break
            c.check(where, list(exp), [allowed, bud.tokens_milli])


def check_classify(doc, c):
    for proto, fn in (("http", m.classify_http), ("grpc", m.classify_grpc)):
        for code, cls in doc.get(proto, []):
            c.check("%s %s" % (proto, code), cls, fn(code))
    for given, sent, may_retry in doc.get("methods", []):
        c.check("method %r as sent" % given, sent, m.method_as_sent(given))
        c.check("method %r may retry" % given, may_retry, m.request_may_retry(sent, False))


def check_run(doc, c):
    for ci, case in enumerate(doc["cases"]):
        policy = _policy(case["policy"])
        budget = _budget(case["budget"]) if "budget" in case else None
        run = run_model.Run(policy, _int(case["seed"]), case["count_paused"],
                            case.get("startup_window_ms", 0))
        for ei, (event, exp) in enumerate(zip(case["events"], case["expect"])):
            c.check("case %d (%s) event %d %s" % (ci, case["name"], ei, json.dumps(event)),
                    exp, run_model.feed(run, event, budget))
        if len(case["events"]) != len(case["expect"]):
            c.fail("case %d" % ci, "events and expectations differ in number")
        if budget is not None:
            c.check("case %d tokens" % ci, case["expect_tokens_milli"], budget.tokens_milli)


def check_run_send_rate(doc, c):
    for ci, case in enumerate(doc["cases"]):
        policy = _policy(case["policy"])
        budget = _budget(case["budget"]) if "budget" in case else None
        rate = send_rate_model.SendRate(case["send_rate"])
        run = run_send_rate_model.PacedRun(policy, _int(case["seed"]), case["count_paused"])
        for ei, (event, exp) in enumerate(zip(case["events"], case["expect"])):
            c.check("case %d (%s) event %d %s" % (ci, case["name"], ei, json.dumps(event)),
                    exp, run_send_rate_model.feed(run, rate, event, budget))
        if len(case["events"]) != len(case["expect"]):
            c.fail("case %d" % ci, "events and expectations differ in number")
        c.check("case %d rate" % ci, case["expect_rate_milli"], rate.rate)
        if budget is not None:
            c.check("case %d tokens" % ci, case["expect_tokens_milli"], budget.tokens_milli)


def check_send_rate(doc, c):
    for case in doc["cases"]:
        rate = send_rate_model.SendRate(case["config"])
        for i, (event, exp) in enumerate(zip(case["events"], case["expect"])):
            c.check("case %s event %d %s" % (case["name"], i, json.dumps(event)), exp,
                    send_rate_model.feed(rate, event))
    for err in doc["errors"]:
        c.check("error %s" % json.dumps(err["config"]), err["error"],
                send_rate_model.config_error(err["config"]))


def check_pacer(doc, c):
    # SPEC.md §16 has its own model; this runs its cases so that no vector file goes unchecked.
    import pacer_model
    for case in doc["cases"]:
        try:
            pacer, error = pacer_model.make(case["config"]), None
        except m.SpecError as e:
            pacer, error = None, e.name
        if "error" in case:
            c.check("pacer %s" % case["config"], case["error"], error)
            continue
        for op, expect in zip(case["ops"], case["expect"]):
            c.check("pacer %s %s" % (case["config"], op), expect, pacer_model.run_op(pacer, op))


def check_call_seed(doc, c):
    google = m.preset("google")
    for case in doc["cases"]:
        seed, index = _int(case["seed"]), _int(case["index"])
        call = m.call_seed(seed, index)
        c.check("call_seed(%d, %d)" % (seed, index), case["expect"], str(call))
        b = m.Backoff(google, call)
        got = []
        for _ in case["google_delays"]:
            step = b.next()
            got.append(step.delay_ms if isinstance(step, m.Retry) else None)
        c.check("google delays of call %d of seed %d" % (index, seed), case["google_delays"], got)


def check_reconnect(doc, c):
    for case in doc["cases"]:
        policy = _policy(case["policy"])
        try:
            r = fleet_model.Reconnect(policy, _int(case["seed"]))
        except m.SpecError as e:
            c.check("%s: refused" % case["name"], case.get("error"), e.name)
            continue
        if "error" in case:
            c.fail(case["name"], "the model accepts the policy")
            continue
        for oi, (op, exp, retries) in enumerate(zip(case["ops"], case["expect"],
                                                    case["expect_retries"])):
            if op == "n":
                got = r.next()
            elif op == "r":
                got = r.reset()
            else:
                got = r.fast_forward(int(op[1:]))
            c.check("%s op %d %r" % (case["name"], oi, op), exp, got)
            c.check("%s op %d %r: retries" % (case["name"], oi, op), retries, r.retries)
        if not (len(case["ops"]) == len(case["expect"]) == len(case["expect_retries"])):
            c.fail(case["name"], "ops, expect and expect_retries differ in length")


KINDS = {"call_seed": check_call_seed, "reconnect": check_reconnect, "send_rate": check_send_rate, "run": check_run,
         "run_send_rate": check_run_send_rate, "pacer": check_pacer, "schedule": check_schedule,
         "retry_after": check_retry_after, "budget": check_budget, "classify": check_classify,
         "rate_limit": check_rate_limit}


def check_file(path):
    c = Checker(os.path.basename(path))
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
        kind = doc.get("kind")
        if kind not in KINDS:
            c.fail("file", "unknown kind %r" % (kind,))
        else:
            KINDS[kind](doc, c)
    except Exception as e:  # a malformed file is a failure, reported, not a crash
        c.fail("file", "error while checking: %s: %s" % (type(e).__name__, e))
    if c.checks == 0 and not c.mismatches:
        c.fail("file", "no checks in file")
    return c


def main(argv):
    vdir = argv[1] if len(argv) > 1 else os.path.join(REPO_ROOT, "tests", "vectors")
    files = sorted(glob.glob(os.path.join(vdir, "*.json")))
    # The reconnect loop's (SPEC.md §12.3), apart because only the core and the C library have it.
    files += sorted(glob.glob(os.path.join(vdir, "reconnect", "*.json")))
    # The startup delay's runs (§15.3), in their own directory.
    files += sorted(glob.glob(os.path.join(vdir, "startup", "*.json")))
    if not files:
        print("error: no vector files (*.json) in %s" % vdir)
    passed = failed = 0
    names = {os.path.splitext(os.path.basename(f))[0] for f in files}
    for stem in sorted(set(PRESET_VECTORS) - names) if files else []:
        print("%s.json: missing (the vector of preset %s)" % (stem, PRESET_VECTORS[stem]))
        failed += 1
    for path in files:
        c = check_file(path)
        ok = not c.mismatches
        print("%s: %d checks, %s" % (c.fname, c.checks,
                                     "ok" if ok else "%d mismatches" % len(c.mismatches)))
        for line in c.mismatches:
            print("  MISMATCH " + line)
        passed, failed = passed + ok, failed + (not ok)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
