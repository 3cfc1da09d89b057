#!/usr/bin/env python3
"""stack_report.py on hand-written `objdump -d` listings, whose worst cases are counted by hand:
a tail call costs the larger of the caller's frame and the callee's worst case only where the
frame is popped on every path to the branch; otherwise the sum.

usage: python3 ffi/firmware/test_stack_report.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stack_report import parse_text, resolve_indirect, worst  # noqa: E402

# The callee of every listing: 20 B pushed + 100 B below them = 120 B, no calls.
ARM_CALLEE = """
00000100 <sb_callee>:
     100:	push	{r4, r5, r6, r7, lr}
     102:	sub	sp, #100	@ 0x64
     104:	add	sp, #100	@ 0x64
     106:	pop	{r4, r5, r6, r7, pc}
"""


def depth(listing, name="sb_caller", riscv=False):
    funcs = parse_text(listing, riscv)
    d, problems = worst(funcs, name)
    assert not problems, problems
    return d


class Indirect(unittest.TestCase):
    """`&dyn RetryGate` calls: each a call to every RetryGate method linked; none linked, none."""

    def funcs(self, gate):
        step = {"frame": 40, "calls": set(), "tails": {}, "jump_table": False,
                "unknown": ["indirect call (blx r2)"]}
        funcs = {"sb_step": step}
        if gate:
            funcs["<RetryGate>::try_spend"] = {"frame": 64, "calls": set(), "tails": {},
                                               "jump_table": False, "unknown": []}
        resolve_indirect(funcs)
        return worst(funcs, "sb_step")

    def test_a_linked_gate_is_the_callee(self):
        self.assertEqual(self.funcs(True), (104, []))

    def test_no_gate_linked_leaves_no_target(self):
        self.assertEqual(self.funcs(False), (40, []))


class Arm(unittest.TestCase):
    def test_tail_call_after_the_whole_frame_is_popped(self):
        # 12 B pushed + 20 B: 32 B, all given back before `b.w`: max(32, 120).
        listing = """
00000200 <sb_caller>:
     200:	push	{r4, r7, lr}
     202:	sub	sp, #20
     204:	movs	r0, #1
     206:	add	sp, #20
     208:	ldmia.w	sp!, {r4, r7, lr}
     20c:	b.w	100 <sb_callee>
""" + ARM_CALLEE
        self.assertEqual(depth(listing), 120)

    def test_a_call_adds_the_whole_frame(self):
        listing = """
00000200 <sb_caller>:
     200:	push	{r4, r7, lr}
     202:	sub	sp, #20
     204:	bl	100 <sb_callee>
     208:	add	sp, #20
     20a:	pop	{r4, r7, pc}
""" + ARM_CALLEE
        self.assertEqual(depth(listing), 32 + 120)

    def test_a_larger_caller_frame_is_the_worst_case(self):
        listing = """
00000200 <sb_caller>:
     200:	push	{r7, lr}
     202:	sub	sp, #200
     204:	add	sp, #200
     206:	pop	{r7, lr}
     208:	b.w	100 <sb_callee>
""" + ARM_CALLEE
        self.assertEqual(depth(listing), 208)

    def test_a_partial_pop_leaves_the_rest_under_the_callee(self):
        # 20 B pushed + 16 B; only the 16 B are given back: 20 + 120.
        listing = """
00000200 <sb_caller>:
     200:	push	{r4, r5, r6, r7, lr}
     202:	sub	sp, #16
     204:	add	sp, #16
     206:	b.w	100 <sb_callee>
""" + ARM_CALLEE
        self.assertEqual(depth(listing), 20 + 120)

    def test_a_branch_target_between_pop_and_branch_keeps_the_sum(self):
        # The `beq` at 204 reaches the `b.w` without the pop.
        listing = """
00000200 <sb_caller>:
     200:	push	{r4, r7, lr}
     202:	sub	sp, #20
     204:	beq.n	20c <sb_caller+0xc>
     206:	add	sp, #20
     208:	ldmia.w	sp!, {r4, r7, lr}
     20c:	b.w	100 <sb_callee>
""" + ARM_CALLEE
        self.assertEqual(depth(listing), 32 + 120)

    def test_a_conditional_pop_keeps_the_sum(self):
        self.assertEqual(depth(popped_by("cmp\tr0, #0", "itt\teq", "addeq\tsp, #24", "popeq\t{r7, lr}")),
                         32 + 120)

    def test_an_it_block_whose_pops_objdump_prints_without_condition_keeps_the_sum(self):
        self.assertEqual(depth(popped_by("itt\tne", "add\tsp, #24", "pop\t{r7, lr}")), 32 + 120)

    def test_a_jump_table_keeps_the_sum(self):
        self.assertEqual(depth(popped_by("tbb\t[pc, r0]", "add\tsp, #24", "pop\t{r7, lr}")), 32 + 120)

    def test_a_load_from_another_register_gives_nothing_back(self):
        self.assertEqual(depth(popped_by("ldmia\tr1!, {r2, r3}")), 32 + 120)

    def test_the_same_pops_alone_give_the_frame_back(self):
        # The control of the three above: without the condition or the jump table, max(32, 120).
        self.assertEqual(depth(popped_by("add\tsp, #24", "pop\t{r7, lr}")), 120)


def popped_by(*body):
    """sb_caller: 32 B (push {r7, lr}, sub sp, #24), then `body`, then a tail call to sb_callee."""
    lines = ["push\t{r7, lr}", "sub\tsp, #24", *body, "b.w\t100 <sb_callee>"]
    code = "".join(f"     {0x200 + 2 * i:x}:\t{line}\n" for i, line in enumerate(lines))
    return "\n00000200 <sb_caller>:\n" + code + ARM_CALLEE


RISCV = """
80000100 <sb_callee>:
80000100:	add	sp,sp,-96
80000102:	add	sp,sp,96
80000104:	ret
"""


class RiscV(unittest.TestCase):
    def test_tail_call_after_the_frame_is_given_back(self):
        listing = """
80000200 <sb_caller>:
80000200:	add	sp,sp,-32
80000202:	sw	ra,28(sp)
80000204:	lw	ra,28(sp)
80000206:	add	sp,sp,32
80000208:	auipc	t1,0x0
8000020c:	jr	-268(t1) # 80000100 <sb_callee>
""" + RISCV
        self.assertEqual(depth(listing, riscv=True), 96)

    def test_a_call_adds_the_frame(self):
        listing = """
80000200 <sb_caller>:
80000200:	add	sp,sp,-32
80000202:	sw	ra,28(sp)
80000204:	jal	80000100 <sb_callee>
80000208:	lw	ra,28(sp)
8000020a:	add	sp,sp,32
8000020c:	ret
""" + RISCV
        self.assertEqual(depth(listing, riscv=True), 32 + 96)

    def test_a_branch_target_between_release_and_jump_keeps_the_sum(self):
        listing = """
80000200 <sb_caller>:
80000200:	add	sp,sp,-32
80000202:	beqz	a0,8000020a <sb_caller+0xa>
80000206:	add	sp,sp,32
8000020a:	j	80000100 <sb_callee>
""" + RISCV
        self.assertEqual(depth(listing, riscv=True), 32 + 96)


if __name__ == "__main__":
    unittest.main()
