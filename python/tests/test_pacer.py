"""Pacer (SPEC.md §16) beyond the vectors: refused configurations by field, the state unchanged
by a refused call, hand-derived slots, the default clock, and threads sharing one pacer."""

import threading

import pytest

from seeded_backoff.pacer import PACER_HEADER_NAMES, Pacer, PacerError, PacerSlot


@pytest.mark.parametrize("args, field", [
    ((0,), "capacity_per_s"),
    ((1_000_001,), "capacity_per_s"),
    ((100, 1000), "reserve_per_mille"),
    ((100, 0, 0), "max_wait_s"),
    ((100, 0, 86_401), "max_wait_s"),
    ((0, 1000, 0), "capacity_per_s"),  # the first bad field, in SPEC.md §16.1's order
])
def test_bad_config_names_its_field(args, field):
    with pytest.raises(PacerError) as e:
        Pacer(*args, seed=1)
    assert isinstance(e.value, ValueError)
    assert e.value.field == field and field in str(e.value)


@pytest.mark.parametrize("kw, name", [
    (dict(capacity_per_s=2**32), "capacity_per_s"),
    (dict(capacity_per_s=100, reserve_per_mille=-1), "reserve_per_mille"),
    (dict(capacity_per_s=100, seed=2**64), "seed"),
])
def test_out_of_type_values_are_value_errors_naming_the_field(kw, name):
    with pytest.raises(ValueError, match=name):
        Pacer(**kw)


@pytest.mark.parametrize("value", [True, 1.0, "100", None])
def test_non_integers_are_type_errors(value):
    with pytest.raises(TypeError, match="capacity_per_s"):
        Pacer(value)


def test_a_refused_clock_changes_nothing():
    pacer = Pacer(1000, max_wait_s=1, seed=3)
    with pytest.raises(ValueError, match="now_ms"):
        pacer.assign(now_ms=-1)
    with pytest.raises(TypeError, match="now_ms"):
        pacer.pending(now_ms=1.5)
    assert pacer.pending(now_ms=0) == 0
    assert pacer.assign(now_ms=0).reset_ms == 1000


# capacity 1000, reserve 0: rate 1000, w = 1000 // 1000 = 1, every draw uniform(0) = 0, so the i-th
# return of second s is at s·1000 + i ms (SPEC.md §16.2).
def test_hand_derived_slots_and_headers():
    pacer = Pacer(1000, reserve_per_mille=0, max_wait_s=1, seed=42)
    first = pacer.assign(now_ms=0)
    assert first == PacerSlot(1, 1000, False, ("1", "1.000", '"pacer";r=0;t=1'))
    assert first.headers() == {"retry-after": "1", "ratelimit-reset": "1.000", "ratelimit": '"pacer";r=0;t=1'}
    assert list(first.headers()) == list(PACER_HEADER_NAMES) == ["retry-after", "ratelimit-reset", "ratelimit"]
    slots = [pacer.assign(now_ms=0) for _ in range(999)]
    assert slots[-1].reset_ms == 1999 and not slots[-1].full
    assert pacer.pending(now_ms=0) == 1000
    full = pacer.assign(now_ms=0)
    assert (full.retry_after_s, full.reset_ms, full.full) == (1, 1999, True)
    later = pacer.assign(now_ms=2500)  # s = 3, i = 0: 3000 − 2500
    assert (later.retry_after_s, later.reset_ms, later.headers()["ratelimit-reset"]) == (1, 500, "0.500")


def test_the_default_clock_starts_at_zero():
    pacer = Pacer(10, max_wait_s=60)
    slot = pacer.assign()
    assert slot.retry_after_s == 1 and 1 <= slot.reset_ms <= 1999
    assert 0 <= pacer.seed < 2**64


def test_threads_share_one_schedule():
    # rate 50 a second: 8 threads × 100 refusals at one instant fill exactly 16 seconds, 50 each.
    pacer = Pacer(50, max_wait_s=60, seed=9)
    got = []
    lock = threading.Lock()

    def refuse():
        mine = [pacer.assign(now_ms=0).retry_after_s for _ in range(100)]
        with lock:
            got.extend(mine)

    threads = [threading.Thread(target=refuse) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == [s for s in range(1, 17) for _ in range(50)]
    assert pacer.pending(now_ms=0) == 800
