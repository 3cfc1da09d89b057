#!/usr/bin/env python3
"""Prints the two delays ffi/examples/retry_http.c prints ("3000 2410"), from the independent
model of SPEC.md rather than from the library: Google's preset, seed 42, the first 503's
Retry-After: 3 lifting the first delay to 3000 ms, then the second draw.

usage: python3 ffi/tests/example_delays.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "model"))
import spec_model as m  # noqa: E402

b = m.Backoff(m.preset("google"), 42)
print(b.next(hint=m.RetryAfter(3000)).delay_ms, b.next().delay_ms)
