"""Every function, class, method and attribute python/README.md names exists: each name in
backquotes that begins with one of the package's names (or `seeded_backoff.…`, or a name of the
module a section is about) is looked up on the installed package. The README is the PyPI page: a
name documented there that the package lacks is an error a user meets first."""

import builtins
import importlib
import importlib.util
import inspect
import os
import re
import types

import seeded_backoff
from conftest import REPO

README = os.path.join(REPO, "python", "README.md")
SPAN = re.compile(r"`([^`]+)`")
NAME = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(.*\))?", re.S)


def sections(text):
    """(the section's modules of the package, its text) for each `#` heading's section."""
    out, modules = [], []
    for part in re.split(r"(?m)^(?=#{1,3} )", text):
        heading = part.split("\n", 1)[0]
        named = re.findall(r"seeded_backoff\.(\w+)", heading)
        if heading.startswith("## "):
            modules = named
        elif named:
            modules = modules + named
        if heading.startswith("### ") and not named and heading[4:].strip() in ("tenacity", "stamina"):
            modules = [heading[4:].strip()]
        out.append(([importlib.import_module(f"seeded_backoff.{m}") for m in modules], part))
    return out


def has(obj, name):
    if hasattr(obj, name):
        return True
    # A class's instance attributes, declared by annotation (dataclass fields, slots).
    return isinstance(obj, type) and any(name in getattr(c, "__annotations__", {}) for c in obj.__mro__)


def parameters():
    """The parameter names of every public function, class and method of the package."""
    names = set()
    for module_name in ("", ".google", ".valkey", ".tenacity", ".stamina"):
        module = importlib.import_module(f"seeded_backoff{module_name}")
        for obj in vars(module).values():
            members = [obj] + ([v for k, v in vars(obj).items() if not k.startswith("__")] if isinstance(obj, type) else [])
            for member in members:
                member = getattr(member, "__func__", member)
                if callable(member):
                    try:
                        names.update(inspect.signature(member).parameters)
                    except (TypeError, ValueError):
                        pass
    return names


def resolve(spaces, parts):
    """Whether the dotted `parts` name something, looked up from the first of `spaces` that has the
    first part (submodules of the package imported as needed)."""
    owner = next((s for s in spaces if has(s, parts[0])), None)
    if owner is None:
        return False
    obj = getattr(owner, parts[0])
    for name in parts[1:]:
        if not has(obj, name) and isinstance(obj, types.ModuleType):
            if importlib.util.find_spec(f"{obj.__name__}.{name}") is None:
                return False
            importlib.import_module(f"{obj.__name__}.{name}")
        if not has(obj, name):
            return False
        obj = getattr(obj, name, None)
    return True


def missing(text):
    """The backquoted names of `text` that are the package's (or look like a call of its) but do
    not exist."""
    problems = []
    for modules, part in sections(text):
        code = re.sub(r"```.*?```", "", part, flags=re.S)  # code blocks run as tests of their own
        for span in SPAN.findall(code):
            m = NAME.fullmatch(span.strip())
            if not m:
                continue
            parts = m.group(1).split(".")
            if parts[0] == "seeded_backoff":
                found = resolve([seeded_backoff], parts[1:]) if parts[1:] else True
            elif parts[0] != "seeded_backoff" and importlib.util.find_spec(parts[0]) is not None:
                continue  # another library's name (requests.get, google.api_core...)
            else:
                found = resolve([seeded_backoff, *modules, builtins], parts)
                # A bare name found nowhere is a parameter or a value (`max_retries`), a call of
                # one a callable parameter (`on_retry(event)`).
                if not found and len(parts) == 1 and (not m.group(2) or parts[0] in parameters()):
                    continue
            if not found:
                problems.append(span)
    return problems


def test_every_name_the_readme_gives_exists():
    assert missing(open(README, encoding="utf-8").read()) == []


def test_a_name_that_does_not_exist_is_found():
    text = "## API\n\n`Backoff.next_delay_with_hint(hint)`, `Policy.replace()`, `retry_after(value)`, `max_retries`.\n"
    assert missing(text) == ["Backoff.next_delay_with_hint(hint)", "retry_after(value)"]
    text = "## Google: `seeded_backoff.google`\n\n`Retry.with_timeout(1)`, `Retry.with_jitter()`, `seeded_backoff.nothing`.\n"
    assert missing(text) == ["Retry.with_jitter()", "seeded_backoff.nothing"]
