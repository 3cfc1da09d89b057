//! The hint-limit vectors of SPEC.md §2 and §5 step 4: a server wait up to `max_hint_ms` is
//! honoured, one beyond it gives up with `hint_exceeds_max` (never back before the server allows),
//! for `Retry-After`, paced and rate-limit hints, at the limit's edges and with the one default.

use seeded_backoff::{
    policy::{DEFAULT_MAX_HINT_MS, MAX_DELAY_MS},
    Policy, PolicyBuilder,
};

/// Schedules at the hint limit: (file stem, description, policy, ops).
pub fn schedule_specs() -> Vec<(&'static str, &'static str, Policy, Vec<String>)> {
    let ops = |list: &str| list.split_whitespace().map(String::from).collect();
    let build = |b: PolicyBuilder| b.build().expect("vector policies are valid");
    let at = DEFAULT_MAX_HINT_MS;
    let over = DEFAULT_MAX_HINT_MS + 1;
    vec![
        (
            "schedule-hint-limit-default",
            "the default max_hint_ms (300 s, whatever the cap): a wait up to it is honoured, one beyond gives up",
            build(Policy::google().to_builder().max_backoff_ms(1_000)),
            ops(&format!(
                "h2000 h120000 h{at} h{over} n r l{at} l{over} r n x r h0 l0 n"
            )),
        ),
        (
            "schedule-hint-limit-edges",
            "max_hint_ms 20 s: 20000 is honoured, 20001 gives up (Retry-After and rate limit); the give-up is sticky until reset",
            build(Policy::builder().max_hint_ms(20_000)),
            ops("h20000 h20001 h0 s r l20000 l20001 r n l19999 h4294967295 s r n"),
        ),
        (
            "schedule-hint-limit-paced",
            "paced, max_hint_ms 20 s: the wait itself up to the limit, a give-up beyond",
            build(Policy::builder().max_hint_ms(20_000).paced(true)),
            ops("h0 h20000 h20001 r h19999 n"),
        ),
        (
            "schedule-hint-limit-zero",
            "max_hint_ms 0: only a zero wait is honoured",
            build(Policy::builder().max_hint_ms(0)),
            ops("h0 l0 n h1 r l1 r n"),
        ),
        (
            "schedule-hint-limit-max",
            "max_hint_ms 2^31-1: every representable wait is honoured; beyond it gives up",
            build(
                Policy::builder()
                    .max_retries(4)
                    .max_hint_ms(MAX_DELAY_MS),
            ),
            ops("h2147483647 l2147483647 h2147483648 r l4294967295 r n"),
        ),
    ]
}
