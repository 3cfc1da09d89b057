"""Checks `seeded-backoff schedule --format json` against the independent model of SPEC.md.

The issue's "done" criterion: the CLI's Google schedule for seed 42 equals the model. This runs that
and more (every preset, several seeds, custom flags, Retry-After hints) through the release binary.
Ends with 'N passed, M failed'; exit 1 on any mismatch.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_model as m  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (CLI flags, model policy, per-retry hint or None: ms of a Retry-After, or a model hint)
CASES = [
    (["--seed", "42"], m.preset("google"), None),
    (["--seed", "0", "--preset", "google_64s"], m.preset("google_64s"), None),
    (["--seed", "18446744073709551615", "--preset", "aws_standard"], m.preset("aws_standard"), None),
    (["--seed", "4294967296", "--preset", "grpc"], m.preset("grpc"), None),
    (["--seed", "3", "--preset", "mobile"], m.preset("mobile"), None),
    (["--seed", "7", "--jitter", "decorrelated", "--initial-ms", "250", "--multiplier", "3/2",
      "--max-backoff-ms", "10000", "--max-retries", "30"],
     m.make_policy(initial_ms=250, max_backoff_ms=10000, multiplier_num=3, multiplier_den=2,
                   jitter="decorrelated", max_retries=30), None),
    (["--seed", "9", "--jitter", "proportional", "--spread-per-mille", "500", "--multiplier", "1.6",
      "--max-retries", "25"],
     m.make_policy(initial_ms=1000, max_backoff_ms=32000, multiplier_num=8, multiplier_den=5,
                   jitter="proportional", spread_per_mille=500, max_retries=25), None),
    (["--seed", "3", "--jitter", "equal", "--max-elapsed-ms", "60000", "--max-retries", "50"],
     m.make_policy(initial_ms=1000, max_backoff_ms=32000, jitter="equal", max_retries=50,
                   max_elapsed_ms=60000), None),
    (["--seed", "5", "--retry-after", "3", "--max-hint-ms", "10000"],
     m.preset("google", max_hint_ms=10000), 3000),
    # A 429 with X-RateLimit-Reset: 12.5 every time: the rate-limit hint of §8.3 and §5 step 6.
    (["--seed", "11", "--rate-limit", "x-ratelimit-reset=12.5", "--max-hint-ms", "20000"],
     m.preset("google", max_hint_ms=20000), m.RateLimit(12500)),
    (["--seed", "12", "--jitter", "none", "--rate-limit", 'ratelimit="q";r=0;t=3'],
     m.make_policy(initial_ms=1000, max_backoff_ms=32000, jitter="none", max_retries=10),
     m.RateLimit(3000)),
]


def model_schedule(policy, seed, hint_ms):
    b = m.Backoff(policy, seed)
    delays = []
    while True:
        hint = m.RetryAfter(hint_ms) if isinstance(hint_ms, int) else hint_ms
        step = b.next(hint=hint)
        if isinstance(step, m.GiveUp):
            return delays, step.reason
        delays.append(step.delay_ms)


def main():
    binary = os.path.join(ROOT, "target", "release", "seeded-backoff")
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "seeded-backoff-cli"], cwd=ROOT,
                   check=True)
    passed = failed = 0
    for flags, policy, hint in CASES:
        out = subprocess.run([binary, "schedule", "--format", "json"] + flags, cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        got = json.loads(out)
        seed = int(flags[flags.index("--seed") + 1])
        delays, reason = model_schedule(policy, seed, hint)
        expected_policy = {k: getattr(policy, k) for k in got["policy"]}
        ok = (got["seed"] == seed and got["delays_ms"] == delays and got["gave_up"] == reason
              and got["policy"] == expected_policy)
        if ok:
            passed += 1
            print("ok   %s: %d delays, then %s" % (" ".join(flags), len(delays), reason))
        else:
            failed += 1
            print("FAIL %s\n  cli:   %s\n  model: %s %s %s"
                  % (" ".join(flags), out.strip(), expected_policy, delays, reason))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
