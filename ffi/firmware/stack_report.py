#!/usr/bin/env python3
"""The worst-case stack of every sb_ function in a linked Cortex-M firmware, from its disassembly.

usage: stack_report.py LABEL ELF [GOAL_BYTES]

Each function's frame is what its instructions can take from the stack: every push/stmdb to sp,
every `sub sp, #n` and pre-indexed store below sp, summed (an upper bound: it does not assume two
pushes are on exclusive paths). A function's worst case is its frame plus the worst of the
functions it calls (bl, blx <label>, or a branch to another function, counted like a call). An
indirect call, a stack adjustment by a register or recursion cannot be bounded this way and is
reported instead of a number, except calls through `&dyn RetryGate`, which count as calls to
every RetryGate method in the image. With a goal, says whether every sb_backoff_next* function meets it;
like the size report it never fails.
"""
import re
import subprocess
import sys

FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
TARGET = re.compile(r"^[0-9a-f]+ <([^+>]+)>")


def reglist_bytes(operands, width=4):
    regs = operands[operands.index("{") + 1:operands.index("}")]
    count = 0
    for part in regs.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = (int(re.sub(r"\D", "", x)) for x in part.split("-"))
            count += hi - lo + 1
        elif part:
            count += 1
    return count * width


def parse(elf):
    text = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf],
                          check=True, capture_output=True, text=True).stdout
    funcs, current, name = {}, None, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            name = m.group(2)
            current = funcs.setdefault(name, {"frame": 0, "calls": set(), "unknown": []})
            continue
        m = INSN.match(line)
        if not m or current is None:
            continue
        op, args = m.group(2), m.group(3).split(";")[0].split("@")[0].strip()
        mnemonic = op.split(".")[0]
        if mnemonic in ("push", "vpush"):
            current["frame"] += reglist_bytes(args, 8 if mnemonic == "vpush" and "d" in args else 4)
        elif mnemonic in ("stmdb", "stmfd") and args.startswith("sp!"):
            current["frame"] += reglist_bytes(args)
        elif mnemonic in ("sub", "subw") and re.match(r"^sp,\s*(sp,\s*)?#", args):
            current["frame"] += int(args.rsplit("#", 1)[1], 0)
        elif mnemonic in ("sub", "subw") and args.startswith("sp,"):
            current["unknown"].append(f"sp adjusted by a register ({op} {args})")
        elif re.search(r"\[sp,\s*#-(\d+)\]!", args):
            current["frame"] += int(re.search(r"\[sp,\s*#-(\d+)\]!", args).group(1))
        elif mnemonic in ("bl", "blx", "b") or (mnemonic.startswith("b") and TARGET.match(args)):
            t = TARGET.match(args)
            if t:
                if t.group(1) != name:
                    current["calls"].add(t.group(1))
            elif mnemonic == "blx" or (mnemonic == "bx" and args != "lr"):
                current["unknown"].append(f"indirect call ({op} {args})")
        elif mnemonic == "bx" and args != "lr":
            current["unknown"].append(f"indirect branch ({op} {args})")
    return funcs


def resolve_indirect(funcs):
    """The library's only indirect calls are through `&dyn RetryGate` (a budget passed to the
    step): each becomes a call to every RetryGate method in the image."""
    gates = {n for n in funcs if "RetryGate" in n}
    for f in funcs.values():
        if gates and any(u.startswith("indirect call") for u in f["unknown"]):
            f["unknown"] = [u for u in f["unknown"] if not u.startswith("indirect call")]
            f["calls"] |= gates


def worst(funcs, name, path=()):
    """(bytes, problems) for the deepest chain of calls from `name`."""
    if name in path:
        return 0, [f"recursion through {name}"]
    f = funcs.get(name)
    if f is None:
        return 0, [f"no code for {name}"]
    deepest, problems = 0, list(f["unknown"])
    for callee in sorted(f["calls"]):
        depth, more = worst(funcs, callee, path + (name,))
        deepest = max(deepest, depth)
        problems += more
    return f["frame"] + deepest, problems


def main(label, elf, goal=None):
    funcs = parse(elf)
    resolve_indirect(funcs)
    names = sorted(n for n in funcs if n.startswith("sb_"))
    print(f"{label}: worst-case stack per call, bytes (frame + deepest callee chain)")
    met = True
    for name in names:
        depth, problems = worst(funcs, name)
        note = "; ".join(sorted(set(problems)))
        if problems:
            shown = "unbounded"
        else:
            shown = str(depth)
        print(f"  {name:<32}{shown:>10}  {note}")
        if goal is not None and name.startswith("sb_backoff_next") and (problems or depth > goal):
            met = False
    if goal is not None:
        print(f"  goal <= {goal} bytes for every sb_backoff_next*: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None)
