"""Self-tests of the SPEC.md model, with expectations derived by hand from the spec (or well-known
published values), not by running the code. Run from the repo root:

    python3 -m unittest tests/model/test_spec_model.py
"""

import os
import struct
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_model as m  # noqa: E402

# First xoshiro128++ output for seed 0, by hand (§3.2): s0 + s3 = 0x7B1DCDAF + 0x6E789E6A =
# 0xE9966C19; rotl 7 = 0xCB360CF4; + s0 = 0x4653DAA3 (mod 2^32) = 1179900579.
SEED0_FIRST_U32 = 0x4653DAA3


def delays(backoff, n, **kw):
    """n steps, each as its delay (int) or give-up reason (str)."""
    out = []
    for _ in range(n):
        r = backoff.next(**kw)
        out.append(r.delay_ms if isinstance(r, m.Retry) else r.reason)
    return out


def none_policy(**kw):
    fields = dict(initial_ms=1000, max_backoff_ms=32000, multiplier_num=2, multiplier_den=1,
                  jitter="none", max_retries=10)
    fields.update(kw)
    return m.make_policy(**fields)


class Randomness(unittest.TestCase):  # §3
    def test_splitmix64_seed0(self):
        sm = m.SplitMix64(0)
        self.assertEqual(sm.next(), 0xE220A8397B1DCDAF)  # the well-known first output
        self.assertEqual(sm.next(), 0x6E789E6AA1B965F4)  # and the second

    def test_call_seed(self):  # §14: seed XOR SplitMix64's outputs from 0, none for call 0
        self.assertEqual(m.call_seed(42, 0), 42)
        self.assertEqual(m.call_seed(42, 1), 42 ^ 0xE220A8397B1DCDAF)
        self.assertEqual(m.call_seed(0, 2), 0x6E789E6AA1B965F4)
        seeds = {m.call_seed(7, i) for i in range(1000)}
        self.assertEqual(len(seeds), 1000)

    def test_xoshiro_state_split(self):
        # s0 = low half of a, s1 = high half of a, s2/s3 likewise of b.
        self.assertEqual(m.xoshiro_state_from_seed(0),
                         [0x7B1DCDAF, 0xE220A839, 0xA1B965F4, 0x6E789E6A])

    def test_seed_extremes_accepted(self):
        for seed in (0, 1, 2**64 - 1):
            self.assertNotEqual(m.xoshiro_state_from_seed(seed), [0, 0, 0, 0])

    def test_first_output(self):
        self.assertEqual(m.Rng.from_seed(0).next_u32(), SEED0_FIRST_U32)

    def test_uniform0_returns_0_and_consumes_one_draw(self):
        a, b = m.Rng.from_seed(0), m.Rng.from_seed(0)
        self.assertEqual(a.uniform(0), 0)
        b.next_u32()
        self.assertEqual(a.s, b.s)

    def test_uniform_power_of_two_takes_top_bits(self):
        # s = 4: m >> 32 = x >> 30 = 0x4653DAA3 >> 30 = 1; low word 0x194F6A8C >= 4, no rejection.
        self.assertEqual(m.Rng.from_seed(0).uniform(3), 1)
        # n = 2^32 - 1 is next_u32() itself.
        self.assertEqual(m.Rng.from_seed(0).uniform(m.U32_MAX), SEED0_FIRST_U32)

    def test_uniform_rejection(self):
        class Scripted(m.Rng):
            def __init__(self, outs):
                super().__init__([1, 2, 3, 4])
                self.outs, self.calls = list(outs), 0

            def next_u32(self):
                self.calls += 1
                return self.outs.pop(0)

        # n = 2^31: s = 2^31 + 1, t = (2^32 - s) mod s = 2^31 - 1. x = 0 gives low word 0 < t:
        # rejected. x = 1 gives m = 2^31 + 1, low word >= t: accepted, result m >> 32 = 0.
        r = Scripted([0, 1, 99])
        self.assertEqual(r.uniform(2**31), 0)
        self.assertEqual(r.calls, 2)


class Validation(unittest.TestCase):  # §2
    def err(self, **kw):
        return m.policy_error(**dict(dict(initial_ms=1000, max_backoff_ms=32000), **kw))

    def test_errors_in_table_order(self):
        self.assertIsNone(self.err())
        self.assertEqual(self.err(initial_ms=0), "initial_ms")
        self.assertEqual(self.err(initial_ms=2**31), "initial_ms")
        self.assertEqual(self.err(initial_ms=0, max_backoff_ms=0, multiplier_den=0), "initial_ms")
        self.assertEqual(self.err(max_backoff_ms=999), "max_backoff_ms")
        self.assertEqual(self.err(max_backoff_ms=2**31), "max_backoff_ms")
        self.assertEqual(self.err(multiplier_den=0, multiplier_num=0), "multiplier_den")
        self.assertEqual(self.err(multiplier_den=1001, multiplier_num=2000), "multiplier_den")
        self.assertEqual(self.err(multiplier_num=4, multiplier_den=5), "multiplier_below_one")
        self.assertEqual(self.err(multiplier_num=1001, multiplier_den=1), "multiplier_too_large")
        self.assertIsNone(self.err(multiplier_num=1000000, multiplier_den=1000))
        self.assertEqual(self.err(jitter="google", jitter_ms=32001), "jitter_ms")
        self.assertEqual(self.err(jitter="proportional", spread_per_mille=1001), "spread_per_mille")
        self.assertEqual(self.err(max_hint_ms=2**31), "max_hint_ms")
        self.assertEqual(self.err(jitter="google", jitter_ms=32001, max_hint_ms=2**31), "jitter_ms")

    def test_params_of_other_strategies_ignored_and_zeroed(self):
        p = m.make_policy(initial_ms=1, max_backoff_ms=1, jitter="full", jitter_ms=5,
                          spread_per_mille=5000)
        self.assertEqual((p.jitter_ms, p.spread_per_mille), (0, 0))

    def test_presets(self):
        g = m.preset("grpc")
        self.assertEqual((g.multiplier_num, g.multiplier_den, g.max_hint_ms, g.max_elapsed_ms,
                          g.deadline), (8, 5, 300000, 0, "give_up"))


class Schedules(unittest.TestCase):  # §4, §5, §6
    def test_google_jitter0(self):
        b = m.Backoff(m.preset("google", jitter_ms=0), 42)
        self.assertEqual(delays(b, 13), [1000, 2000, 4000, 8000, 16000] + [32000] * 5
                         + ["max_retries"] * 3)

    def test_grpc_bases_round_down(self):
        b = m.Backoff(m.make_policy(initial_ms=1000, max_backoff_ms=120000, multiplier_num=8,
                                    multiplier_den=5), 1)
        # 1000*8/5=1600, 2560, 4096, 32768/5=6553, 52424/5=10484
        self.assertEqual(delays(b, 6), [1000, 1600, 2560, 4096, 6553, 10484])
        p = m.preset("grpc")
        self.assertEqual([m.base_delay_ms(p, n) for n in range(6)],
                         [1000, 1600, 2560, 4096, 6553, 10484])
        self.assertEqual(m.base_delay_ms(p, 2**32 - 1), 120000)

    def test_first_jittered_delay_seed0(self):
        x = SEED0_FIRST_U32  # 1179900579; uniform(n) = x * (n+1) >> 32 here (no rejection)
        self.assertEqual(x, 1179900579)
        self.assertEqual(x * 1001 >> 32, 274)  # 1181080479579 // 2^32
        b = lambda **kw: m.Backoff(none_policy(**kw), 0).next().delay_ms
        self.assertEqual(b(jitter="full"), 274)
        self.assertEqual(b(jitter="google", jitter_ms=1000), 1274)
        self.assertEqual(b(jitter="equal"), 500 + (x * 501 >> 32))            # 500 + 137
        self.assertEqual(b(jitter="equal"), 637)
        self.assertEqual(b(jitter="decorrelated"), 1000 + (x * 2001 >> 32))   # 1000 + 549
        self.assertEqual(b(jitter="decorrelated"), 1549)
        self.assertEqual(b(jitter="proportional", spread_per_mille=200), 910)  # 800 + 110

    def test_every_strategy_clamps_to_the_cap_of_the_policy_passed_in(self):
        # A state created under a 32 s cap, at level 32000, stepped under a policy with a 5 s cap:
        # no strategy may wait more than 5000 (§4.2 note). `none` waits exactly min(L, cap).
        for jitter in ("none", "google", "full", "equal", "proportional", "decorrelated"):
            big = m.make_policy(1000, 32000, jitter=jitter, max_retries=20,
                                jitter_ms=1000 if jitter == "google" else 0,
                                spread_per_mille=200 if jitter == "proportional" else 0)
            small = m.make_policy(1000, 5000, jitter=jitter, max_retries=20,
                                  jitter_ms=1000 if jitter == "google" else 0,
                                  spread_per_mille=200 if jitter == "proportional" else 0)
            for seed in range(20):
                b = m.Backoff(big, seed)
                b.level = 32000
                b.policy = small
                (d,) = delays(b, 1)
                self.assertLessEqual(d, 5000, (jitter, seed))
                if jitter == "none":
                    self.assertEqual(d, 5000)

    def test_none_consumes_no_draw(self):
        b = m.Backoff(none_policy(), 7)
        before = list(b.rng.s)
        delays(b, 3)
        self.assertEqual(b.rng.s, before)

    def test_decorrelated_level_is_prev(self):
        b = m.Backoff(none_policy(jitter="decorrelated"), 0)
        d = b.next().delay_ms
        self.assertEqual(b.level, d)

    def test_hint(self):
        b = m.Backoff(none_policy(), 0)
        self.assertEqual(b.next(hint=m.RetryAfter(5000)).delay_ms, 5000)
        self.assertEqual(b.next().delay_ms, 2000)  # the level ignores the hint
        self.assertEqual(b.next(hint=m.RetryAfter(10)).delay_ms, 4000)
        b = m.Backoff(none_policy(max_hint_ms=3000), 0)
        self.assertEqual(b.next(hint=m.RetryAfter(3000)).delay_ms, 3000)
        self.assertEqual(b.next(hint=m.RetryAfter(3001)), m.GiveUp("hint_exceeds_max"))
        self.assertEqual(b.next(), m.GiveUp("hint_exceeds_max"))  # sticky until reset
        self.assertEqual(none_policy().max_hint_ms, 300_000)  # one default, not the cap

    def test_hint_consumes_no_draw(self):
        a, b = m.Backoff(none_policy(jitter="full"), 3), m.Backoff(none_policy(jitter="full"), 3)
        a.next(hint=m.RetryAfter(100000))
        b.next()
        self.assertEqual((a.rng.s, a.level), (b.rng.s, b.level))

    def test_server_stop_sticky_until_reset(self):
        b = m.Backoff(none_policy(), 0)
        self.assertEqual(delays(b, 1, hint=m.DO_NOT_RETRY) + delays(b, 2), ["server_stop"] * 3)
        b.reset()
        self.assertEqual(delays(b, 1), [1000])

    def test_elapsed_budget_clamp(self):
        b = m.Backoff(none_policy(max_elapsed_ms=2500, deadline="clamp"), 0)
        # 1000 (elapsed 1000); 2000 clamped to the remaining 1500; then remaining 0: deadline.
        self.assertEqual(delays(b, 5), [1000, 1500, "deadline", "deadline", "deadline"])

    def test_elapsed_budget_give_up_and_caller_clock(self):
        b = m.Backoff(none_policy(max_elapsed_ms=5000), 0)
        self.assertEqual(delays(b, 2), [1000, 2000])                 # elapsed 3000, next is 4000
        self.assertEqual(delays(b, 1, elapsed=500), [4000])          # caller's clock: 500 + 4000 ok
        self.assertEqual(b.elapsed_ms, 4500)
        self.assertEqual(delays(b, 1), ["deadline"])
        b = m.Backoff(none_policy(max_elapsed_ms=5000), 0)
        self.assertEqual(delays(b, 1, elapsed=2**64 - 1), ["deadline"])  # sat32, remaining 0

    def test_elapsed_tracked_without_time_budget(self):
        b = m.Backoff(none_policy(), 0)
        delays(b, 3)
        self.assertEqual(b.elapsed_ms, 7000)

    def test_give_up_consumes_no_draw(self):
        # A deadline give-up followed by reset continues the rng stream as if it never happened.
        p = m.preset("google", max_elapsed_ms=5000)
        a, b = m.Backoff(p, 99), m.Backoff(p, 99)
        self.assertEqual(delays(a, 1), delays(b, 1))
        rng_before = list(a.rng.s)
        self.assertEqual(delays(a, 2, elapsed=4900), ["deadline"] * 2)  # d >= 2000 > 100
        self.assertEqual(a.rng.s, rng_before)
        a.reset()
        b.reset()
        self.assertEqual(delays(a, 4), delays(b, 4))
        self.assertEqual(a.rng.s, b.rng.s)

    def test_max_retries_give_up_consumes_no_draw(self):
        a = m.Backoff(none_policy(jitter="full", max_retries=2), 5)
        b = m.Backoff(none_policy(jitter="full", max_retries=10), 5)
        self.assertEqual(delays(a, 3)[:2], delays(b, 2))
        self.assertEqual(a.gave_up, "max_retries")
        a.reset()
        b.reset()
        self.assertEqual(delays(a, 2), delays(b, 2))

    def test_fast_forward(self):
        b = m.Backoff(m.preset("grpc"), 0)
        rng = list(b.rng.s)
        b.fast_forward(5)
        self.assertEqual((b.retries, b.level, b.rng.s), (5, 10484, rng))


class Snapshot(unittest.TestCase):  # §9
    def test_crc32(self):
        self.assertEqual(m.crc32(b"123456789"), 0xCBF43926)
        self.assertEqual(m.crc32(b""), 0)
        self.assertEqual(m.crc32(bytes(range(256))), zlib.crc32(bytes(range(256))))

    def test_policy_encoding(self):
        enc = m.policy_encoding(m.preset("google"))
        self.assertEqual(enc, struct.pack("<8I2B", 1000, 2, 1, 32000, 10, 1000, 300000, 0, 1, 0))
        enc = m.policy_encoding(m.preset("grpc", deadline="clamp"))
        self.assertEqual(enc, struct.pack("<8I2B", 1000, 8, 5, 120000, 10, 200, 300000, 0, 5, 1))

    def test_layout(self):
        p = none_policy()
        snap = m.Backoff(p, 0).snapshot()
        self.assertEqual(len(snap), 40)
        self.assertEqual(snap[:32].hex(), "01000000" + "afcd1d7b" "39a820e2" "f465b9a1" "6a9e786e"
                         + "00000000" + "e8030000" + "00000000")
        self.assertEqual(snap[32:36], m.crc32(m.policy_encoding(p)).to_bytes(4, "little"))
        self.assertEqual(snap[36:], m.crc32(snap[:36]).to_bytes(4, "little"))

    def test_roundtrip_continues(self):
        p = m.preset("grpc", max_elapsed_ms=1000000)  # never reached: 10 retries < 220 s
        a = m.Backoff(p, 12345)
        delays(a, 3)
        b = m.Backoff.restore(p, a.snapshot())
        self.assertEqual(delays(a, 8), delays(b, 8))
        self.assertEqual(a.snapshot(), b.snapshot())
        self.assertEqual(a.snapshot()[1], 1)  # gave up with max_retries

    def test_restore_errors(self):
        p = none_policy()
        good = m.Backoff(p, 0).snapshot()

        def resealed(body):
            return body[:36] + m.crc32(body[:36]).to_bytes(4, "little")

        def err(data, policy=p):
            with self.assertRaises(m.SpecError) as cm:
                m.Backoff.restore(policy, data)
            return cm.exception.name

        def patch(off, raw):
            b = bytearray(good)
            b[off:off + len(raw)] = raw
            return resealed(bytes(b))

        self.assertEqual(err(good[:39]), "wrong_length")
        self.assertEqual(err(b"\x02" + good[1:39]), "wrong_length")
        self.assertEqual(err(patch(0, b"\x02")), "unknown_version")
        self.assertEqual(err(good[:36] + bytes(4)), "bad_checksum")
        self.assertEqual(err(good, none_policy(max_retries=11)), "policy_mismatch")
        self.assertEqual(err(patch(4, bytes(16))), "zero_rng_state")
        self.assertEqual(err(patch(2, b"\x01")), "invalid_state")
        self.assertEqual(err(patch(1, b"\x06")), "invalid_state")
        self.assertEqual(err(patch(20, struct.pack("<I", 11))), "invalid_state")
        self.assertEqual(err(patch(24, struct.pack("<I", 999))), "invalid_state")
        self.assertEqual(err(patch(24, struct.pack("<I", 32001))), "invalid_state")
        ok = m.Backoff.restore(p, patch(20, struct.pack("<III", 10, 32000, 2**32 - 1)))
        self.assertEqual(ok.next().reason, "max_retries")


class Classification(unittest.TestCase):  # §7
    def test_http(self):
        cases = {99: "invalid", 100: "do_not_retry", 200: "success", 204: "success",
                 299: "success", 301: "do_not_retry", 404: "do_not_retry", 408: "do_not_retry",
                 429: "retry", 500: "retry", 503: "retry", 599: "retry", 600: "invalid", 0: "invalid"}
        for status, cls in cases.items():
            self.assertEqual(m.classify_http(status), cls, status)

    def test_grpc(self):
        cases = {0: "success", 1: "do_not_retry", 4: "do_not_retry", 8: "retry", 14: "retry",
                 16: "do_not_retry", 17: "invalid"}
        for code, cls in cases.items():
            self.assertEqual(m.classify_grpc(code), cls, code)


RFC_T = 784111777  # Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example)


class RetryAfter(unittest.TestCase):  # §8
    def ok(self, value, now=0):
        return m.parse_retry_after(value, now)

    def err(self, value, now=0):
        with self.assertRaises(m.SpecError) as cm:
            m.parse_retry_after(value, now)
        return cm.exception.name

    def test_delta_seconds(self):
        self.assertEqual(self.ok("120"), 120000)
        self.assertEqual(self.ok(" \t120\t "), 120000)
        self.assertEqual(self.ok("0"), 0)
        self.assertEqual(self.ok("4294967"), 4294967000)
        self.assertEqual(self.ok("4294968"), 4294967295)
        self.assertEqual(self.ok("9" * 40), 4294967295)

    def test_errors(self):
        self.assertEqual(self.err(""), "empty")
        self.assertEqual(self.err(" \t "), "empty")
        self.assertEqual(self.err("-5"), "negative")
        self.assertEqual(self.err("12a"), "invalid_format")
        self.assertEqual(self.err("+5"), "invalid_format")
        self.assertEqual(self.err(b"\xff\xfe"), "invalid_format")
        self.assertEqual(self.err("120\r\n"), "invalid_format")  # only SP and HTAB are stripped

    def test_three_formats(self):
        for v in ("Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                  "Sun Nov  6 08:49:37 1994", "Sun Nov 06 08:49:37 1994"):
            self.assertEqual(self.ok(v, RFC_T - 10), 10000, v)
            self.assertEqual(self.ok(v, RFC_T), 0, v)
            self.assertEqual(self.ok(v, RFC_T + 1), 0, v)

    def test_day_name_not_checked_against_date(self):
        self.assertEqual(self.ok("Mon, 06 Nov 1994 08:49:37 GMT", RFC_T - 1), 1000)

    def test_field_errors(self):
        self.assertEqual(self.err("Foo, 06 Nov 1994 08:49:37 GMT"), "bad_day_name")
        self.assertEqual(self.err("sun, 06 Nov 1994 08:49:37 GMT"), "bad_day_name")
        # §8.1: byte 3 is ',' so this is IMF-fixdate, and an RFC 850 body does not fit its layout.
        self.assertEqual(self.err("Sun, 06-Nov-94 08:49:37 GMT"), "invalid_format")
        # Byte 3 is '6': RFC 850, whose day name (before the first ',') is empty.
        self.assertEqual(self.err(", 06-Nov-94 08:49:37 GMT"), "bad_day_name")
        self.assertEqual(self.err("Sun, 06 Nox 1994 08:49:37 GMT"), "bad_month")
        self.assertEqual(self.err("Sun, 06 nov 1994 08:49:37 GMT"), "bad_month")
        self.assertEqual(self.err("Sun, 00 Nov 1994 08:49:37 GMT"), "bad_day")
        self.assertEqual(self.err("Sun, 31 Nov 1994 08:49:37 GMT"), "bad_day")
        self.assertEqual(self.err("Sun, 06 Nov 1994 24:00:00 GMT"), "bad_hour")
        self.assertEqual(self.err("Sun, 06 Nov 1994 08:60:37 GMT"), "bad_minute")
        self.assertEqual(self.err("Sun, 06 Nov 1994 08:49:61 GMT"), "bad_second")
        self.assertEqual(self.err("Sun, 06 Nov 0000 08:49:37 GMT"), "bad_year")
        self.assertEqual(self.err("Sun, 06 Nov 1994 08:49:37 gmt"), "invalid_format")
        self.assertEqual(self.err("Sun, 6 Nov 1994 08:49:37 GMT"), "invalid_format")
        self.assertEqual(self.err("Sun Nov 6 08:49:37 1994"), "invalid_format")
        self.assertEqual(self.err("Sun Nov 6  08:49:37 1994"), "invalid_format")
        self.assertEqual(self.err("Sun, 0x Nov 1994 08:49:37 GMT"), "invalid_format")
        self.assertEqual(self.err("Sun, 06 Nov 1994 08:4a:37 GMT"), "invalid_format")

    def test_field_check_order(self):
        # SPEC §8.1: layout, day name, digits, year, month, day, hour, minute, second.
        self.assertEqual(self.err("Foo, 0x Nov 1994 08:49:37 gmt"), "invalid_format")
        self.assertEqual(self.err("Foo, 0x Nox 0000 24:60:61 GMT"), "bad_day_name")
        self.assertEqual(self.err("Sun, 0x Nox 0000 24:60:61 GMT"), "invalid_format")
        self.assertEqual(self.err("Sun, 32 Nox 0000 24:60:61 GMT"), "bad_year")
        self.assertEqual(self.err("Sun, 32 Nox 1994 24:60:61 GMT"), "bad_month")
        self.assertEqual(self.err("Sun, 32 Nov 1994 24:60:61 GMT"), "bad_day")
        self.assertEqual(self.err("Sun, 30 Nov 1994 24:60:61 GMT"), "bad_hour")
        self.assertEqual(self.err("Sun, 30 Nov 1994 23:60:61 GMT"), "bad_minute")
        self.assertEqual(self.err("Sun, 30 Nov 1994 23:59:61 GMT"), "bad_second")
        self.assertEqual(self.err("Sun Nox 32 24:60:61 0000"), "bad_year")
        self.assertEqual(self.err("Sunday, 32-Nox-94 24:60:61 GMT"), "bad_month")

    def test_leap_years(self):
        # 2024-01-01 is 1704067200; + 31 + 28 days = 2024-02-29 = 1709164800.
        self.assertEqual(self.ok("Thu, 29 Feb 2024 00:00:00 GMT", 1709164800 - 1), 1000)
        self.assertEqual(self.err("Wed, 29 Feb 2023 00:00:00 GMT"), "bad_day")
        # 2000-01-01 is 946684800; + 59 days = 2000-02-29 = 951782400.
        self.assertEqual(self.ok("Tue, 29 Feb 2000 00:00:00 GMT", 951782400 - 2), 2000)
        # 1900 is not a leap year (divisible by 100, not by 400); 1600 is.
        self.assertEqual(self.err("Thu, 29 Feb 1900 00:00:00 GMT"), "bad_day")
        self.assertEqual(self.ok("Tue, 29 Feb 1600 00:00:00 GMT"), 0)
        self.assertEqual(self.err("Thu, 30 Feb 2024 00:00:00 GMT"), "bad_day")

    def test_layout_is_checked_before_the_day_name(self):
        # §8.1 order: the time's colons are part of the layout, so a bad day name with a bad
        # separator is invalid_format in each of the three formats.
        self.assertEqual(self.err("Foo, 06 Nov 1994 08-49-37 GMT"), "invalid_format")
        self.assertEqual(self.err("Foo Nov  6 08-49-37 1994"), "invalid_format")
        self.assertEqual(self.err("Foosday, 06-Nov-94 08.49.37 GMT"), "invalid_format")
        self.assertEqual(self.err("Foo, 06 Nov 1994 08:49:37 GMT"), "bad_day_name")

    def test_four_digit_years_before_1970_are_in_the_past(self):
        self.assertEqual(self.ok("Wed, 31 Dec 1969 23:59:59 GMT", 0), 0)
        self.assertEqual(self.ok("Sun Nov  6 08:49:37 1960", RFC_T), 0)
        self.assertEqual(self.ok("Mon, 01 Jan 0001 00:00:00 GMT", 0), 0)
        self.assertEqual(self.err("Mon, 01 Jan 0000 00:00:00 GMT"), "bad_year")

    def test_leap_second_is_next_second(self):
        self.assertEqual(self.ok("Sun, 06 Nov 1994 08:49:60 GMT", RFC_T), 23000)

    def test_beyond_32_bits(self):
        self.assertEqual(self.ok("Tue, 19 Jan 2038 03:14:08 GMT", 2**31 - 1), 1000)
        self.assertEqual(self.ok("Sun, 07 Feb 2106 06:28:16 GMT", 2**32 - 5), 5000)
        self.assertEqual(self.ok("Sun, 07 Feb 2106 06:28:16 GMT", 0), 4294967295)
        self.assertEqual(self.ok("Fri, 31 Dec 9999 23:59:59 GMT", 2**32), 4294967295)

    def test_rfc850_two_digit_year(self):
        now = 1767225600 - 3  # 2025-12-31 23:59:57 (2026-01-01 is 1767225600)
        self.assertEqual(self.ok("Thursday, 01-Jan-26 00:00:00 GMT", now), 3000)
        self.assertEqual(self.ok("Thursday, 01-Jan-75 00:00:00 GMT", now), 4294967295)  # 2075
        self.assertEqual(self.ok("Thursday, 01-Jan-76 00:00:00 GMT", now), 0)  # 51 years: 1976
        # The rule compares timestamps, not years: now = 2026-11-30 12:00:00 UTC (1796040000, from
        # calendar.timegm), so the limit is 2076-11-30 12:00:00. Later dates are 1976 (in the past,
        # 0); up to the limit they are 2076 (beyond 2^32 ms away, saturated).
        now = 1796040000
        self.assertEqual(self.ok("Tuesday, 01-Dec-76 00:00:00 GMT", now), 0)
        self.assertEqual(self.ok("Monday, 30-Nov-76 12:00:01 GMT", now), 0)
        self.assertEqual(self.ok("Monday, 30-Nov-76 12:00:00 GMT", now), 4294967295)
        self.assertEqual(self.ok("Monday, 30-Nov-76 11:59:59 GMT", now), 4294967295)
        # now = 2024-02-29 12:00:00 (1709208000): the limit is "2074-02-29 12:00:00" as fields,
        # although 2074 has no Feb 29; 01-Mar-74 is past it (1974), 28-Feb-74 is not (2074).
        self.assertEqual(self.ok("Friday, 01-Mar-74 00:00:00 GMT", 1709208000), 0)
        self.assertEqual(self.ok("Thursday, 28-Feb-74 23:59:59 GMT", 1709208000), 4294967295)
        # now in 1970: 29-Feb-00 is 1900 (not a leap year), hence bad_day; in 2024 it is 2000.
        self.assertEqual(self.err("Tuesday, 29-Feb-00 00:00:00 GMT", 0), "bad_day")
        self.assertEqual(self.ok("Tuesday, 29-Feb-00 00:00:00 GMT", 1709164800), 0)

    def test_grpc_pushback(self):
        self.assertEqual(m.parse_grpc_pushback(" 250\t"), 250)
        self.assertEqual(m.parse_grpc_pushback("99999999999999999999"), 4294967295)
        for v, e in (("", "empty"), ("-1", "negative"), ("1.5", "invalid_format")):
            with self.assertRaises(m.SpecError) as cm:
                m.parse_grpc_pushback(v)
            self.assertEqual(cm.exception.name, e)
            self.assertEqual(m.hint_from_grpc_pushback(v), m.DO_NOT_RETRY)
        self.assertEqual(m.hint_from_grpc_pushback("250"), m.RetryAfter(250))


class Budgets(unittest.TestCase):  # §10
    def test_grpc_half_threshold(self):
        b = m.GrpcBudget(10, 100)
        got = []
        for _ in range(7):
            b.record_failure("error")
            got.append((b.try_acquire("error"), b.tokens_milli))
        self.assertEqual(got, [(True, 9000), (True, 8000), (True, 7000), (True, 6000),
                               (False, 5000), (False, 4000), (False, 3000)])
        for _ in range(5):
            b.record_failure("timeout")
        self.assertEqual(b.tokens_milli, 0)  # floors at 0
        b.record_success()
        self.assertEqual(b.tokens_milli, 100)
        b.tokens_milli = 9950
        b.record_success("error")
        self.assertEqual(b.tokens_milli, 10000)  # never above max

    def test_aws_quota(self):
        b = m.AwsBudget(500, 5, 10, 1)
        allowed = 0
        while b.try_acquire("error"):
            allowed += 1
        self.assertEqual((allowed, b.tokens_milli), (100, 0))
        b.record_success("error")
        self.assertEqual(b.tokens_milli, 5000)
        b.record_success(None)
        self.assertEqual(b.tokens_milli, 6000)
        self.assertFalse(b.try_acquire("timeout"))
        self.assertEqual(b.tokens_milli, 6000)
        b.record_failure("error")
        self.assertEqual(b.tokens_milli, 6000)
        c = m.AwsBudget(500, 5, 10, 1)
        self.assertEqual(sum(c.try_acquire("timeout") for _ in range(60)), 50)
        c = m.AwsBudget(500, 5, 10, 1)
        c.record_success(None)
        self.assertEqual(c.tokens_milli, 500000)

    def test_step_with_budget(self):
        # §5 steps 2 and 8: gRPC budget of 10 tokens, none policy: 4 retries, then "budget".
        bud = m.GrpcBudget(10, 100)
        b = m.Backoff(none_policy(), 0)
        self.assertEqual(delays(b, 6, budget=bud), [1000, 2000, 4000, 8000, "budget", "budget"])
        self.assertEqual(bud.tokens_milli, 5000)  # the sticky give-up did not touch the budget
        self.assertEqual((b.retries, b.level), (4, 16000))


if __name__ == "__main__":
    unittest.main()
