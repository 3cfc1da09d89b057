//! The step's rules exactly at their boundaries (SPEC.md §5), hand-derived with jitter `none` so
//! every delay is the level: a delay equal to the time left is still given, one more is not.

use seeded_backoff::policy::DeadlineMode;
use seeded_backoff::{GiveUpReason, Jitter, Policy, Step, StepInput};

fn policy(max_elapsed_ms: u32, deadline: DeadlineMode) -> Policy {
    Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .max_elapsed_ms(max_elapsed_ms)
        .deadline(deadline)
        .build()
        .unwrap()
}

fn at(elapsed_ms: u64) -> StepInput<'static> {
    StepInput {
        elapsed_ms: Some(elapsed_ms),
        ..StepInput::default()
    }
}

const fn retry(delay_ms: u32, retry: u32) -> Step {
    Step::Retry { delay_ms, retry }
}

const DEADLINE: Step = Step::GiveUp(GiveUpReason::Deadline);

#[test]
fn give_up_mode_gives_a_delay_equal_to_the_time_left() {
    // §5 step 7: give up only if d > remaining. Delays 1000, 2000 fill 3000 ms exactly.
    let p = policy(3000, DeadlineMode::GiveUp);
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay(&p), retry(1000, 0));
    assert_eq!(b.next_delay(&p), retry(2000, 1));
    assert_eq!(b.elapsed_ms(), 3000);
    assert_eq!(b.next_delay(&p), DEADLINE);
    // The same through the caller's clock: 1000 ms left, the first delay is 1000.
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay_with(&p, at(2000)), retry(1000, 0));
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay_with(&p, at(2001)), DEADLINE);
    assert_eq!(b.retries(), 0);
}

#[test]
fn give_up_mode_with_the_plain_step_crosses_by_one_millisecond() {
    let p = policy(2999, DeadlineMode::GiveUp);
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay(&p), retry(1000, 0));
    assert_eq!(b.next_delay(&p), DEADLINE);
    assert_eq!(b.elapsed_ms(), 1000);
}

#[test]
fn clamp_mode_clamps_to_the_time_left_and_gives_up_at_zero() {
    // §5 step 7, clamp: give up only if remaining == 0; else d = min(d, remaining).
    let p = policy(1500, DeadlineMode::Clamp);
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay(&p), retry(1000, 0));
    assert_eq!(b.next_delay(&p), retry(500, 1));
    assert_eq!(b.next_delay(&p), DEADLINE);
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay_with(&p, at(1499)), retry(1, 0));
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay_with(&p, at(1500)), DEADLINE);
}

#[test]
fn no_time_budget_ignores_any_clock() {
    let p = policy(0, DeadlineMode::GiveUp);
    let mut b = seeded_backoff::Backoff::new(&p, 1);
    assert_eq!(b.next_delay_with(&p, at(u64::MAX)), retry(1000, 0));
    assert_eq!(b.elapsed_ms(), u32::MAX);
}

#[test]
fn grpc_pushback_reports_empty_and_negative_before_the_format() {
    use seeded_backoff::http::{parse_grpc_pushback, ParseError};
    // SPEC.md §8.2, after stripping spaces and tabs: empty, then a leading '-', then digits.
    assert_eq!(parse_grpc_pushback(b""), Err(ParseError::Empty));
    assert_eq!(parse_grpc_pushback(b" \t "), Err(ParseError::Empty));
    assert_eq!(parse_grpc_pushback(b"-1"), Err(ParseError::Negative));
    assert_eq!(parse_grpc_pushback(b" -soon"), Err(ParseError::Negative));
    assert_eq!(parse_grpc_pushback(b"1-"), Err(ParseError::InvalidFormat));
    assert_eq!(parse_grpc_pushback(b" 250\t"), Ok(250));
}

#[test]
fn equal_jitter_spans_half_the_level_to_the_level() {
    // §4.2: equal is L/2 + uniform(L - L/2), so its bounds are [L/2, L] (L/2 rounding down).
    let p = Policy::google()
        .to_builder()
        .jitter(Jitter::Equal)
        .build()
        .unwrap();
    assert_eq!(seeded_backoff::policy::jitter_bounds(&p, 1000), (500, 1000));
    assert_eq!(seeded_backoff::policy::jitter_bounds(&p, 1001), (500, 1001));
    assert_eq!(
        seeded_backoff::policy::jitter_bounds(&p, 64_000),
        (32_000, 32_000)
    );
}

#[test]
fn a_backslash_escapes_only_inside_quotes_and_a_dictionary_members_other_pieces_are_ignored() {
    use seeded_backoff::http::{parse_rate_limit, RateLimitHeader::RateLimit};
    // SPEC.md §8.3 step 3. Outside quotes `\` is an ordinary byte: `;` still ends the piece, so
    // the quota `x\` resets in 5 s.
    assert_eq!(parse_rate_limit(RateLimit, b"x\\;t=5", 0), Ok(5000));
    // Inside quotes it escapes the quote: the name is `a"b`, the quota resets in 6 s.
    assert_eq!(parse_rate_limit(RateLimit, b"\"a\\\"b\";t=6", 0), Ok(6000));
    // A member whose first piece is a pair gives that one key; `t=30` after it is ignored.
    assert_eq!(parse_rate_limit(RateLimit, b"reset=7;t=30", 0), Ok(7000));
    assert_eq!(
        parse_rate_limit(RateLimit, b"limit=1;reset=30, reset=7", 0),
        Ok(7000)
    );
}
