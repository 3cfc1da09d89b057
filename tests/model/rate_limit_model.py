"""SPEC.md §8.3, the rate-limit headers, written from the text alone (see spec_model.py).

parse_rate_limit(header_name, value, now_unix_s) -> milliseconds (u32) or raises SpecError(name).
hint_from_headers(status, headers, now_unix_s) -> a §5 hint or None, headers a dict of lower-case
names to values (bytes or str).
"""

from spec_model import SpecError, RetryAfter, RateLimit, _bounded, parse_retry_after, sat32

U64_MAX = 2**64 - 1

# §8.3 step 1: (code, name, kind) in precedence order.
HEADERS = [(0, "ratelimit", "structured"), (1, "ratelimit-reset", "reset"),
           (2, "x-ratelimit-retry-after", "reset"), (3, "x-ratelimit-reset", "reset")]
EPOCH_THRESHOLD = 10**9


def _b(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _is_digits(b):
    return len(b) > 0 and all(0x30 <= c <= 0x39 for c in b)


def parse_reset(value, now_unix_s):
    """§8.3 step 2."""
    b = _b(value).strip(b" \t")
    if not b:
        raise SpecError("empty")
    if b[:1] == b"-":
        raise SpecError("negative")
    int_part, dot, frac = b.partition(b".")
    if not _is_digits(int_part) or (dot and not _is_digits(frac)):
        raise SpecError("invalid_format")
    i = min(int(int_part), U64_MAX)
    # ceil(0.F * 1000) exactly, with Python's unbounded integers (independent of the digit rule).
    f = -((-int(frac) * 1000) // 10 ** len(frac)) if dot else 0
    t = min(i * 1000 + f, U64_MAX)
    if i > EPOCH_THRESHOLD:
        return sat32(max(0, t - min(now_unix_s * 1000, U64_MAX)))
    return sat32(t)


def _split(b, sep):
    """Split at sep outside double quotes; inside them a backslash escapes the next byte."""
    parts, cur, quoted, escaped = [], bytearray(), False, False
    for c in b:
        if escaped:
            escaped = False
        elif quoted and c == 0x5C:
            escaped = True
        elif c == 0x22:
            quoted = not quoted
        elif not quoted and c == sep:
            parts.append(bytes(cur))
            cur = bytearray()
            continue
        cur.append(c)
    parts.append(bytes(cur))
    return parts


def _pair(piece):
    parts = _split(piece, ord("="))
    if len(parts) == 1:
        return None
    key = parts[0]
    return key.strip(b" \t"), piece[len(key) + 1:].strip(b" \t")


def _apply(quota, key, value):
    field = {b"t": "reset", b"reset": "reset", b"r": "remaining", b"remaining": "remaining"}.get(key)
    if field and _is_digits(value):
        quota[field] = min(int(value), U64_MAX)


def parse_structured(value):
    """§8.3 step 3."""
    b = _b(value)
    if not b.strip(b" \t"):
        raise SpecError("empty")
    quotas, dictionary = [], {}
    for member in _split(b, ord(",")):
        pieces = _split(member, ord(";"))
        first = _pair(pieces[0])
        if first is not None:
            _apply(dictionary, *first)
            continue
        quota = {}
        for piece in pieces[1:]:
            p = _pair(piece)
            if p is not None:
                _apply(quota, *p)
        quotas.append(quota)
    quotas.append(dictionary)
    with_reset = [q for q in quotas if "reset" in q]
    exhausted = [q["reset"] for q in with_reset if q.get("remaining") == 0]
    if exhausted:
        return sat32(max(exhausted) * 1000)
    if with_reset:
        return sat32(max(q["reset"] for q in with_reset) * 1000)
    raise SpecError("invalid_format")


def parse_rate_limit(header, value, now_unix_s):
    value = _bounded(value)
    for _, name, kind in HEADERS:
        if name == header:
            return parse_structured(value) if kind == "structured" else parse_reset(value, now_unix_s)
    raise ValueError("unknown rate-limit header %r" % (header,))


def hint_from_headers(status, headers, now_unix_s):
    """§8.3 step 1: a valid Retry-After; else, for a 429 only, the first rate-limit header present
    that parses; else None."""
    if "retry-after" in headers:
        try:
            return RetryAfter(parse_retry_after(headers["retry-after"], now_unix_s))
        except SpecError:
            pass
    if status != 429:
        return None
    for _, name, _kind in HEADERS:
        if name in headers:
            try:
                return RateLimit(parse_rate_limit(name, headers[name], now_unix_s))
            except SpecError:
                continue
    return None
