"""Runs every ```python block of a README as pasted, each as its own program with this interpreter,
and prints what each printed. ITEMS_URL, the quick start's endpoint, is a real HTTP server on
127.0.0.1 that answers 503 once, then 200, so the example's retry runs without the network.
usage: python readme_blocks.py README.md   (exit 1 if a block fails)"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_server import serve  # noqa: E402


# A block of an integration's section needs that library and a server of its kind: the
# integration's own tests run it as pasted (python/tests/integrations, test_adapter_*.py).
INTEGRATIONS = ("seeded_backoff.google", "seeded_backoff.valkey", "seeded_backoff.tenacity",
                "seeded_backoff.stamina", "seeded_backoff.shared")


def blocks(path):
    text = open(path, encoding="utf-8").read()
    found = [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]
    return [b for b in found if not any(name in b for name in INTEGRATIONS)]


def main(path):
    with serve([(503, {}), (200, {})]) as (url, _server), tempfile.TemporaryDirectory() as scratch:
        for i, block in enumerate(blocks(path)):
            program = os.path.join(scratch, f"block_{i}.py")
            with open(program, "w", encoding="utf-8") as f:
                f.write(block)
            run = subprocess.run([sys.executable, program], cwd=scratch, capture_output=True, text=True,
                                 env={**os.environ, "ITEMS_URL": url}, timeout=120)
            sys.stdout.write(run.stdout)
            if run.returncode != 0:
                sys.stderr.write(f"{path}: block {i} failed:\n{run.stderr}")
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
