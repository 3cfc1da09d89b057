"""The C column of SPEC.md section 14's table is the C header's names: each function it names is
declared in ffi/include/seeded_backoff.h, each field is a field of `sb_action` (the run's answer),
and `delay_ms` is also the out-parameter of sb_backoff_next. Exits 1 on a mismatch.
usage: python3 ffi/tests/check_vocabulary.py"""
import re
import sys

from spec_table import HEADER as header, column as spec_column

column = spec_column("14", "C")

# What the table must say for C, each checked against the header below.
want = {"callback payload": ["sb_action"], "attempt that just failed, from 1": ["attempt"],
        "delay before the next attempt, ms": ["delay_ms"], "attempts made": ["sb_run_attempts"],
        "give-up reason": ["reason", "sb_status_name"], "retries issued so far": ["sb_backoff_retries"],
        "the seed of call i of a loop (rule above)": ["sb_call_seed"]}
problems = [f"{concept}: SPEC says {names}, the C binding has {want.get(concept, [])}"
            for concept, names in column.items() if names != want.get(concept, [])]
next_decl = re.search(r"sb_status sb_backoff_next\(([^)]*)\);", header)
if not next_decl or not re.search(r"\*\s*delay_ms$", next_decl.group(1)):
    problems.append("sb_backoff_next's out-parameter is not named delay_ms")
action = re.search(r"typedef struct sb_action \{(.*?)\} sb_action;", header, re.S)
fields = re.findall(r"uint32_t (\w+);", action.group(1)) if action else []
for field in ("attempt", "delay_ms", "reason"):
    if field not in fields:
        problems.append(f"sb_action has no field {field} (it has {fields})")
for function in ("sb_status_name", "sb_backoff_retries", "sb_run_attempts", "sb_call_seed"):
    if not re.search(rf"\b{function}\(", header):
        problems.append(f"{function} is not declared in the header")
for p in problems:
    print("FAIL", p)
print(f"C names against SPEC.md section 14: {len(column)} rows, {len(problems)} problems")
sys.exit(1 if problems else 0)
