"""A header name given twice (SPEC.md section 8.3 step 1: the first occurrence counts), through each
mapping a user passes to hint_from_headers: the libraries that keep both occurrences (httpx,
aiohttp's multidict, urllib3) must be read occurrence by occurrence, not through a joined view."""

import httpx
import multidict
import pytest
import requests
import urllib3

from seeded_backoff.http import hint_from_headers

PAIRS = [("Retry-After", "soon"), ("retry-after", "5")]
RATE = [("X-RateLimit-Reset", "7"), ("x-ratelimit-reset", "9")]


def mappings(pairs):
    def urllib3_headers():
        h = urllib3.HTTPHeaderDict()
        for k, v in pairs:
            h.add(k, v)
        return h

    return {
        "httpx.Headers": httpx.Headers(pairs),
        "aiohttp CIMultiDictProxy": multidict.CIMultiDictProxy(multidict.CIMultiDict(pairs)),
        "aiohttp CIMultiDict": multidict.CIMultiDict(pairs),
        "urllib3 HTTPHeaderDict": urllib3_headers(),
        "dict": dict(pairs),
        "list of pairs": list(pairs),
        "tuple of pairs": tuple(pairs),
    }


@pytest.mark.parametrize("kind", list(mappings(PAIRS)))
def test_first_retry_after_counts(kind):
    # The first occurrence does not parse: no hint, not the second's 5 s.
    assert hint_from_headers(503, mappings(PAIRS)[kind]) == {}
    valid_first = [("Retry-After", "5"), ("RETRY-AFTER", "10")]
    assert hint_from_headers(503, mappings(valid_first)[kind]) == {"retry_after_ms": 5000}


@pytest.mark.parametrize("kind", list(mappings(RATE)))
def test_first_rate_limit_header_counts(kind):
    assert hint_from_headers(429, mappings(RATE)[kind], now=0) == {"rate_limit_ms": 7000}


def test_requests_case_insensitive_dict_holds_one_value_per_name():
    # requests keeps one value per name (the last one set): that one is read as given.
    h = requests.structures.CaseInsensitiveDict(PAIRS)
    assert hint_from_headers(503, h) == {"retry_after_ms": 5000}


def test_requests_response_raw_headers_keep_both():
    # requests' response.headers joins repeated fields into one value ("5, 10", which does not
    # parse); its response.raw.headers (urllib3's) keeps each occurrence, and the first counts.
    raw = urllib3.HTTPResponse(body=b"", headers=[("Retry-After", "5"), ("Retry-After", "10")], status=503,
                               preload_content=False)
    response = requests.adapters.HTTPAdapter().build_response(requests.Request("GET", "http://x/").prepare(), raw)
    assert response.headers["Retry-After"] == "5, 10"
    assert hint_from_headers(503, response.headers) == {}
    assert hint_from_headers(503, response.raw.headers) == {"retry_after_ms": 5000}


# SPEC.md section 8: a value with a character outside ASCII is invalid_format in every entry point,
# whether the library decoded its bytes as UTF-8 or Latin-1; hint_from_headers passes over it.
NOT_ASCII = ['"d\u00e9faut";r=0;t=30', '"q";r=0;t=30;note=\U0001f600', '"d\u00e9faut";r=0;t=30'.encode("latin-1")]


@pytest.mark.parametrize("value", NOT_ASCII)
def test_a_character_outside_ascii_is_invalid_format(value):
    from seeded_backoff.http import RateLimitError, parse_rate_limit
    with pytest.raises(RateLimitError) as e:
        parse_rate_limit("RateLimit", value, now=0)
    assert e.value.code == "invalid_format"
    # Passed over: the next header of the table gives the hint.
    assert hint_from_headers(429, [("RateLimit", value), ("X-RateLimit-Reset", "5")], now=0) == {"rate_limit_ms": 5000}
