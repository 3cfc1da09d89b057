"""Every C name ffi/README.md gives (`sb_...` functions and types, `SB_...` constants and
macros) is declared in ffi/include/seeded_backoff.h: the C SDK's page cannot name a function the
header does not have. A self-check first: a name the header lacks is found. Exits 1 on a name
missing. usage: python3 ffi/tests/check_readme_names.py"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
header = open(os.path.join(root, "ffi", "include", "seeded_backoff.h"), encoding="utf-8").read()
declared = set(re.findall(r"\b(?:sb|SB)_\w+", header))


def missing(markdown):
    """The C names of `markdown` the header does not declare, in order of first use."""
    names = dict.fromkeys(re.findall(r"\b(?:sb|SB)_\w+", markdown))
    return [n for n in names if n not in declared]


assert missing("`sb_run_outcome(run, ...)`, `SB_OK`, `sb_backoff_next_with_hint()`") == [
    "sb_backoff_next_with_hint"], "the check finds no missing name"
readme = open(os.path.join(root, "ffi", "README.md"), encoding="utf-8").read()
names = missing(readme)
for name in names:
    print(f"FAIL ffi/README.md names {name}, which ffi/include/seeded_backoff.h does not declare")
print(f"ffi/README.md: {len(set(re.findall(r'(?:sb|SB)_[A-Za-z0-9_]+', readme)))} C names, {len(names)} missing")
sys.exit(1 if names else 0)
