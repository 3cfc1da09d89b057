"""The Python column of SPEC.md section 14's table is the package's names: the retry callback's
payload fields, RetryError's attributes, the decorator's callback parameter, Backoff's retry count."""

import dataclasses
import inspect
import os
import re

import spec_model as m

import seeded_backoff
from conftest import REPO
from seeded_backoff import Backoff, Policy, RetryError, RetryEvent, retry

SPEC = os.path.join(REPO, "SPEC.md")


def spec_column(column):
    """{concept: [names in backquotes]} for `column` of section 14's table."""
    text = open(SPEC, encoding="utf-8").read()
    section = text.split("\n## 14. ", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].split("|")]
    at = header.index(column)
    table = {}
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.split("|")]
        table[cells[1]] = re.findall(r"`([^`]+)`", cells[at])
    return table


def test_the_python_column_is_the_packages_names():
    names = spec_column("Python")
    assert names["retry callback"] == ["on_retry"]
    assert "on_retry" in inspect.signature(retry).parameters
    assert names["callback payload"] == ["RetryEvent"] and hasattr(seeded_backoff, "RetryEvent")
    fields = [f.name for f in dataclasses.fields(RetryEvent)]
    assert fields == (names["attempt that just failed, from 1"] + names["delay before the next attempt, ms"]
                      + names["the failed attempt's error"])
    assert names["give-up error"] == [RetryError.__name__]
    error = RetryError(3, "max_retries", ValueError("x"))
    for concept in ("last error of a give-up", "attempts made", "give-up reason"):
        (name,) = names[concept]
        assert hasattr(error, name), concept
    (retries,) = names["retries issued so far"]
    assert getattr(Backoff(Policy("google"), seed=1), retries) == 0


def test_the_callback_gets_one_event_per_retry_numbered_from_1_and_the_give_up_its_cause():
    seen, calls = [], []

    @retry(seed=42, max_retries=2, sleep=lambda s: None, on_retry=seen.append, retry_on=ConnectionError)
    def failing():
        calls.append(1)
        raise ConnectionError(f"refused {len(calls)}")

    try:
        failing()
    except RetryError as e:
        assert (e.attempts, e.reason) == (3, "max_retries")
        assert e.cause is e.__cause__ and str(e.cause) == "refused 3"
    else:
        raise AssertionError("no RetryError")
    model = m.Backoff(m.preset("google", max_retries=2), 42)
    want = [model.next().delay_ms, model.next().delay_ms]
    assert [(e.attempt, e.delay_ms, str(e.error)) for e in seen] == [(1, want[0], "refused 1"), (2, want[1], "refused 2")]
