//! The pacer's unit tests: the raw form, the reserve second, a full schedule, the clock's edges.

use super::*;

#[test]
fn a_backwards_clock_reads_as_standing_still() {
    let mut pacer = Pacer::new(2, 0, 60, 3).unwrap();
    let a = pacer.assign(10_500);
    let b = pacer.assign(2_000);
    assert_eq!((a.retry_after_s, b.retry_after_s), (1, 1));
    assert!(b.reset_ms > a.reset_ms);
}

#[test]
fn the_raw_form_round_trips_and_refuses_what_no_pacer_reaches() {
    // 4/s, 3 in the reserve second 2, then second 3 (of 4) has one.
    let mut pacer = Pacer::new(4, 250, 2, 5).unwrap();
    for _ in 0..4 {
        pacer.assign(1_200);
    }
    let raw = pacer.to_raw();
    assert_eq!(
        (
            raw.rate,
            raw.capacity,
            raw.reserve_s,
            raw.tail_s,
            raw.tail_count
        ),
        (3, 4, 2, 3, 1)
    );
    let mut back = Pacer::from_raw(raw).unwrap();
    assert_eq!(back.assign(1_300), pacer.clone().assign(1_300));
    for bad in [
        RawPacer { rng: [0; 4], ..raw },
        RawPacer { rate: 0, ..raw },
        RawPacer { rate: 5, ..raw },
        RawPacer { capacity: 0, ..raw },
        RawPacer {
            capacity: MAX_PACER_CAPACITY + 1,
            rate: 1,
            ..raw
        },
        RawPacer {
            max_wait_s: 0,
            ..raw
        },
        RawPacer {
            tail_count: 4,
            ..raw
        },
        RawPacer {
            tail_count: 3,
            tail_s: 2,
            ..raw
        },
        RawPacer {
            reserve_s: 4,
            tail_s: 4,
            tail_count: 0,
            ..raw
        },
        RawPacer { tail_s: 5, ..raw },
        RawPacer {
            latest_ms: u64::MAX,
            ..raw
        },
    ] {
        assert_eq!(Pacer::from_raw(bad), None, "{bad:?}");
    }
}

#[test]
fn only_the_first_second_of_a_schedule_that_starts_empty_keeps_the_reserve() {
    // 10/s, 300 ‰ kept: 7 in second 1, 10 in each later second.
    let mut pacer = Pacer::new(10, 300, 60, 1).unwrap();
    let waits: [_; 27] = core::array::from_fn(|_| pacer.assign(0).retry_after_s);
    assert_eq!(waits.iter().filter(|&&w| w == 1).count(), 7);
    assert_eq!(waits.iter().filter(|&&w| w == 2).count(), 10);
    assert_eq!(waits.iter().filter(|&&w| w == 3).count(), 10);
    assert_eq!(
        [0, 1_000, 2_000, 3_000].map(|t| pacer.pending(t)),
        [27, 20, 10, 0]
    );
    // A refusal while the schedule still runs joins its tail at the capacity.
    assert_eq!(pacer.assign(2_100).retry_after_s, 2);
    // Once it has drained, the next schedule's first second keeps the reserve again.
    let again: [_; 8] = core::array::from_fn(|_| pacer.assign(9_000).retry_after_s);
    assert_eq!(again, [1, 1, 1, 1, 1, 1, 1, 2]);
    assert_eq!(pacer.pending(9_000), 8);
}

#[test]
fn a_full_schedule_answers_the_last_second() {
    let mut pacer = Pacer::new(1, 0, 2, 3).unwrap();
    let waits: [_; 4] = core::array::from_fn(|_| pacer.assign(0));
    assert_eq!(
        waits.map(|s| (s.retry_after_s, s.full)),
        [(1, false), (2, false), (2, true), (2, true)]
    );
}

#[test]
fn the_largest_clock_and_capacity_stay_in_range() {
    let mut pacer = Pacer::new(MAX_PACER_CAPACITY, 0, MAX_PACER_WAIT_S, 0).unwrap();
    let slot = pacer.assign(u64::MAX);
    assert_eq!(slot.retry_after_s, 1);
    assert!(slot.reset_ms <= 2000);
}
