#!/usr/bin/env python3
"""Writes python/target/header.h: the C ABI's declarations for cffi's cdef().

The source is ffi/include/seeded_backoff.h, which cbindgen generates. cffi reads plain C
declarations and `#define NAME <integer>` only, so this drops the include guard, the #include
lines and the C++-only parts (`#ifdef __cplusplus` ... `#endif`), and keeps everything else as is.

Usage: python3 python/gen_cffi_header.py [--check]   (--check: exit 1 if the file is stale)
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "ffi", "include", "seeded_backoff.h")
TARGET = os.path.join(HERE, "target", "header.h")
DEFINE = re.compile(r"^#define [A-Z_0-9]+ -?[0-9]+$")


def cffi_declarations(text):
    out, skipping = [], False
    for line in text.splitlines():
        # cbindgen writes u64::MAX as the C macro; cffi reads only integer literals.
        line = re.sub(r"^(#define [A-Z_0-9]+) UINT64_MAX$", r"\1 18446744073709551615", line)
        stripped = line.strip()
        if stripped.startswith("#ifdef __cplusplus"):
            skipping = True
        elif skipping:
            skipping = not stripped.startswith("#endif")
        elif stripped.startswith("#define ") and len(stripped.split()) > 2 and not DEFINE.match(stripped):
            # A constant cffi cannot read would vanish from the package: make cbindgen emit a literal.
            raise SystemExit(f"gen_cffi_header: not an integer literal: {stripped}")
        elif stripped.startswith("#") and not DEFINE.match(stripped):
            continue
        else:
            out.append(line)
    return "/* Derived from ffi/include/seeded_backoff.h by python/gen_cffi_header.py. Do not edit. */\n" + \
        "\n".join(out).strip() + "\n"


def main(argv):
    with open(SOURCE, encoding="utf-8") as f:
        want = cffi_declarations(f.read())
    if "--check" in argv:
        try:
            with open(TARGET, encoding="utf-8") as f:
                have = f.read()
        except FileNotFoundError:
            have = None
        if have != want:
            print("python/target/header.h is stale: run python3 python/gen_cffi_header.py", file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(TARGET), exist_ok=True)
    with open(TARGET, "w", encoding="utf-8") as f:
        f.write(want)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
