#!/usr/bin/env python3
"""Independent model of SPEC.md §13 (the wait re-drawn after a pause), written from the
specification, and the generator and checker of its vectors, tests/vectors/pause/resume.json.

Usage:
  python3 tests/model/pause_model.py check [FILE]   every case of FILE against this model
  python3 tests/model/pause_model.py write [FILE]   (re)writes FILE from this model

The npm package's retry() replays the file (wasm/test/lifecycle.test.mjs): under a fake clock,
the attempt after each resume comes exactly the case's expect_ms later. Standard library only.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet_model as f  # noqa: E402
import spec_model as m  # noqa: E402

DEFAULT_FILE = os.path.join(f.REPO_ROOT, "tests", "vectors", "pause", "resume.json")


def resume_delay_ms(seed, resume, window_ms):
    """§13: re-draw number `resume` (1, 2, ...) of a run seeded `seed`: §12.2 for seed XOR resume."""
    assert 1 <= resume <= m.U32_MAX and 0 <= window_ms <= m.MAX_DELAY_MS
    return f.startup_delay_ms(seed ^ resume, window_ms)


def cases():
    out = []
    for seed in (0, 1, 7, 42, 0xFFFFFFFF, 0x100000000, 0xFFFFFFFFFFFFFFFF):
        for resume in (1, 2, 3, 0xFFFFFFFF):
            for window in (0, 1, 1000, 4000, m.MAX_DELAY_MS):
                out.append({"seed": str(seed), "resume": resume, "window_ms": window,
                            "expect_ms": resume_delay_ms(seed, resume, window)})
    return {"kind": "resume", "description": "SPEC.md §13: the wait re-drawn after a pause, generated "
            "by tests/model/pause_model.py", "cases": out}


def check(path):
    doc = json.load(open(path))
    failed = [f"#{i}: expected {c['expect_ms']}, model {got}" for i, c in enumerate(doc["cases"])
              if (got := resume_delay_ms(int(c["seed"]), c["resume"], c["window_ms"])) != c["expect_ms"]]
    for line in failed:
        print(line)
    print(f"{path}: {len(doc['cases'])} checks, {len(failed)} failed")
    return bool(doc["cases"]) and not failed


if __name__ == "__main__":
    sys.exit(f.main(sys.argv, cases, check, DEFAULT_FILE, __doc__))
