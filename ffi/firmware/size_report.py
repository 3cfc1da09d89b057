#!/usr/bin/env python3
"""Sums, from a GNU ld map file, the bytes each part of libseeded_backoff_ffi.a occupies in the
linked firmware: the Rust code (core + the thin C layer, one LTO object) and the compiler-builtins
helpers it pulled in (memcpy and friends, which a firmware has anyway, and the rest: 64-bit
division). As in arm-none-eabi-size, text is code plus read-only data.

usage: size_report.py LABEL MAP_FILE [GOAL_BYTES]
       size_report.py --bytes MAP_FILE   (prints only the library's text without mem*)

With a goal, compares the library's text without the mem* helpers (every firmware has those) with
it and says whether the goal is met. It never fails: goals are reported, not asserted.
"""
import contextlib
import os
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^\s*(\.[^\s]+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")


def kind(section):
    for prefix, column in ((".text", "code"), (".rodata", "rodata"), (".ARM.exidx", "code"),
                           (".data", "data"), (".bss", "bss")):
        if section.startswith(prefix):
            return column
    return None


def part(origin, section):
    if "compiler_builtins" not in origin:
        return "core+ffi"
    if re.search(r"mem(cpy|set|move|cmp|clr)", section):
        return "builtins: mem*"
    return "builtins: other"


def measure(map_path):
    """(totals, biggest): bytes per part and column, and the core+ffi text per symbol."""
    text = open(map_path).read()
    body = text.split("Linker script and memory map", 1)[1]
    totals = defaultdict(lambda: defaultdict(int))
    biggest = defaultdict(int)
    pending = None
    for line in body.splitlines():
        m = LINE.match(line)
        if not m:
            stripped = line.strip()
            pending = stripped if stripped.startswith(".") and " " not in stripped else None
            continue
        section = m.group(1) or pending
        pending = None
        size, origin = int(m.group(3), 16), m.group(4)
        if section is None or size == 0 or "libseeded_backoff_ffi.a(" not in origin:
            continue
        column = kind(section)
        if column is None:
            continue
        name = part(origin, section)
        totals[name][column] += size
        if name == "core+ffi" and column in ("code", "rodata"):
            biggest[re.sub(r"^\.(text|rodata)\.", "", section)] += size
    return totals, biggest


def library_bytes(map_path):
    """The library's text without the mem* helpers (every firmware has those), and the mem* text."""
    totals, _ = measure(map_path)
    text = {n: t["code"] + t["rodata"] for n, t in totals.items()}
    mem = text.get("builtins: mem*", 0)
    return sum(text.values()) - mem, mem


def main(label, map_path):
    totals, biggest = measure(map_path)
    print(f"{label}: libseeded_backoff_ffi.a as linked (from the map file)")
    print(f"  {'part':<18}{'code':>7}{'rodata':>8}{'text':>7}{'data':>6}{'bss':>6}")
    whole = 0
    for name in ("core+ffi", "builtins: mem*", "builtins: other"):
        t = totals[name]
        text = t["code"] + t["rodata"]
        whole += text
        print(f"  {name:<18}{t['code']:>7}{t['rodata']:>8}{text:>7}{t['data']:>6}{t['bss']:>6}")
    print(f"  {'total text':<18}{whole:>22}")
    print("  largest core+ffi symbols (bytes):")
    for name, size in sorted(biggest.items(), key=lambda kv: -kv[1])[:8]:
        print(f"    {size:>6}  {name[:90]}")
    return library_bytes(map_path)[0]


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    if sys.argv[1] == "--bytes":
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
            measured = main("", sys.argv[2])
        print(measured)
        sys.exit(0)
    measured = main(sys.argv[1], sys.argv[2])
    if len(sys.argv) == 4:
        goal = int(sys.argv[3])
        verdict = "met" if measured <= goal else f"NOT met, over by {measured - goal} bytes"
        print(f"  goal <= {goal} bytes (library text without mem*): {measured} bytes, {verdict}")
