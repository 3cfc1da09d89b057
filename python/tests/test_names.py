"""The Python column of SPEC.md section 18's table of public names is the package's: each name is
exported by `seeded_backoff`, or (the failure kind) a keyword of the calls that take one."""

import inspect
import pathlib
import re

import seeded_backoff
from seeded_backoff import Backoff, Run

SPEC = pathlib.Path(__file__).resolve().parents[2] / "SPEC.md"

# The names the table gives that are keywords, and the calls that take them.
KEYWORDS = {"failure_kind": (Run.outcome, Backoff.next_delay)}


def python_column():
    section = SPEC.read_text(encoding="utf-8").split("\n## 18. ", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    at = [cell.strip() for cell in rows[0].split("|")].index("Python")
    return [name for row in rows[2:] for name in re.findall(r"`([^`]+)`", row.split("|")[at])]


def test_every_name_of_the_table_is_the_packages():
    names = python_column()
    assert len(names) >= 15
    for name in names:
        if name in KEYWORDS:
            for call in KEYWORDS[name]:
                assert name in inspect.signature(call).parameters, f"{call.__qualname__} takes no {name}"
        else:
            assert name in seeded_backoff.__all__ and hasattr(seeded_backoff, name), name
