#!/usr/bin/env python3
"""The C library's size and stack tables in markdown, from the firmwares that
scripts/test.d/30-ffi.sh links (the maps and ELFs in its output directory), so that lab/RESULTS.md
shows what today's build measures (`bash lab/benchmarks.sh c-library`).

usage: c_tables.py OUT_DIR          the tables of 30-ffi's firmwares
       c_tables.py --sdk SDK_DIR    the thumbv7m SDK's prebuilt archives as shipped, linked by
                                    scripts/release/test-c-sdk.sh (NAME.map/.elf and NAME-step.*)

Goals are stated beside their figures and reported, not asserted (30-ffi asserts what must hold).
"""
import os
import subprocess
import sys

from size_report import library_bytes
from stack_report import bounded, stacks

RV = ("riscv32imc-unknown-none-elf", "riscv32imac-unknown-none-elf")
STEP_GOAL, SHORT_GOAL, STACK_GOAL = 1024, 6144, 256

# (firmware, library features, map under OUT_DIR, goal for the library text)
FIRMWARES = [
    ("`main_step.c`: Google preset stepped by hand (`sb_backoff_next`)", "`preset-google`", "thumbv7m",
     "step-google-preset.map", STEP_GOAL),
    ("`main_google.c`: Google preset, the loop from the library (`sb_run_*`)", "`preset-google,run`", "thumbv7m",
     "google-google-preset.map", None),
    ("`main_google.c`", "`jitter-google,runtime-policy,run` (any policy with Google jitter)", "thumbv7m",
     "google-google-jitter.map", None),
    ("`main_google.c`", "default", "thumbv7m", "google.map", None),
    ("whole API (every function, replays every vector)", "every feature but `long-messages`", "thumbv7m",
     "vectors-short-messages.map", SHORT_GOAL),
    ("whole API", "default", "thumbv7m", "vectors.map", None),
    ("whole API", "default", "thumbv6m", "vectors-v6m.map", None),
] + [row for t in RV for row in (
    ("`main_step.c`", "`preset-google`", t.split("-")[0], f"{t}/google-only.map", STEP_GOAL),
    ("`main_google.c`", "default", t.split("-")[0], f"{t}/google.map", None))]

# What each feature of ffi/Cargo.toml holds, in the order of the table.
FEATURES = {
    "jitter-none": "the strategy `none`",
    "jitter-google": "Google's jitter",
    "jitter-full": "full jitter",
    "jitter-equal": "equal jitter",
    "jitter-decorrelated": "decorrelated jitter",
    "jitter-proportional": "proportional jitter",
    "runtime-policy": "any valid policy; without it only the presets, and the library works on constants",
    "run": "`sb_run_*`: the run of SPEC.md §15",
    "reconnect": "`sb_reconnect_*`: a device's reconnect loop, SPEC.md §12.3",
    "time-budget": "`max_elapsed_ms` policies, `SB_INPUT_ELAPSED`",
    "hints": "server hints in `sb_run_outcome` and `sb_backoff_next_with`, `sb_parse_grpc_pushback`",
    "retry-after": "`sb_parse_retry_after` (the HTTP-date parser), `sb_parse_rate_limit`, `sb_hint_from_headers`",
    "budget": "`sb_budget_*`, and a budget given to the run or the step",
    "snapshot": "`sb_backoff_snapshot`, `sb_backoff_restore`, `sb_run_snapshot`, `sb_run_restore`",
    "fleet": "`sb_seed_from_device`, `sb_startup_delay`",
    "pacer": "`sb_pacer_*`: the server-side pacer of SPEC.md §16",
    "send-rate": "`sb_send_rate_*` and the run's paced calls: the send rate of SPEC.md §17",
    "store": "`sb_budget_encode`, `sb_pacer_encode`, `sb_send_rate_encode` and their `_decode`: a part's value in a store a fleet shares, SPEC.md §19.2",
    "long-messages": "`sb_strerror` sentences; without it the status's name",
    "bindings": "what language bindings use: `sb_policy_from_options`, the `sb_*_name` tables",
}

# (column, ELF under OUT_DIR)
STACKS = [
    ("thumbv7m", "vectors.elf"),
    ("thumbv6m", "vectors-v6m.elf"),
    ("thumbv7m, `preset-google,run`", "vectors-google-preset.elf"),
    ("thumbv6m, `preset-google,run`", "vectors-v6m-google-preset.elf"),
] + [(t.split("-")[0], f"{t}/vectors.elf") for t in RV]


def verdict(value, goal):
    if goal is None:
        return ""
    return f"≤ {goal:,} B, met" if value <= goal else f"≤ {goal:,} B, **not met**"


def text_size(elf):
    out = subprocess.run(["arm-none-eabi-size", elf], check=True, capture_output=True, text=True).stdout
    return int(out.splitlines()[1].split()[0])


def main(out):
    path = lambda p: os.path.join(out, p)
    print("| firmware | library features | target | library text (core + C layer) | mem* helpers | goal |")
    print("|---|---|---|---:|---:|---|")
    for firmware, features, target, map_file, goal in FIRMWARES:
        lib, mem = library_bytes(path(map_file))
        print(f"| {firmware} | {features} | {target} | {lib:,} B | {mem:,} B | {verdict(lib, goal)} |")

    whole = library_bytes(path("vectors.map"))[0]
    built = sorted(f[len("without-"):-len(".map")] for f in os.listdir(out)
                   if f.startswith("without-") and f.endswith(".map"))
    unknown = [f for f in built if f not in FEATURES]
    if unknown:
        sys.exit(f"c_tables.py: no description for the features {unknown}")
    print()
    print("| feature (thumbv7m, whole API) | what it holds | bytes it adds |")
    print("|---|---|---:|")
    for feature, what in FEATURES.items():
        if feature in built:
            added = whole - library_bytes(path(f"without-{feature}.map"))[0]
            print(f"| `{feature}` | {what} | {added:,} |")

    columns = [(name, stacks(path(elf))) for name, elf in STACKS]
    names = sorted({n for _, table in columns for n in table})
    print()
    print("| function | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for n in names:
        cells = []
        for _, table in columns:
            depth, problems = table.get(n, (None, []))
            cells.append("(merged)" if depth is None else "unbounded" if problems else str(depth))
        print(f"| `{n}` | " + " | ".join(cells) + " |")
    print()
    for name, table in columns:
        missed = [n for n, (d, p) in table.items() if not bounded(n, d, p, STACK_GOAL)]
        shown = ", ".join(f"`{n}`" for n in missed) if missed else "none"
        print(f"- {name}: stack goal ≤ {STACK_GOAL} B for `sb_backoff_next*` and `sb_run_*` "
              f"{'met' if not missed else '**not met**'} (over it: {shown})")

    sdk, alone, cargo = (text_size(path(f"runtime-{k}.elf")) for k in ("sdk", "crate-only", "cargo"))
    print(f"- `main_runtime.c` (thumbv7m; also calls `memcpy`, `sqrtf` and a 64-bit division): .text "
          f"{sdk:,} B with the SDK's archive, {alone:,} B with the library's code alone, {cargo:,} B with "
          f"Cargo's archive (whose compiler_builtins define all three)")


# (archive in the SDK, its features, the run's firmware it is linked with)
SDK = [
    ("google", "`lib/variants/google` (`preset-google,run`)", "`main_google.c`"),
    ("fleet", "`lib/variants/fleet` (`jitter-full,runtime-policy,run,fleet`)", "`main_fleet.c`"),
    ("whole", "`lib/libseeded_backoff_ffi.a` (whole API)", "`main_fleet.c`"),
]


def sdk(directory):
    path = lambda p: os.path.join(directory, p)
    print("| thumbv7m SDK archive | the run's firmware | its library text | `sb_run_outcome` stack "
          "| `main_step.c`: library text | `sb_backoff_next` stack |")
    print("|---|---|---:|---:|---:|---:|")
    for name, archive, firmware in SDK:
        run = stacks(path(f"{name}.elf"))
        step = stacks(path(f"{name}-step.elf"))
        cells = []
        for table, fn in ((run, "sb_run_outcome"), (step, "sb_backoff_next")):
            depth, problems = table[fn]
            if problems:
                cells.append("unbounded (" + "; ".join(sorted(set(problems))) + ")")
            else:
                cells.append(f"{depth} B" + (f", {verdict(depth, STACK_GOAL)}" if fn == "sb_backoff_next" else ""))
        print(f"| {archive} | {firmware} | {library_bytes(path(f'{name}.map'))[0]:,} B | {cells[0]} "
              f"| {library_bytes(path(f'{name}-step.map'))[0]:,} B | {cells[1]} |")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--sdk":
        sdk(sys.argv[2])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
