//! What a process decided alone, carried into the fleet's state (SPEC.md §19.6): a budget's
//! tokens and a send rate's window counts add; a pacer keeps the fleet's slots. Expected values
//! are worked by hand from the rules.

use super::SharedPart;
use crate::{
    budget::{RetryBudget, RetryGate},
    pacer::Pacer,
    send_rate::{Answer, Pace, SendRate, SendRateConfig},
    FailureKind,
};

#[test]
fn tokens_spent_alone_are_spent_from_the_fleets_bucket_within_it() {
    // gRPC: 10 tokens, a failure costs 1, a success earns 0.1 (ratio 100 milli).
    let since = RetryBudget::grpc(10, 100).unwrap();
    let alone = since.clone();
    for _ in 0..3 {
        alone.record_failure(FailureKind::Error);
    }
    // The fleet spent 2 meanwhile: 8 tokens, less the 3 spent alone.
    let fleet = since.clone();
    fleet.record_failure(FailureKind::Error);
    fleet.record_failure(FailureKind::Error);
    assert_eq!(fleet.with_alone(&since, &alone).tokens_milli(), 5_000);
    // Never below an empty bucket.
    let empty = since.clone();
    for _ in 0..10 {
        empty.record_failure(FailureKind::Error);
    }
    assert_eq!(empty.with_alone(&since, &alone).tokens_milli(), 0);
    // Tokens earned alone are earned into the fleet's, never past its size.
    let full = RetryBudget::grpc(10, 100).unwrap();
    let low = full.clone();
    low.record_failure(FailureKind::Error);
    let earned = low.clone();
    earned.record_success(None);
    assert_eq!(low.with_alone(&low, &earned).tokens_milli(), 9_100);
    assert_eq!(full.with_alone(&low, &earned).tokens_milli(), 10_000);
}

#[test]
fn sends_and_answers_counted_alone_add_to_the_fleets_window() {
    let off = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    // The process last saw the fleet at 600 ms: one send in bucket 2 (500..750).
    let mut since = off;
    assert_eq!(since.before_attempt(600), Pace::Send);
    // Alone, it sent 3 more and had 2 accepted in bucket 2, and 1 sent in bucket 3 at 800.
    let mut alone = since;
    for _ in 0..3 {
        assert_eq!(alone.before_attempt(700), Pace::Send);
    }
    alone.on_answer(710, Answer::Accepted);
    alone.on_answer(720, Answer::Accepted);
    assert_eq!(alone.before_attempt(800), Pace::Send);
    // The fleet meanwhile: 10 sent and 10 accepted in bucket 2, its latest reading 740.
    let mut fleet = since;
    for _ in 0..10 {
        assert_eq!(fleet.before_attempt(740), Pace::Send);
        fleet.on_answer(740, Answer::Accepted);
    }
    let merged = fleet.with_alone(&since, &alone);
    // Moved to 800 (bucket 3); bucket 2 holds 1 + 10 + 3 sent and 10 + 2 accepted, bucket 3 one
    // sent. Over the window's span from the first reading at 600 to 800 (200 ms): 15 sent is
    // 75/s, 12 accepted 60/s. A throttle now sets the rate (off) from them: current =
    // max(75, 60) = 75/s, base = max(min(75, 60), 37.5) = 60/s, less 2 %: 58.8/s.
    let mut cut = merged;
    cut.on_answer(800, Answer::Throttled { hint_ms: 0 });
    assert_eq!(cut.rate_milli(), 58_800);
    // Without what it counted alone: 11 sent and 10 accepted over 140 ms (600..740, the fleet
    // cut at 740): 78 571 and 71 428 milli; base 71 428, less 2 %: 69 999.
    let mut fleet_only = fleet;
    fleet_only.on_answer(740, Answer::Throttled { hint_ms: 0 });
    assert_eq!(fleet_only.rate_milli(), 69_999);
    // The fleet's rate and schedule stand: merged from a state that sends, nothing is taken.
    assert_eq!(merged.rate_milli(), fleet.rate_milli());
}

#[test]
fn counts_of_buckets_the_fleet_no_longer_keeps_are_dropped() {
    let off = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    let mut since = off;
    assert_eq!(since.before_attempt(0), Pace::Send);
    let mut alone = since;
    assert_eq!(alone.before_attempt(100), Pace::Send); // bucket 0
                                                       // The fleet is at 2000 ms (bucket 8): bucket 0 fell out of its window long ago.
    let mut fleet = since;
    assert_eq!(fleet.before_attempt(2000), Pace::Send);
    let merged = fleet.with_alone(&since, &alone);
    let mut a = merged;
    let mut b = fleet;
    a.on_answer(2000, Answer::Throttled { hint_ms: 0 });
    b.on_answer(2000, Answer::Throttled { hint_ms: 0 });
    assert_eq!(a.rate_milli(), b.rate_milli());
}

#[test]
fn a_pacer_keeps_the_fleets_slots() {
    let since = Pacer::new(10, 10, 60, 7).unwrap();
    let mut alone = since.clone();
    let _ = alone.assign(0);
    let fleet = since.clone();
    assert_eq!(fleet.with_alone(&since, &alone).encode(), fleet.encode());
}
