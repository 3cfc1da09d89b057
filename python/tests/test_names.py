"""The Python column of SPEC.md section 18's table of public names is the package's: each name is
exported by exactly one public module of `seeded_backoff` (the root or the module of its concern),
or (the failure kind) a keyword of the calls that take one; and no public name is exported twice."""

import importlib
import inspect
import pathlib
import pkgutil
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


def public_modules():
    """The root and every submodule whose name has no leading underscore."""
    names = [m.name for m in pkgutil.iter_modules(seeded_backoff.__path__) if not m.name.startswith("_")]
    return [seeded_backoff] + [importlib.import_module(f"seeded_backoff.{n}") for n in sorted(names)]


def homes(name):
    """The public modules that export `name`, by their import path."""
    return [m.__name__ for m in public_modules() if name in getattr(m, "__all__", ()) and hasattr(m, name)]


def test_every_name_of_the_table_is_exported_by_one_module():
    names = python_column()
    assert len(names) >= 15
    for name in names:
        if name in KEYWORDS:
            for call in KEYWORDS[name]:
                assert name in inspect.signature(call).parameters, f"{call.__qualname__} takes no {name}"
        else:
            assert len(homes(name)) == 1, f"{name} is exported by {homes(name) or 'no public module'}"


def test_the_table_names_the_modules_they_live_in():
    # Where each name lives, as a user imports it: the root keeps what python/README.md's first
    # examples use.
    where = {name: homes(name)[0] for name in python_column() if name not in KEYWORDS}
    assert where["Policy"] == where["Backoff"] == where["Run"] == "seeded_backoff"
    assert where["RetryBudget"] == "seeded_backoff.budget"
    assert where["SendRate"] == "seeded_backoff.send_rate"
    assert where["Pacer"] == where["PacerSlot"] == "seeded_backoff.pacer"
    assert where["classify_http"] == where["parse_retry_after"] == "seeded_backoff.http"
    assert where["SNAPSHOT_SIZE"] == where["RUN_SNAPSHOT_SIZE"] == "seeded_backoff.snapshots"
    assert where["seed_from_device"] == "seeded_backoff.fleet"


def test_a_public_object_lives_in_one_public_place():
    seen = {}
    for module in public_modules():
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.__all__ names {name}, which it lacks"
            other = seen.setdefault((name, id(getattr(module, name))), module.__name__)
            assert other == module.__name__, f"{name} is exported by both {other} and {module.__name__}"
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, BaseException):
                # A traceback names the error by the module a user imports it from.
                assert obj.__module__ == module.__name__, f"{name}.__module__ is {obj.__module__}"
    assert len(seeded_backoff.__all__) <= 15
