#!/usr/bin/env python3
"""The worst-case stack of every sb_ function in a linked Cortex-M or RISC-V firmware, from its
disassembly.

usage: stack_report.py LABEL ELF [GOAL_BYTES]

Each function's frame is what its instructions can take from the stack, summed (an upper bound:
it does not assume two adjustments are on exclusive paths): on Arm every push/stmdb to sp, every
`sub sp, #n` and pre-indexed store below sp; on RISC-V every `addi sp,sp,-n`. A function's worst
case is its frame plus the worst of the functions it calls (Arm: bl, blx <label>; RISC-V: jal,
auipc+jalr, and auipc+jr, a tail call, whose targets objdump names; on both a branch to another
function counts like a call). An indirect call, a stack adjustment by a register or recursion cannot be bounded this way
and is reported instead of a number, except calls through `&dyn RetryGate`, which count as calls
to every RetryGate method in the image; a RISC-V `jr` through a register other than ra is a jump
table within the function. With a goal, says whether every sb_backoff_next* and sb_run_*
function meets it; like the size report it never fails.
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


CALLEE = re.compile(r"([0-9a-f]+) <([^+>]+)>$")


def is_riscv(elf):
    """The ELF header's e_machine: 243 is RISC-V (else Arm)."""
    with open(elf, "rb") as f:
        header = f.read(20)
    return int.from_bytes(header[18:20], "little") == 243


def riscv_insn(current, name, op, operands):
    """One RISC-V instruction's part in the frame and the calls of the function it is in."""
    args, _, comment = operands.partition("#")
    args, comment = args.strip(), comment.strip()
    adjust = re.match(r"^sp,\s*sp,\s*(-?\d+)$", args)
    if op in ("addi", "add", "c.addi", "c.addi16sp") and adjust:
        current["frame"] += max(0, -int(adjust.group(1)))
    elif op in ("add", "sub") and args.startswith("sp,"):
        current["unknown"].append(f"sp adjusted by a register ({op} {args})")
    elif op in ("jal", "j", "call", "tail") or op.startswith("b"):
        t = CALLEE.search(args)
        if t and t.group(2) != name:
            current["calls"].add(t.group(2))
    elif op in ("jr", "c.jr") and CALLEE.search(comment):
        # A tail call (auipc + jr), whose target objdump names; a jump table's jr names none.
        t = CALLEE.search(comment)
        if t.group(2) != name:
            current["calls"].add(t.group(2))
    elif op in ("jalr", "c.jalr"):
        t = CALLEE.search(comment)
        if t:
            current["calls"].add(t.group(2))
        else:
            current["unknown"].append(f"indirect call ({op} {args})")


def parse(elf):
    riscv = is_riscv(elf)
    objdump = "riscv64-unknown-elf-objdump" if riscv else "arm-none-eabi-objdump"
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf],
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
        if riscv:
            riscv_insn(current, name, m.group(2), m.group(3))
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


def stacks(elf):
    """{sb_ function: (worst-case bytes, the problems that leave it unbounded)}."""
    funcs = parse(elf)
    resolve_indirect(funcs)
    return {n: worst(funcs, n) for n in sorted(funcs) if n.startswith("sb_")}


def bounded(name, depth, problems, goal):
    """Whether a function the goal covers (sb_backoff_next*, sb_run_*) meets it."""
    return not name.startswith(("sb_backoff_next", "sb_run_")) or (not problems and depth <= goal)


def main(label, elf, goal=None):
    print(f"{label}: worst-case stack per call, bytes (frame + deepest callee chain)")
    met = True
    for name, (depth, problems) in stacks(elf).items():
        note = "; ".join(sorted(set(problems)))
        shown = "unbounded" if problems else str(depth)
        print(f"  {name:<32}{shown:>10}  {note}")
        if goal is not None and not bounded(name, depth, problems, goal):
            met = False
    if goal is not None:
        print(f"  goal <= {goal} bytes for every sb_backoff_next* and sb_run_*: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None)
