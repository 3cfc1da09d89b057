"""The tenacity and stamina adapters retry, when the caller names nothing, the errors worth a retry
(transport errors, the retryable statuses), never a bug. The real libraries (pinned), a closed
port on 127.0.0.1; expected delays from the independent model (tests/model)."""

import pytest
import requests
import stamina
import tenacity

from model_runs import model_waits
from seeded_backoff import Policy
from seeded_backoff.stamina import backoff_hook
from seeded_backoff.tenacity import seeded
from test_what_is_retried import SEED, closed_port


def test_the_adapters_do_not_retry_a_bug_by_default():
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED), sleep=lambda s: None)
    calls = []

    def lookup():
        calls.append(1)
        return {}["id"]

    with pytest.raises(KeyError):
        retrying(lookup)
    assert len(calls) == 1
    with closed_port() as url:
        retrying = tenacity.Retrying(**seeded(Policy("google", max_retries=1), seed=SEED), sleep=lambda s: None,
                                     reraise=True)
        with pytest.raises(requests.ConnectionError):
            retrying(requests.get, url, timeout=2)
    hook = backoff_hook(Policy("google"), seed=SEED)
    assert hook(KeyError("id")) is False
    hook = backoff_hook(Policy("google"), seed=SEED)
    assert hook(requests.ConnectionError()) == model_waits(SEED, [None])[0] / 1000
    stamina.set_testing(True)
    try:
        calls.clear()
        with pytest.raises(KeyError):
            for attempt in stamina.retry_context(on=backoff_hook(Policy("google"), seed=SEED), attempts=None,
                                                 timeout=None):
                with attempt:
                    lookup()
        assert len(calls) == 1
    finally:
        stamina.set_testing(False)
