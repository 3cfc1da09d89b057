"""The package's types as a typed program sees them: `mypy --strict -p seeded_backoff` (the
installed package) reports nothing, and usage.py passes mypy --strict and pyright with every
`reveal_type` showing the type its comment names. Run with the Python whose environment has the
package, mypy and pyright: python python/tests/typed/check_types.py. Exits 1 on a difference."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
USAGE = os.path.join(HERE, "usage.py")
BIN = os.path.dirname(sys.executable)


def normal(revealed):
    """A revealed type without what the tools spell differently: module paths, default values,
    mypy's `def ` and TypedDict body, pyright's CoroutineType."""
    t = re.sub(r"^TypedDict\(([\w.]+), \{.*\}\)$", r"\1", revealed.strip())
    t = re.sub(r"^def ", "", t)
    t = re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", t)
    t = re.sub(r"=\s*[^,)]+", "=", t)
    return t.replace("CoroutineType[", "Coroutine[")


def expected():
    lines = open(USAGE, encoding="utf-8").read().splitlines()
    return {i + 1: line.split("# revealed: ", 1)[1].strip() for i, line in enumerate(lines) if "# revealed: " in line}


def run(name, argv):
    p = subprocess.run(argv, cwd=HERE, capture_output=True, text=True, timeout=300)
    print(f"{name}: {p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()}")
    return p


def main():
    problems = []
    p = run("mypy --strict -p seeded_backoff", [os.path.join(BIN, "mypy"), "--strict", "--cache-dir=/dev/null", "-p", "seeded_backoff"])
    if p.returncode != 0:
        problems.append("mypy --strict -p seeded_backoff:\n" + p.stdout)
    want = expected()
    tools = {
        "mypy": ([os.path.join(BIN, "mypy"), "--strict", "--cache-dir=/dev/null", USAGE],
                 r"usage\.py:(\d+): note: Revealed type is \"(.*)\""),
        "pyright": ([os.path.join(BIN, "pyright"), "--pythonpath", sys.executable, "--project", HERE],
                    r"usage\.py:(\d+):\d+ - information: Type of \".*\" is \"(.*)\""),
    }
    for tool, (argv, pattern) in tools.items():
        p = run(f"{tool} usage.py", argv)
        if p.returncode != 0:
            problems.append(f"{tool} found errors in usage.py:\n{p.stdout}{p.stderr}")
        seen = {int(m.group(1)): m.group(2) for m in re.finditer(pattern, p.stdout)}
        for line, text in want.items():
            got = seen.get(line)
            if got is None or normal(got) != text:
                problems.append(f"{tool}, usage.py:{line}: revealed {got!r}, expected {text!r}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
