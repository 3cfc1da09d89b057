#!/usr/bin/env python3
"""The worst-case stack of every sb_ function in a linked Cortex-M or RISC-V firmware, from its
disassembly.

usage: stack_report.py LABEL ELF [GOAL_BYTES]

Each function's frame is what its instructions can take from the stack, summed (an upper bound:
it does not assume two adjustments are on exclusive paths): on Arm every push/stmdb to sp, every
`sub sp, #n` and pre-indexed store below sp; on RISC-V every `addi sp,sp,-n`. A function's worst
case is its frame plus the worst of the functions it calls (Arm: bl, blx <label>; RISC-V: jal,
auipc+jalr, and auipc+jr, a tail call, whose targets objdump names; on both a branch to another
function counts like a call). A tail call (a branch without link) that follows the pops of part
or all of the frame adds the callee's worst case to what is left of the frame, as the callee's
frame takes the popped part's place (see `parse_text`; ffi/firmware/test_stack_report.py checks it
on hand-written listings). An indirect call, a stack adjustment by a register or recursion cannot be bounded this way
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
        step = int(adjust.group(1))
        if step < 0:
            current["frame"] -= step
            current["released"] = 0
        else:
            current["released"] += step
        return
    current["released_before"] = current["released"]
    if op in ("add", "sub") and args.startswith("sp,"):
        current["unknown"].append(f"sp adjusted by a register ({op} {args})")
    elif op in ("jal", "j", "call", "tail") or op.startswith("b"):
        t = CALLEE.search(args)
        if t and t.group(2) != name:
            tail_call(current, t.group(2), op in ("j", "tail") or op.startswith("b"))
    elif op in ("jr", "c.jr") and CALLEE.search(comment):
        # A tail call (auipc + jr), whose target objdump names; a jump table's jr names none.
        t = CALLEE.search(comment)
        if t.group(2) != name:
            tail_call(current, t.group(2), True)
    elif op in ("jr", "c.jr") and args != "ra":
        current["jump_table"] = True
    elif op in ("jalr", "c.jalr"):
        t = CALLEE.search(comment)
        if t:
            current["calls"].add(t.group(2))
        else:
            current["unknown"].append(f"indirect call ({op} {args})")
    if op.startswith(("b", "c.b", "j", "c.j", "ret", "tail", "call", "mret")) or args.startswith("sp,"):
        current["released"] = 0


def tail_call(current, callee, is_jump):
    """A branch to another function: a call on top of the whole frame, or for a jump (no link)
    a tail call on top of what is left of the frame after the pops just before it."""
    if not is_jump:
        current["calls"].add(callee)
        return
    tails = current["tails"]
    tails[callee] = min(tails.get(callee, current["released_before"]), current["released_before"])


# Arm instructions that give stack back: pop and ldm from sp (without pc, else a return),
# `add sp, #n`, a post-indexed load from sp.
ARM_POP = re.compile(r"^(pop|vpop|ldmia|ldmfd|ldm)$")


def arm_released(mnemonic, args):
    """The bytes an unconditional Arm instruction gives back to the stack, or None if none."""
    if ARM_POP.match(mnemonic) and (mnemonic in ("pop", "vpop") or args.startswith("sp!")):
        if re.search(r"\bpc\b", args):
            return None
        return reglist_bytes(args, 8 if mnemonic == "vpop" and "d" in args else 4)
    if mnemonic in ("add", "addw") and re.match(r"^sp,\s*(sp,\s*)?#", args):
        return int(args.rsplit("#", 1)[1], 0)
    m = re.match(r"^(\w+),\s*\[sp\],\s*#(\d+)$", args)
    if mnemonic == "ldr" and m and m.group(1) != "pc":
        return int(m.group(2))
    return None


def arm_insn(current, name, op, args, it_left):
    """One Arm instruction's part in the frame, calls and tail calls of the function it is in."""
    mnemonic = op.split(".")[0]
    released = None if it_left else arm_released(mnemonic, args)
    if released is not None:
        current["released"] += released
        return
    current["released_before"] = current["released"]
    if mnemonic.startswith(("b", "cb", "tb", "it")) or args.startswith("sp") or re.search(r"\bpc\b", args):
        current["released"] = 0
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
                tail_call(current, t.group(1), mnemonic not in ("bl", "blx"))
        elif mnemonic == "blx" or (mnemonic == "bx" and args != "lr"):
            current["unknown"].append(f"indirect call ({op} {args})")
    elif mnemonic == "bx" and args != "lr":
        current["unknown"].append(f"indirect branch ({op} {args})")
    elif mnemonic in ("tbb", "tbh") or re.match(r"^pc\b", args):
        current["jump_table"] = True


def parse(elf):
    riscv = is_riscv(elf)
    objdump = "riscv64-unknown-elf-objdump" if riscv else "arm-none-eabi-objdump"
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf],
                          check=True, capture_output=True, text=True).stdout
    return parse_text(text, riscv)


def parse_text(text, riscv):
    """{function: its frame, calls, tail calls and problems} from `objdump -d` output.

    A tail call (a branch without link to another function) right after pops costs what is left
    of the frame after those pops plus the callee's worst case, not the whole frame plus it: the
    callee's frame replaces the popped part. Only pops that run on every path to the branch count:
    unconditional ones (none in an IT block), with no branch, call or branch target between them
    and the branch; in a function with a jump table (whose targets objdump does not name) none do.
    """
    lines = text.splitlines()
    targets = set()
    for line in lines:
        m = INSN.match(line)
        if m:
            targets.update(int(t, 16) for t in re.findall(r"\b([0-9a-f]+) <[^>]+>", m.group(3)))
    funcs, current, name, it_left = {}, None, None, 0
    for line in lines:
        m = FUNC.match(line)
        if m:
            name = m.group(2)
            current = funcs.setdefault(name, {"frame": 0, "calls": set(), "tails": {}, "unknown": [],
                                              "jump_table": False, "released": 0,
                                              "released_before": 0})
            it_left = 0
            continue
        m = INSN.match(line)
        if not m or current is None:
            continue
        if int(m.group(1), 16) in targets:
            current["released"] = 0
        if riscv:
            riscv_insn(current, name, m.group(2), m.group(3))
            continue
        op, args = m.group(2), m.group(3).split(";")[0].split("@")[0].strip()
        arm_insn(current, name, op, args, it_left)
        it_left = len(op) - 1 if re.fullmatch(r"it[te]{0,3}", op) else max(0, it_left - 1)
    return funcs


def resolve_indirect(funcs):
    """The library's only indirect calls are through `&dyn RetryGate` (a budget passed to the
    step): each becomes a call to every RetryGate method in the image. An image without one (a
    firmware that never passes a budget: --gc-sections dropped every implementation) has no
    target for such a call, so it cannot be taken."""
    gates = {n for n in funcs if "RetryGate" in n}
    for f in funcs.values():
        if any(u.startswith("indirect call") for u in f["unknown"]):
            f["unknown"] = [u for u in f["unknown"] if not u.startswith("indirect call")]
            f["calls"] |= gates


def worst(funcs, name, path=()):
    """(bytes, problems) for the deepest chain of calls from `name`."""
    if name in path:
        return 0, [f"recursion through {name}"]
    f = funcs.get(name)
    if f is None:
        return 0, [f"no code for {name}"]
    deepest, problems = f["frame"], list(f["unknown"])
    for callee in sorted(f["calls"] | set(f["tails"])):
        depth, more = worst(funcs, callee, path + (name,))
        if callee in f["calls"]:
            deepest = max(deepest, f["frame"] + depth)
        if callee in f["tails"]:
            left = f["frame"] - (0 if f["jump_table"] else f["tails"][callee])
            deepest = max(deepest, left + depth)
        problems += more
    return deepest, problems


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
