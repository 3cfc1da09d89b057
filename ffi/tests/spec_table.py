"""SPEC.md's tables of names as the C checks read them, and the header they check against."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = open(os.path.join(ROOT, "ffi", "include", "seeded_backoff.h"), encoding="utf-8").read()


def column(section, name):
    """{concept: [names in backquotes]} of column `name` in the table of SPEC.md's `section`."""
    spec = open(os.path.join(ROOT, "SPEC.md"), encoding="utf-8").read()
    text = spec.split(f"\n## {section}. ", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in text.splitlines() if line.startswith("|")]
    at = [cell.strip() for cell in rows[0].split("|")].index(name)
    cells = [[cell.strip() for cell in row.split("|")] for row in rows[2:]]
    return {c[1]: re.findall(r"`([^`]+)`", c[at]) for c in cells}
