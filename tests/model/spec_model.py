"""Independent Python model of SPEC.md (seeded-backoff, algorithm and snapshot format version 1).

Written from SPEC.md alone, without looking at the Rust sources, so that the cross-language test
vectors (tests/vectors/*.json, checked by check_vectors.py) compare two independent readings of the
specification. Standard library only. Section references (§n) are to SPEC.md.

Python integers are unbounded, so every u32/u64 wrap or saturation the spec asks for is written out
explicitly with MASK32 / MASK64 / sat32.
"""

import sys
from collections import namedtuple

# --- §1 Constants --------------------------------------------------------------------------------

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
U32_MAX = MASK32
MAX_DELAY_MS = 2**31 - 1
DEFAULT_MAX_HINT_MS = 300_000  # §1, §2: one default, whatever the cap
MAX_MULTIPLIER_DEN = 1000
MAX_MULTIPLIER = 1000
SNAPSHOT_LEN = 40
SNAPSHOT_VERSION = 1


def sat32(x):
    """§ Notation: min(x, 2^32 - 1)."""
    return min(x, U32_MAX)


class SpecError(Exception):
    """An error of the spec, identified by its name (e.g. 'bad_day', 'initial_ms', 'bad_checksum')."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


# --- §3 Randomness ---------------------------------------------------------------------------------

class SplitMix64:
    """§3.1: the seeder (all arithmetic mod 2^64)."""

    def __init__(self, seed):
        self.x = seed & MASK64

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def call_seed(seed, index):
    """§14: the seed of call `index` of a loop seeded `seed`: seed XOR output number `index` of a
    SplitMix64 started from 0 (none for call 0). After k outputs its state is k * gamma, so output
    `index` is the one that follows state (index - 1) * gamma."""
    if index == 0:
        return seed & MASK64
    return (seed ^ SplitMix64(((index - 1) * 0x9E3779B97F4A7C15) & MASK64).next()) & MASK64


def xoshiro_state_from_seed(seed):
    """§3.1: four u32 words s0..s3 from a u64 seed."""
    sm = SplitMix64(seed)
    a, b = sm.next(), sm.next()
    s = [a & MASK32, a >> 32, b & MASK32, b >> 32]
    if s == [0, 0, 0, 0]:  # unreachable from a u64 seed; kept for fidelity
        return xoshiro_state_from_seed(0)
    return s


def _rotl32(x, k):
    return ((x << k) | (x >> (32 - k))) & MASK32


class Rng:
    """xoshiro128++ (§3.2) with Lemire's bounded draw (§3.3)."""

    def __init__(self, words):
        self.s = list(words)

    @classmethod
    def from_seed(cls, seed):
        return cls(xoshiro_state_from_seed(seed))

    def copy(self):
        return Rng(self.s)

    def next_u32(self):
        s0, s1, s2, s3 = self.s
        result = (_rotl32((s0 + s3) & MASK32, 7) + s0) & MASK32
        t = (s1 << 9) & MASK32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl32(s3, 11)
        self.s = [s0, s1, s2, s3]
        return result

    def uniform(self, n):
        """§3.3: an integer in [0, n], both ends included. uniform(0) still consumes a draw."""
        assert 0 <= n <= U32_MAX
        if n == U32_MAX:
            return self.next_u32()
        s = n + 1
        m = self.next_u32() * s
        if (m & MASK32) < s:
            t = ((1 << 32) - s) % s
            while (m & MASK32) < t:
                m = self.next_u32() * s
        return m >> 32


# --- §2 Policy ---------------------------------------------------------------------------------

JITTER_CODES = {"none": 0, "google": 1, "full": 2, "equal": 3, "decorrelated": 4, "proportional": 5}
DEADLINE_CODES = {"give_up": 0, "clamp": 1}

Policy = namedtuple(
    "Policy",
    "initial_ms max_backoff_ms multiplier_num multiplier_den jitter jitter_ms spread_per_mille "
    "max_hint_ms max_retries max_elapsed_ms deadline paced",
    defaults=(False,),
)


def make_policy(initial_ms, max_backoff_ms, multiplier_num=2, multiplier_den=1, jitter="none",
                jitter_ms=0, spread_per_mille=0, max_hint_ms=None, max_retries=10,
                max_elapsed_ms=0, deadline="give_up", paced=False):
    """Validate (§2, first failing check in table order) and build a Policy; raises SpecError."""
    if jitter not in JITTER_CODES:
        raise ValueError("unknown jitter %r (a parse error of the binding)" % (jitter,))
    if deadline not in DEADLINE_CODES:
        raise ValueError("unknown deadline mode %r" % (deadline,))
    if max_hint_ms is None:
        max_hint_ms = DEFAULT_MAX_HINT_MS  # one default, never the cap
    if not 1 <= initial_ms <= MAX_DELAY_MS:
        raise SpecError("initial_ms")
    if not initial_ms <= max_backoff_ms <= MAX_DELAY_MS:
        raise SpecError("max_backoff_ms")
    if not 1 <= multiplier_den <= MAX_MULTIPLIER_DEN:
        raise SpecError("multiplier_den")
    if multiplier_num < multiplier_den:
        raise SpecError("multiplier_below_one")
    if multiplier_num > MAX_MULTIPLIER * multiplier_den:
        raise SpecError("multiplier_too_large")
    if jitter == "google":
        if not 0 <= jitter_ms <= max_backoff_ms:
            raise SpecError("jitter_ms")
    else:
        jitter_ms = 0  # ignored and stored as 0
    if jitter == "proportional":
        if not 0 <= spread_per_mille <= 1000:
            raise SpecError("spread_per_mille")
    else:
        spread_per_mille = 0
    if not 0 <= max_hint_ms <= MAX_DELAY_MS:
        raise SpecError("max_hint_ms")
    for name, v in (("max_retries", max_retries), ("max_elapsed_ms", max_elapsed_ms)):
        if not 0 <= v <= U32_MAX:
            raise ValueError("%s out of u32 range" % name)
    return Policy(initial_ms, max_backoff_ms, multiplier_num, multiplier_den, jitter, jitter_ms,
                  spread_per_mille, max_hint_ms, max_retries, max_elapsed_ms, deadline, bool(paced))


def policy_error(**fields):
    """The name of the first failing §2 check, or None if the policy is valid."""
    try:
        make_policy(**fields)
    except SpecError as e:
        return e.name
    return None


# §2 Presets: max_hint_ms = DEFAULT_MAX_HINT_MS, max_elapsed_ms = 0, deadline = give_up (the make_policy defaults).
PRESETS = {
    "google": dict(initial_ms=1000, multiplier_num=2, multiplier_den=1, max_backoff_ms=32000,
                   max_retries=10, jitter="google", jitter_ms=1000),
    "google_64s": dict(initial_ms=1000, multiplier_num=2, multiplier_den=1, max_backoff_ms=64000,
                       max_retries=10, jitter="google", jitter_ms=1000),
    "aws_standard": dict(initial_ms=100, multiplier_num=2, multiplier_den=1, max_backoff_ms=20000,
                         max_retries=2, jitter="full"),
    "grpc": dict(initial_ms=1000, multiplier_num=8, multiplier_den=5, max_backoff_ms=120000,
                 max_retries=10, jitter="proportional", spread_per_mille=200),
    "mobile": dict(initial_ms=2000, multiplier_num=2, multiplier_den=1, max_backoff_ms=64000,
                   max_retries=16, jitter="equal"),
}


def preset(name, **overrides):
    fields = dict(PRESETS[name])
    fields.update(overrides)
    return make_policy(**fields)


def grow(policy, level):
    """§4.2: grow(L) = min(cap, L * num / den), 64-bit product, rounding down."""
    return min(policy.max_backoff_ms, level * policy.multiplier_num // policy.multiplier_den)


def base_delay_ms(policy, n):
    """§4.3: base_n = grow applied n times to initial_ms, stopping at the fixpoint."""
    level = policy.initial_ms
    for _ in range(n):
        nxt = grow(policy, level)
        if nxt == level:
            break
        level = nxt
    return level


# --- §9 CRC-32 and the policy fingerprint ------------------------------------------------------------

def crc32(data):
    """§9: IEEE 802.3 CRC-32 (reflected poly 0xEDB88320, init and final XOR 0xFFFFFFFF)."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _le32(x):
    return (x & MASK32).to_bytes(4, "little")


def policy_encoding(policy):
    """§9: the 34-byte canonical encoding."""
    p = policy
    jitter_param = {"google": p.jitter_ms, "proportional": p.spread_per_mille}.get(p.jitter, 0)
    words = (p.initial_ms, p.multiplier_num, p.multiplier_den, p.max_backoff_ms, p.max_retries,
             jitter_param, p.max_hint_ms, p.max_elapsed_ms)
    return (b"".join(_le32(w) for w in words)
            + bytes([JITTER_CODES[p.jitter], DEADLINE_CODES[p.deadline] + (2 if p.paced else 0)]))


def policy_fingerprint(policy):
    return crc32(policy_encoding(policy))


# --- §4, §5 The per-request state and the step ------------------------------------------------------

GIVE_UP_CODES = {"max_retries": 1, "deadline": 2, "budget": 3, "server_stop": 4, "hint_exceeds_max": 5}
GIVE_UP_NAMES = {v: k for k, v in GIVE_UP_CODES.items()}

Retry = namedtuple("Retry", "delay_ms retry")  # a retry: wait delay_ms; retry = 0-based index
GiveUp = namedtuple("GiveUp", "reason")           # reason: a key of GIVE_UP_CODES

# Hints (§5): None (absent), RetryAfter(ms), RateLimit(ms) or DO_NOT_RETRY.
RetryAfter = namedtuple("RetryAfter", "ms")
RateLimit = namedtuple("RateLimit", "ms")  # a quota's reset time (§8.3): §5 step 6 jitters upward
DO_NOT_RETRY = "do_not_retry"


class Backoff:
    """§4.1 state: rng, retries, level, elapsed_ms, gave_up."""

    def __init__(self, policy, seed):
        self.policy = policy
        self.rng = Rng.from_seed(seed)
        self.retries = 0
        self.level = policy.initial_ms
        self.elapsed_ms = 0
        self.gave_up = None

    def _delay(self, rng):
        """§4.2: (d, next level) for the current level, drawing from `rng` (a copy)."""
        p, L = self.policy, self.level
        cap, init = p.max_backoff_ms, p.initial_ms
        j = p.jitter
        if j == "none":
            return min(L, cap), grow(p, L)
        if j == "google":
            return min(L + rng.uniform(p.jitter_ms), cap), grow(p, L)
        if j == "full":
            return min(cap, rng.uniform(L)), grow(p, L)
        if j == "equal":
            return min(cap, L // 2 + rng.uniform(L - L // 2)), grow(p, L)
        if j == "proportional":
            s = L * p.spread_per_mille // 1000
            return min(cap, L - s + rng.uniform(2 * s)), grow(p, L)
        if j == "decorrelated":
            hi = max(init, sat32(3 * L))
            d = min(cap, init + rng.uniform(hi - init))
            return d, d
        raise AssertionError(j)

    def _give_up(self, reason):
        self.gave_up = reason
        return GiveUp(reason)

    def next(self, hint=None, elapsed=None, budget=None, kind="error"):
        """§5: one step. Returns Retry(delay_ms, retry) or GiveUp(reason)."""
        p = self.policy
        # 1. Already given up: same answer, nothing changes (budget untouched).
        if self.gave_up is not None:
            return GiveUp(self.gave_up)
        # 2. Record the failure in the budget.
        if budget is not None:
            budget.record_failure(kind)
        # 3. Server says stop.
        if hint == DO_NOT_RETRY:
            return self._give_up("server_stop")
        # 4. Retry count.
        if self.retries >= p.max_retries:
            return self._give_up("max_retries")
        # ...and a server wait beyond the caller's limit: give up, never come back early.
        if isinstance(hint, (RetryAfter, RateLimit)) and hint.ms > p.max_hint_ms:
            return self._give_up("hint_exceeds_max")
        # 5. Delay and new level, on a copy of the rng.
        rng = self.rng.copy()
        d, new_level = self._delay(rng)
        # 6. Retry-After hint: no draw, no level change. Rate-limit hint: one more draw from the
        # same copy, after step 5's, for an upward jitter of up to 1 s + 10 %.
        # With `paced` the Retry-After is the wait itself.
        if isinstance(hint, RetryAfter) and p.paced:
            d = hint.ms
        elif isinstance(hint, RetryAfter):
            d = max(d, hint.ms)
        elif isinstance(hint, RateLimit):
            x = rng.uniform(1000 + hint.ms // 10)
            d = max(d, min(hint.ms + x, MAX_DELAY_MS))
        # 7. Time budget.
        e = sat32(elapsed) if elapsed is not None else self.elapsed_ms
        if p.max_elapsed_ms > 0:
            remaining = max(p.max_elapsed_ms - e, 0)
            if p.deadline == "give_up":
                if d > remaining:
                    return self._give_up("deadline")
            else:  # clamp
                if remaining == 0:
                    return self._give_up("deadline")
                d = min(d, remaining)
        # 8. Acquire a retry from the budget, last.
        if budget is not None and not budget.try_acquire(kind):
            return self._give_up("budget")
        # 9. Commit.
        self.rng = rng
        self.level = new_level
        self.elapsed_ms = sat32(e + d)  # e is e' of step 9: sat32(elapsed) or the old elapsed_ms
        old = self.retries
        self.retries = old + 1
        return Retry(d, old)

    def reset(self):
        """§5: after a success. The rng is not reseeded."""
        self.retries = 0
        self.level = self.policy.initial_ms
        self.elapsed_ms = 0
        self.gave_up = None

    def fast_forward(self, n):
        """§4.3: retries = n, level = base_n; the rng is not touched.

        The spec does not say what fast_forward does to gave_up and elapsed_ms; this model leaves
        both unchanged (see the report). For decorrelated the level is the envelope min(cap, base_n),
        which equals base_n because base_n <= cap already.
        """
        self.retries = n
        self.level = min(self.policy.max_backoff_ms, base_delay_ms(self.policy, n))

    # §9 Snapshot / restore.
    def snapshot(self):
        body = (bytes([SNAPSHOT_VERSION, GIVE_UP_CODES.get(self.gave_up, 0), 0, 0])
                + b"".join(_le32(w) for w in self.rng.s)
                + _le32(self.retries) + _le32(self.level) + _le32(self.elapsed_ms)
                + _le32(policy_fingerprint(self.policy)))
        assert len(body) == 36
        return body + _le32(crc32(body))

    @classmethod
    def restore(cls, policy, data):
        """§9: checks in order, each raising SpecError(name)."""
        data = bytes(data)
        if len(data) != SNAPSHOT_LEN:
            raise SpecError("wrong_length")
        if data[0] != SNAPSHOT_VERSION:
            raise SpecError("unknown_version")
        u32 = lambda off: int.from_bytes(data[off:off + 4], "little")
        if u32(36) != crc32(data[:36]):
            raise SpecError("bad_checksum")
        if u32(32) != policy_fingerprint(policy):
            raise SpecError("policy_mismatch")
        words = [u32(4 + 4 * i) for i in range(4)]
        if words == [0, 0, 0, 0]:
            raise SpecError("zero_rng_state")
        code, retries, level, elapsed = data[1], u32(20), u32(24), u32(28)
        if (data[2] != 0 or data[3] != 0 or code > max(GIVE_UP_NAMES) or retries > policy.max_retries
                or not policy.initial_ms <= level <= policy.max_backoff_ms):
            raise SpecError("invalid_state")
        b = cls(policy, 0)
        b.rng = Rng(words)
        b.retries, b.level, b.elapsed_ms = retries, level, elapsed
        b.gave_up = GIVE_UP_NAMES.get(code)  # code 0 -> None
        return b


# --- §7 Classification ---------------------------------------------------------------------------

def classify_http(status):
    if not 100 <= status <= 599:
        return "invalid"
    if 200 <= status <= 299:
        return "success"
    if status == 429 or 500 <= status <= 599:
        return "retry"
    return "do_not_retry"


# §7.1: the methods a Fetch client upper-cases, and the idempotent ones (case-sensitive).
FETCH_UPPER = ("DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT")
IDEMPOTENT = ("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE")


def method_as_sent(method):
    # ASCII case only: a method that is not ASCII is never one of the six.
    if method.isascii():
        for name in FETCH_UPPER:
            if method.lower() == name.lower():
                return name
    return method


def request_may_retry(method, has_idempotency_key):
    return has_idempotency_key or method in IDEMPOTENT


def classify_grpc(code):
    # Negative codes are not covered by §7 ("above 16 -> invalid"); the model calls them invalid.
    if code < 0 or code > 16:
        return "invalid"
    if code == 0:
        return "success"
    if code in (8, 14):
        return "retry"
    return "do_not_retry"


# --- §8 Server hints ----------------------------------------------------------------------------

DAY_NAMES_SHORT = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"]
DAY_NAMES_LONG = [b"Monday", b"Tuesday", b"Wednesday", b"Thursday", b"Friday", b"Saturday",
                  b"Sunday"]
MONTHS = [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
          b"Dec"]


def _to_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _strip_sp_htab(b):
    return b.strip(b" \t")


def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def days_in_month(y, m):
    return [31, 29 if is_leap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]


def days_from_civil(y, m, d):
    """§8.1 step 5: Howard Hinnant's days_from_civil (proleptic Gregorian), days since 1970-01-01."""
    y -= 1 if m <= 2 else 0
    era = y // 400  # floor division, also right for negative years
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z):
    """Hinnant's civil_from_days: (year, month, day) of day z since 1970-01-01."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if m <= 2 else 0), m, d


def _layout(b, pattern):
    """Match the fixed layout of a format: 'x' is any byte (a name or a numeric field, checked
    later), every other character is that literal byte. Lengths must agree."""
    return len(b) == len(pattern) and all(p == "x" or c == ord(p) for c, p in zip(b, pattern))


IMF_LAYOUT = "xxx, xx xxx xxxx xx:xx:xx GMT"      # 29 bytes: Sun, 06 Nov 1994 08:49:37 GMT
RFC850_TAIL = "xx-xxx-xx xx:xx:xx GMT"            # after "<Dayname>, ": 06-Nov-94 08:49:37 GMT
ASCTIME_LAYOUT = "xxx xxx xx xx:xx:xx xxxx"        # 24 bytes: Sun Nov  6 08:49:37 1994


def _digits(b):
    return len(b) > 0 and all(0x30 <= c <= 0x39 for c in b)


def _parse_http_date(b, now):
    """§8.1 step 4: Unix seconds (negative for RFC 850 years before 1970), or SpecError.

    Checks in SPEC order, first failure reported: layout, day name, all-digit numeric fields, year,
    month, day, hour, minute, second.
    """
    # 1. Format by byte 3 (',' IMF-fixdate, ' ' asctime, else RFC 850), then its layout.
    comma = b.find(b",")
    if b[3:4] == b"," and _layout(b, IMF_LAYOUT):
        names, day_name, mon = DAY_NAMES_SHORT, b[0:3], b[8:11]
        day_f, year_f, hms = b[5:7], b[12:16], b[17:25]
    elif b[3:4] == b" " and _layout(b, ASCTIME_LAYOUT):
        names, day_name, mon = DAY_NAMES_SHORT, b[0:3], b[4:7]
        day_f, year_f, hms = b[8:10], b[20:24], b[11:19]
        if day_f[:1] == b" ":  # "day as 2 digits or as a space and 1 digit"
            day_f = day_f[1:]
    elif b[3:4] not in (b",", b" ") and comma >= 0 and _layout(b[comma + 1:], " " + RFC850_TAIL):
        rest = b[comma + 2:]
        names, day_name, mon = DAY_NAMES_LONG, b[:comma], rest[3:6]
        day_f, year_f, hms = rest[0:2], rest[7:9], rest[10:18]
    else:
        raise SpecError("invalid_format")
    # 2. Day name: a valid name of its format, not checked against the date.
    if day_name not in names:
        raise SpecError("bad_day_name")
    # 3. Every numeric field all digits.
    hour_f, min_f, sec_f = hms[0:2], hms[3:5], hms[6:8]
    if not all(_digits(f) for f in (day_f, year_f, hour_f, min_f, sec_f)):
        raise SpecError("invalid_format")
    day, hour, minute, second = int(day_f), int(hour_f), int(min_f), int(sec_f)
    # 4. Year.
    if len(year_f) == 4:
        year = int(year_f)
        if year == 0:
            raise SpecError("bad_year")
    # 5. Month (before the RFC 850 century, which compares it; an RFC 850 year cannot fail).
    if mon not in MONTHS:
        raise SpecError("bad_month")
    month = MONTHS.index(mon) + 1
    if len(year_f) == 2:
        # RFC 850 (RFC 9110 §5.6.7): the year of now's century ending in YY, unless that timestamp
        # is more than 50 years in the future: its fields, as written, compared in order with now's
        # (UTC) with 50 added to the year. Then the one a century earlier. No range check.
        ny, nm, nd = civil_from_days(now // 86400)
        ns = now % 86400
        year = ny - ny % 100 + int(year_f)
        if (year, month, day, hour, minute, second) > (ny + 50, nm, nd, ns // 3600,
                                                        ns // 60 % 60, ns % 60):
            year -= 100
    # 6.-9. Day (Gregorian leap years), hour, minute, second (60: a leap second, which the
    # arithmetic below counts as the next second).
    if not 1 <= day <= days_in_month(year, month):
        raise SpecError("bad_day")
    if hour > 23:
        raise SpecError("bad_hour")
    if minute > 59:
        raise SpecError("bad_minute")
    if second > 60:
        raise SpecError("bad_second")
    return days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second


MAX_HEADER_VALUE_LEN = 8192  # §1, §8
# A value of up to MAX_HEADER_VALUE_LEN digits is read as an exact integer, then saturated.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(max(sys.get_int_max_str_digits(), 2 * MAX_HEADER_VALUE_LEN))


def _bounded(value):
    """§8: a header value's bytes, if it is not longer than MAX_HEADER_VALUE_LEN and is ASCII."""
    b = _to_bytes(value)
    if len(b) > MAX_HEADER_VALUE_LEN:
        raise SpecError("too_long")
    if any(x > 0x7F for x in b):
        raise SpecError("invalid_format")
    return b


def parse_retry_after(value, now_unix_s):
    """§8.1: milliseconds (u32) or SpecError(name). `value` is bytes or str."""
    b = _strip_sp_htab(_bounded(value))
    if not b:
        raise SpecError("empty")
    if b[:1] == b"-":
        raise SpecError("negative")
    if b.isdigit():  # bytes.isdigit(): ASCII digits only
        return sat32(int(b) * 1000)  # saturating accumulation == exact value then sat32
    t = _parse_http_date(b, now_unix_s)
    if t <= now_unix_s:
        return 0
    return sat32((t - now_unix_s) * 1000)


def parse_grpc_pushback(value):
    """§8.2: milliseconds (u32) or SpecError(name)."""
    b = _strip_sp_htab(_bounded(value))
    if not b:
        raise SpecError("empty")
    if b[:1] == b"-":
        raise SpecError("negative")
    if b.isdigit():
        return sat32(int(b))
    raise SpecError("invalid_format")


def hint_from_grpc_pushback(value):
    """§8.2 / gRFC A6: every parse error (including, in this model, `empty`) means do_not_retry."""
    try:
        return RetryAfter(parse_grpc_pushback(value))
    except SpecError:
        return DO_NOT_RETRY


# --- §10 Retry budgets -----------------------------------------------------------------------------

class GrpcBudget:
    """§10.1: gRFC A6 retry throttling, in milli-tokens."""

    def __init__(self, max_tokens, token_ratio_milli):
        if not 1 <= max_tokens <= 1000:
            raise SpecError("max_tokens")
        if not 1 <= token_ratio_milli <= 1000 * max_tokens:
            raise SpecError("token_ratio_milli")
        self.max = max_tokens * 1000
        self.ratio = token_ratio_milli
        self.tokens_milli = self.max

    def record_failure(self, kind):
        self.tokens_milli -= min(self.tokens_milli, 1000)

    def try_acquire(self, kind):
        return self.tokens_milli > self.max // 2

    def record_success(self, retried=None):
        self.tokens_milli = min(self.max, self.tokens_milli + self.ratio)


class AwsBudget:
    """§10.2: the AWS SDK retry quota, in milli-tokens. kind is 'error' or 'timeout'."""

    def __init__(self, capacity=500, retry_cost=5, timeout_cost=10, no_retry_increment=1):
        if not 1 <= capacity <= 1_000_000:
            raise SpecError("capacity")
        if not 1 <= retry_cost <= capacity:
            raise SpecError("retry_cost")
        if not 1 <= timeout_cost <= capacity:
            raise SpecError("timeout_cost")
        if not 0 <= no_retry_increment <= capacity:
            raise SpecError("no_retry_increment")
        self.capacity_milli = capacity * 1000
        self.cost_milli = {"error": retry_cost * 1000, "timeout": timeout_cost * 1000}
        self.increment_milli = no_retry_increment * 1000
        self.tokens_milli = self.capacity_milli

    def record_failure(self, kind):
        pass

    def try_acquire(self, kind):
        c = self.cost_milli[kind]
        if self.tokens_milli >= c:
            self.tokens_milli -= c
            return True
        return False

    def record_success(self, retried=None):
        """retried: None for a first-try success, else the kind of the retry that succeeded."""
        add = self.increment_milli if retried is None else self.cost_milli[retried]
        self.tokens_milli = min(self.capacity_milli, self.tokens_milli + add)
