"""seeded_backoff.google with Google's real Memorystore client (google-cloud-memorystore over
google-api-core, pinned in python/requirements-integrations.txt) against a local stand-in of the
v1 API: REST on 127.0.0.1 for the sync client, gRPC on 127.0.0.1 for the async one. The server
answers 503, 503, 429 with Retry-After, then the Instance. Our retry gets through in 4 requests
with the independent model's waits (tests/model); the library's own default, on the same script and
in the same test, stops at the 429 after 3 requests."""

import asyncio

import grpc
import pytest
import spec_model as m
from google.api_core import exceptions, gapic_v1
from google.auth.credentials import AnonymousCredentials
from google.cloud.memorystore_v1 import MemorystoreAsyncClient, MemorystoreClient
from google.cloud.memorystore_v1.services.memorystore.transports import MemorystoreGrpcAsyncIOTransport
from google.cloud.memorystore_v1.types import memorystore as types

from memorystore_server import memorystore
from model_runs import model_waits
from seeded_backoff import Policy, RetryError
from seeded_backoff.google import AsyncRetry, Retry, classify
from test_retry_http import VirtualClock

SEED = 20240611
NAME = "projects/p/locations/us-central1/instances/cache"
RETRY_AFTER_S = 7
SCRIPT = [(503, {}), (503, {}), (429, {"Retry-After": str(RETRY_AFTER_S)}), (200, {})]


def rest_client(endpoint):
    return MemorystoreClient(transport="rest", credentials=AnonymousCredentials(),
                             client_options={"api_endpoint": endpoint})


def test_rest_client_four_requests_with_our_retry_three_with_the_library_default():
    expected = model_waits(SEED, [None, None, m.RetryAfter(RETRY_AFTER_S * 1000)])
    # The 429's wait is the Retry-After: Google's third delay is 4 s + up to 1 s.
    assert expected[2] == RETRY_AFTER_S * 1000

    clock, retried = VirtualClock(), []
    with memorystore(SCRIPT) as (endpoint, server):
        ours = Retry(seed=SEED, sleep=clock.sleep, clock=clock.clock,
                     on_retry=lambda e: retried.append((e.attempt, e.delay_ms, type(e.error).__name__)))
        instance = rest_client(endpoint).get_instance(name=NAME, retry=ours)
        assert instance.name == NAME and instance.state == types.Instance.State.ACTIVE
        assert len(server.paths) == 4
        assert all(p.startswith(f"/v1/{NAME}?") for p in server.paths)
    assert clock.delays_ms == expected
    assert retried == [(1, expected[0], "ServiceUnavailable"), (2, expected[1], "ServiceUnavailable"),
                       (3, expected[2], "TooManyRequests")]

    # The library's default retry (503 only, full jitter on 1 s x 1.3): the 429 is final.
    with memorystore(SCRIPT) as (endpoint, server):
        with pytest.raises(exceptions.TooManyRequests):
            rest_client(endpoint).get_instance(name=NAME)
        assert len(server.paths) == 3


def test_a_404_is_not_retried_and_giving_up_raises_retry_error():
    with memorystore([(404, {})]) as (endpoint, server):
        with pytest.raises(exceptions.NotFound):
            rest_client(endpoint).get_instance(name=NAME, retry=Retry(seed=1, sleep=lambda s: None))
        assert len(server.paths) == 1
    clock = VirtualClock()
    with memorystore([(503, {})]) as (endpoint, server):
        # What code written for the library's own retries catches: google-api-core's RetryError.
        with pytest.raises(exceptions.RetryError) as e:
            rest_client(endpoint).get_instance(
                name=NAME, retry=Retry(Policy("google", max_retries=2), seed=SEED, sleep=clock.sleep, clock=clock.clock))
        assert isinstance(e.value, RetryError) and isinstance(e.value.cause, exceptions.ServiceUnavailable)
        assert (e.value.attempts, e.value.reason) == (3, "max_retries")
        assert isinstance(e.value.__cause__, exceptions.ServiceUnavailable)
        assert len(server.paths) == 3
    assert clock.delays_ms == model_waits(SEED, [None, None, None], m.preset("google", max_retries=2))[:2]


def test_deadline_gives_up_before_a_wait_that_would_cross_it():
    clock = VirtualClock()
    with memorystore([(503, {})]) as (endpoint, server):
        with pytest.raises(RetryError) as e:
            rest_client(endpoint).get_instance(
                name=NAME, retry=Retry(seed=SEED, deadline=5, sleep=clock.sleep, clock=clock.clock))
        assert e.value.reason == "deadline"
    expected = model_waits(SEED, [None] * 5, m.preset("google", max_elapsed_ms=5000))
    assert clock.delays_ms + ["deadline"] == expected
    assert len(server.paths) == len(clock.delays_ms) + 1


def test_classification_is_the_cores():
    # HTTP status first (REST errors), gRPC code otherwise; expected values from SPEC.md section 7.
    assert classify(exceptions.ServiceUnavailable("x")) == "retry"
    assert classify(exceptions.InternalServerError("x")) == "retry"
    assert classify(exceptions.TooManyRequests("x")) == "retry"
    assert classify(exceptions.BadRequest("x")) == "do_not_retry"
    assert classify(exceptions.PermissionDenied("x")) == "do_not_retry"
    unknown = exceptions.GoogleAPICallError("x")
    assert classify(unknown) == "invalid"
    unknown.grpc_status_code = grpc.StatusCode.RESOURCE_EXHAUSTED
    assert classify(unknown) == "retry"
    unknown.grpc_status_code = grpc.StatusCode.ABORTED
    assert classify(unknown) == "do_not_retry"
    assert classify(ValueError("not an API error")) == "invalid"


class _Scripted:
    """The gRPC stand-in's GetInstance: UNAVAILABLE, UNAVAILABLE, RESOURCE_EXHAUSTED, then the
    Instance."""

    def __init__(self):
        self.calls = 0

    async def get_instance(self, request, context):
        self.calls += 1
        codes = [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED]
        if self.calls <= len(codes):
            await context.abort(codes[self.calls - 1], f"scripted {self.calls}")
        return types.Instance(name=request.name, state=types.Instance.State.ACTIVE)


async def _grpc_run(make_retry):
    handler = _Scripted()
    server = grpc.aio.server()
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("google.cloud.memorystore.v1.Memorystore", {
        "GetInstance": grpc.unary_unary_rpc_method_handler(
            handler.get_instance, request_deserializer=types.GetInstanceRequest.deserialize,
            response_serializer=types.Instance.serialize)})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        client = MemorystoreAsyncClient(transport=MemorystoreGrpcAsyncIOTransport(channel=channel))
        try:
            result = await asyncio.wait_for(client.get_instance(name=NAME, retry=make_retry()), 30)
        except Exception as e:  # noqa: BLE001 (the library default's outcome is the assertion)
            result = e
        await channel.close()
        return result, handler.calls
    finally:
        await server.stop(None)


def test_async_grpc_client_four_calls_with_async_retry_three_with_the_library_default():
    clock = VirtualClock()
    result, calls = asyncio.run(_grpc_run(lambda: AsyncRetry(seed=SEED, sleep=clock.async_sleep, clock=clock.clock)))
    assert result.name == NAME and calls == 4
    # gRPC carries no Retry-After here: three plain steps.
    assert clock.delays_ms == model_waits(SEED, [None, None, None])
    result, calls = asyncio.run(_grpc_run(lambda: gapic_v1.method.DEFAULT))
    assert isinstance(result, exceptions.TooManyRequests) and calls == 3


def test_a_429s_rate_limit_header_when_it_has_no_retry_after():
    # RateLimit-Reset: 12 (seconds): the wait is at least 12 s plus the core's upward jitter, which
    # the model draws the same way (SPEC.md section 8.3).
    expected = model_waits(SEED, [m.RateLimit(12000)])
    assert expected[0] >= 12000
    clock = VirtualClock()
    with memorystore([(429, {"RateLimit-Reset": "12"}), (200, {})]) as (endpoint, server):
        rest_client(endpoint).get_instance(name=NAME, retry=Retry(seed=SEED, sleep=clock.sleep, clock=clock.clock))
        assert len(server.paths) == 2
    assert clock.delays_ms == expected


@pytest.mark.parametrize("kwargs, error", [
    (dict(policy="google"), TypeError), (dict(seed=-1), ValueError), (dict(seed=1.5), TypeError),
    (dict(deadline="60"), TypeError), (dict(deadline=True), TypeError), (dict(deadline=0), ValueError),
    (dict(deadline=float("inf")), ValueError), (dict(deadline=float("nan")), ValueError),
    (dict(deadline=5e9), ValueError), (dict(budget=3), TypeError), (dict(on_retry=3), TypeError),
    (dict(sleep="no"), TypeError), (dict(clock=None), TypeError), (dict(retry_on=ValueError), TypeError),
])
def test_bad_arguments_name_the_argument(kwargs, error):
    (name,) = kwargs
    with pytest.raises(error, match=name):
        Retry(**kwargs)
    with pytest.raises(error, match=name):
        AsyncRetry(**kwargs)
