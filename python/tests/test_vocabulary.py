"""SPEC.md section 14's table, Python column, observed on real runs: every loop of the package that
has a retry callback (`retry`, sync and async; the Google `Retry`; the Valkey `ReconnectBackoff`)
is driven with the callback given by the table's name, and what it reports is read by the table's
names only: attempts from 1, one payload per retry with its three fields, the give-up error and its
attributes, each delay the independent model's (tests/model)."""

import asyncio
import os
import re

import spec_model as m

import seeded_backoff
from conftest import REPO
from seeded_backoff import Backoff, Policy, retry
from seeded_backoff.google import Retry as GoogleRetry
from seeded_backoff.valkey import ReconnectBackoff

SPEC = os.path.join(REPO, "SPEC.md")
SEED = 42
RETRIES = 2


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


NAMES = {concept: names[0] for concept, names in spec_column("Python").items() if names}
FIELDS = ("attempt that just failed, from 1", "delay before the next attempt, ms", "the failed attempt's error")


def model_delays():
    b = m.Backoff(m.preset("google", max_retries=RETRIES), SEED)
    return [b.next().delay_ms for _ in range(RETRIES)]


def check_run(calls, events, error, raised_by_attempt):
    """What one run reported, read by the table's names: `calls` attempts were made (numbered
    from 1 by the loop's own count), `events` the callback's payloads, `error` the give-up."""
    assert calls == RETRIES + 1
    assert type(error).__name__ == NAMES["give-up error"]
    assert isinstance(error, getattr(seeded_backoff, NAMES["give-up error"]))
    assert getattr(error, NAMES["attempts made"]) == RETRIES + 1
    assert getattr(error, NAMES["give-up reason"]) == "max_retries"
    assert getattr(error, NAMES["last error of a give-up"]) is raised_by_attempt[RETRIES + 1]
    assert len(events) == RETRIES
    assert type(events[0]).__name__ == NAMES["callback payload"]
    want = model_delays()
    for n, event in enumerate(events, start=1):
        attempt, delay, failed = (getattr(event, NAMES[field]) for field in FIELDS)
        assert (attempt, delay) == (n, want[n - 1])
        assert failed is raised_by_attempt[n]


def test_the_python_column_names_the_packages_names():
    # Every concept has a Python name in the table, and the package has each.
    assert set(NAMES) == set(spec_column("Python")), "a concept without a Python name"
    for concept in ("callback payload", "give-up error"):
        assert hasattr(seeded_backoff, NAMES[concept]), concept
    b = Backoff(Policy("google"), seed=1)
    b.next_delay()
    assert getattr(b, NAMES["retries issued so far"]) == 1


def test_retry_sync_and_async():
    for kind in ("sync", "async"):
        raised, events = {}, []

        def attempt():
            n = len(raised) + 1
            raised[n] = ConnectionError(f"refused {n}")
            raise raised[n]

        options = {NAMES["retry callback"]: events.append}
        if kind == "sync":
            call = retry(seed=SEED, max_retries=RETRIES, sleep=lambda s: None, **options)(attempt)
        else:
            async def attempt_async():
                attempt()

            async def no_sleep(seconds):
                return None

            wrapped = retry(seed=SEED, max_retries=RETRIES, sleep=no_sleep, **options)(attempt_async)

            def call():
                return asyncio.run(wrapped())
        try:
            call()
        except Exception as e:  # noqa: BLE001 (checked by name below)
            error = e
        else:
            raise AssertionError(f"{kind}: no give-up")
        check_run(len(raised), events, error, raised)
        assert error.__cause__ is raised[RETRIES + 1]


def test_google_retry():
    from google.api_core import exceptions

    raised, events = {}, []

    def attempt():
        n = len(raised) + 1
        raised[n] = exceptions.ServiceUnavailable(f"unavailable {n}")
        raise raised[n]

    r = GoogleRetry(Policy("google", max_retries=RETRIES), seed=SEED, sleep=lambda s: None,
                    **{NAMES["retry callback"]: events.append})
    try:
        r(attempt)()
    except Exception as e:  # noqa: BLE001
        error = e
    check_run(len(raised), events, error, raised)


def test_valkey_reconnect_backoff():
    # valkey-py's Retry: it calls compute(failures) inside its `except` clause, as here.
    raised, events = {}, []
    b = ReconnectBackoff(Policy("google", max_retries=RETRIES), seed=SEED, **{NAMES["retry callback"]: events.append})
    failures = 0
    while True:
        failures += 1
        try:
            raised[failures] = ConnectionError(f"reset {failures}")
            raise raised[failures]
        except ConnectionError:
            try:
                b.compute(failures)
            except Exception as e:  # noqa: BLE001
                error = e
                break
    check_run(failures, events, error, raised)
