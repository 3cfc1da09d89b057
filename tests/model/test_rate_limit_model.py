"""Self-tests of the SPEC.md §8.3 model and of §5 step 6's rate-limit hint, with expectations
derived by hand from the spec. Run from the repo root:

    python3 -m unittest tests/model/test_rate_limit_model.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_model as m  # noqa: E402
import rate_limit_model as r  # noqa: E402

# First xoshiro128++ output for seed 0 (test_spec_model.py derives it by hand): 0x4653DAA3.
SEED0_FIRST_U32 = 0x4653DAA3


def err(fn, *args):
    try:
        fn(*args)
    except m.SpecError as e:
        return e.name
    return None


class ResetValues(unittest.TestCase):
    def test_delta_seconds_and_fractions(self):
        p = r.parse_rate_limit
        self.assertEqual(p("ratelimit-reset", "30", 0), 30_000)
        self.assertEqual(p("x-ratelimit-reset", " \t7\t ", 0), 7_000)
        self.assertEqual(p("x-ratelimit-reset", "1.234", 0), 1_234)
        self.assertEqual(p("x-ratelimit-reset", "1.2341", 0), 1_235)   # rounded up
        self.assertEqual(p("x-ratelimit-reset", "0.0001", 0), 1)
        self.assertEqual(p("x-ratelimit-reset", "0.9999", 0), 1_000)
        self.assertEqual(p("x-ratelimit-reset", "2.5", 0), 2_500)
        self.assertEqual(p("x-ratelimit-reset", "0.000", 0), 0)

    def test_epoch_boundary(self):
        p = r.parse_rate_limit
        # 10^9 is still a delay: 10^12 ms saturates to 2^32 - 1.
        self.assertEqual(p("x-ratelimit-reset", "1000000000", 999_999_000), 4294967295)
        # 10^9 + 1 is a Unix time: 1 s after now = 10^9.
        self.assertEqual(p("x-ratelimit-reset", "1000000001", 1_000_000_000), 1_000)
        self.assertEqual(p("x-ratelimit-reset", "1000000001", 2_000_000_000), 0)  # past
        self.assertEqual(p("x-ratelimit-retry-after", "1700000000.5", 1_700_000_000), 500)
        self.assertEqual(p("x-ratelimit-reset", "99999999999999999999999", 0), 4294967295)

    def test_errors(self):
        for value, name in (("", "empty"), (" \t", "empty"), ("-1", "negative"), ("-", "negative"),
                            ("1.", "invalid_format"), (".5", "invalid_format"),
                            ("1.2.3", "invalid_format"), ("+1", "invalid_format"),
                            ("1e3", "invalid_format"), ("1 2", "invalid_format")):
            self.assertEqual(err(r.parse_rate_limit, "ratelimit-reset", value, 0), name, value)


class Structured(unittest.TestCase):
    def test_forms(self):
        p = lambda v: r.parse_rate_limit("ratelimit", v, 0)  # noqa: E731
        self.assertEqual(p('"default";r=0;t=30'), 30_000)
        self.assertEqual(p('"a";r=5;t=10, "b";r=0;t=3'), 3_000)    # exhausted wins
        self.assertEqual(p('"a";r=5;t=10, "b";r=6;t=3'), 10_000)   # none exhausted: largest
        self.assertEqual(p('"a";r=0;t=10, "b";r=0;t=40'), 40_000)
        self.assertEqual(p("limit=100, remaining=0, reset=7"), 7_000)
        self.assertEqual(p("default;remaining=0;reset=9"), 9_000)
        self.assertEqual(p(' "x,y;z" ; r = 0 ; t = 12 '), 12_000)  # quoted separators, spaces
        self.assertEqual(p('"a\\";t=1";t=2'), 2_000)                # escaped quote in the name
        self.assertEqual(p('"a";t=abc;t=4'), 4_000)                # bad value ignored
        self.assertEqual(p('"a";t=4;t=abc'), 4_000)
        self.assertEqual(p('"a";t=99999999999'), 4294967295)

    def test_errors(self):
        for value, name in (("", "empty"), ("  ", "empty"), ('"a";r=0', "invalid_format"),
                            ("limit=100", "invalid_format"), ('"a";t=-1', "invalid_format"),
                            (",,;;", "invalid_format")):
            self.assertEqual(err(r.parse_rate_limit, "ratelimit", value, 0), name, value)


class Precedence(unittest.TestCase):
    def test_order_status_and_retry_after(self):
        h = r.hint_from_headers
        both = {"ratelimit-reset": "5", "x-ratelimit-reset": "9"}
        self.assertEqual(h(429, both, 0), m.RateLimit(5_000))
        self.assertEqual(h(429, {"ratelimit-reset": "x", "x-ratelimit-reset": "9"}, 0),
                         m.RateLimit(9_000))
        self.assertEqual(h(503, both, 0), None)
        self.assertEqual(h(429, dict(both, **{"retry-after": "2"}), 0), m.RetryAfter(2_000))
        self.assertEqual(h(429, dict(both, **{"retry-after": "soon"}), 0), m.RateLimit(5_000))
        self.assertEqual(h(429, {"ratelimit": '"q";r=0;t=1', "ratelimit-reset": "5"}, 0),
                         m.RateLimit(1_000))


class Step(unittest.TestCase):
    def policy(self, **kw):
        return m.make_policy(initial_ms=1000, max_backoff_ms=32_000, jitter="none", max_retries=5,
                             **kw)

    def test_upward_jitter_by_hand(self):
        # w = 1000 + 10000 / 10 = 2000; uniform(2000): 0x4653DAA3 * 2001 = 2360981058579, whose
        # low word 3044013075 >= 2001 (no rejection) and high word 549. d = 10000 + 549.
        b = m.Backoff(self.policy(), 0)
        self.assertEqual(b.next(hint=m.RateLimit(10_000)), m.Retry(10_549, 0))
        self.assertEqual(b.level, 2000)  # the level grows as without the hint
        # Beyond max_hint_ms (500): a give-up of its own, no draw; 500 itself is honoured:
        # w = 1000 + 50 = 1050, the same first draw gives 0x4653DAA3 * 1051 >> 32 = 288.
        b2 = m.Backoff(self.policy(max_hint_ms=500), 0)
        self.assertEqual(b2.next(hint=m.RateLimit(501)), m.GiveUp("hint_exceeds_max"))
        self.assertEqual(b2.rng.s, m.Rng.from_seed(0).s)
        b2.reset()
        self.assertEqual(b2.next(hint=m.RateLimit(500)), m.Retry(1000, 0))
        b3 = m.make_policy(initial_ms=1, max_backoff_ms=1, jitter="none", max_hint_ms=500)
        self.assertEqual(m.Backoff(b3, 0).next(hint=m.RateLimit(500)), m.Retry(788, 0))

    def test_give_up_consumes_no_draw(self):
        p = self.policy(max_elapsed_ms=5000)
        b = m.Backoff(p, 0)
        self.assertEqual(b.next(hint=m.RateLimit(10_000)), m.GiveUp("deadline"))
        self.assertEqual(b.rng.s, m.Rng.from_seed(0).s)

    def test_saturates_at_max_delay(self):
        p = m.make_policy(initial_ms=1, max_backoff_ms=m.MAX_DELAY_MS, jitter="none", max_retries=1,
                          max_hint_ms=m.MAX_DELAY_MS)
        self.assertEqual(m.Backoff(p, 0).next(hint=m.RateLimit(m.MAX_DELAY_MS)), m.Retry(m.MAX_DELAY_MS, 0))
        self.assertEqual(m.Backoff(p, 0).next(hint=m.RateLimit(2**32 - 1)), m.GiveUp("hint_exceeds_max"))


if __name__ == "__main__":
    unittest.main()
