"""How a typed program uses the package, checked by mypy --strict and pyright (never run):
python/tests/typed/check_types.py. Each `reveal_type` line's output is compared with the type
written after it (module paths and default values left out, as both tools agree on them); each `# type: ignore[...]` must be needed (mypy's warn_unused_ignores, pyright's
reportUnnecessaryTypeIgnoreComment), so a call with a wrong argument type must be an error: a
decorator that made the function `Any` would fail here."""

from __future__ import annotations

import datetime

import httpx
import requests
import stamina
import tenacity
import valkey
import valkey.asyncio
import valkey.retry
from google.cloud.memorystore_v1 import MemorystoreAsyncClient, MemorystoreClient
from google.cloud.memorystore_v1.types import Instance
from typing_extensions import assert_type, reveal_type

from seeded_backoff import Policy, RetryError, RetryEvent, retry
from seeded_backoff.budget import RetryBudget
from seeded_backoff.pacer import Pacer, PacerError
from seeded_backoff.send_rate import SendRate
from seeded_backoff.shared import (AsyncSharedBudget, AsyncSharedPacer, AsyncSharedSendRate, SharedBudget, SharedPacer,
                                   SharedSendRate)
from seeded_backoff.google import AsyncRetry, Retry
from seeded_backoff.stamina import backoff_hook
from seeded_backoff.tenacity import seeded
from seeded_backoff.valkey import ReconnectBackoff, paced_retry


@retry
def plain(url: str, *, timeout: float = 10) -> int:
    return len(url)


def on_retry(event: RetryEvent) -> None:
    print(event.attempt, event.delay_ms, event.error)


@retry(seed=7, max_retries=3, on_retry=on_retry, budget=RetryBudget.aws_default())
def get(url: str, timeout: float = 10) -> requests.Response:
    return requests.get(url, timeout=timeout)


@retry(policy=Policy("aws_standard"), retry_on=(httpx.TransportError,))
async def aget(client: httpx.AsyncClient, url: str) -> httpx.Response:
    return await client.get(url)


reveal_type(plain)  # revealed: (url: str, *, timeout: float =) -> int
reveal_type(get)  # revealed: (url: str, timeout: float =) -> Response
reveal_type(aget)  # revealed: (client: AsyncClient, url: str) -> Coroutine[Any, Any, Response]
get(42)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
plain("u", timeout="soon")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
retry(max_retry=3)  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue]


async def use_async(client: httpx.AsyncClient) -> int:
    response = await aget(client, "https://example.com")
    assert_type(response, httpx.Response)
    return response.status_code


def use_sync() -> int:
    assert_type(plain("u"), int)
    try:
        return get("https://example.com").status_code
    except RetryError as e:
        assert_type(e.attempts, int)
        return -1


# tenacity: seeded()'s wait, stop and retry are tenacity's own keyword types.
@tenacity.retry(**seeded(Policy("google"), seed=42, retry_on=ConnectionError))
def with_tenacity(url: str) -> int:
    return len(url)


reveal_type(seeded(Policy("google")))  # revealed: SeededArguments
retrying = tenacity.Retrying(**seeded(Policy("google"), seed=42), reraise=True)
seeded(Policy("google"), seed="42")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


# With a send rate, seeded() adds tenacity's `before` (awaited with is_async=True).
rate = SendRate()
paced_retrying = tenacity.Retrying(**seeded(Policy("google"), send_rate=rate))
paced_async = tenacity.AsyncRetrying(**seeded(Policy("google"), send_rate=rate, is_async=True))
seeded(Policy("google"), send_rate=1000)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def with_stamina_paced(url: str) -> int:
    hook = backoff_hook(Policy("google"), send_rate=rate)
    for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None):
        with attempt:
            response = hook.attempt(httpx.get, url)
            reveal_type(response)  # revealed: Response
            return response.status_code
    raise AssertionError("unreachable")


async def with_stamina_paced_async(client: httpx.AsyncClient, url: str) -> int:
    hook = backoff_hook(Policy("google"), send_rate=rate)
    response = await hook.attempt_async(client.get, url)
    return response.status_code


def with_stamina(url: str) -> httpx.Response:
    for attempt in stamina.retry_context(on=backoff_hook(Policy("google"), seed=42), attempts=None, timeout=None):
        with attempt:
            return httpx.get(url).raise_for_status()
    raise AssertionError("unreachable")


# Google's clients take these as `retry=` (their parameter is typed as google-api-core's Retry).
def google_sync(client: MemorystoreClient) -> Instance:
    return client.get_instance(name="projects/p/locations/l/instances/i", retry=Retry(seed=7, deadline=60), timeout=60)


async def google_async(client: MemorystoreAsyncClient) -> Instance:
    return await client.get_instance(name="projects/p/locations/l/instances/i", retry=AsyncRetry(seed=7))


reveal_type(Retry(seed=7).with_timeout(30))  # revealed: Retry
ReconnectBackoff(seed=7, on_retry=on_retry)
ReconnectBackoff(seed=7, send_rate=rate)


def valkey_paced(retry: valkey.retry.Retry) -> None:
    reveal_type(paced_retry(retry))  # revealed: Retry
Policy("google").replace(max_elapsed_ms=datetime.timedelta(seconds=3))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]

# A server's pacer: its slot's fields and headers are typed.
pacer = Pacer(100, reserve_per_mille=100, max_wait_s=60, seed=7)
reveal_type(pacer.assign())  # revealed: PacerSlot
reveal_type(pacer.assign(now_ms=5000).retry_after_s)  # revealed: int
reveal_type(pacer.assign().full)  # revealed: bool
reveal_type(pacer.assign().headers())  # revealed: dict[str, str]
reveal_type(pacer.pending())  # revealed: int


def refused(error: PacerError) -> None:
    reveal_type(error.field)  # revealed: str | None


pacer.assign(now_ms=1.5)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]

# A fleet's parts in Valkey: retry() takes them as local ones; their answers are the local parts'.
store = valkey.Valkey()
fleet_rate = SharedSendRate(store, "sb:send-rate:api", SendRate())
fleet_budget = SharedBudget(store, "sb:budget:api", RetryBudget.aws_default())
fleet_pacer = SharedPacer(store, "sb:pacer:api", Pacer(100))


@retry(send_rate=fleet_rate, budget=fleet_budget)
def fleet_call() -> int:
    return 1


reveal_type(fleet_call())  # revealed: int
reveal_type(fleet_rate.ask().kind)  # revealed: str
reveal_type(fleet_budget.try_acquire())  # revealed: bool
reveal_type(fleet_pacer.assign())  # revealed: PacerSlot
reveal_type(fleet_rate.link_state)  # revealed: str


async def fleet_pending() -> None:
    reveal_type(await AsyncSharedPacer(store, "sb:pacer:api", Pacer(100)).pending())  # revealed: int


# Under asyncio, retry() around an async def takes the parts over an asyncio client.
async_store = valkey.asyncio.Valkey()


@retry(send_rate=AsyncSharedSendRate(async_store, "sb:send-rate:api", SendRate()),
       budget=AsyncSharedBudget(async_store, "sb:budget:api", RetryBudget.aws_default()))
async def fleet_call_async() -> int:
    return 1


async def fleet_async() -> None:
    reveal_type(await fleet_call_async())  # revealed: int
