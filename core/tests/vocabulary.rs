//! The Rust column of SPEC.md §14's table is the crate's names: each name the table gives is used
//! here by name (a field pattern, a method call), so a rename breaks the build, and the list of
//! names used is compared with the table.

use seeded_backoff::{Backoff, Policy, Retry, RetryError, RetryEvent};
use seeded_backoff_test_support::spec_table_column;

#[test]
fn the_rust_column_of_the_spec_table_is_the_crates_names() {
    // Each name below is used as written: the closure does not compile if one is renamed.
    let _uses = |event: RetryEvent<'_, u8>, error: RetryError<u8>, b: Backoff, p: &Policy| {
        let RetryEvent {
            attempt,
            delay_ms,
            error: failed,
        } = event;
        let RetryError {
            cause,
            attempts,
            reason,
        } = error;
        let retries = b.retries();
        let _ = Retry::new(p, 0).on_retry(|_: RetryEvent<'_, u8>| {});
        let _ = seeded_backoff::call_seed(0, 1);
        let _ = seeded_backoff::CallSeeds::new(0);
        (attempt, delay_ms, *failed, cause, attempts, reason, retries)
    };
    let want: Vec<(&str, Vec<&str>)> = vec![
        ("retry callback", vec!["on_retry"]),
        ("callback payload", vec!["RetryEvent"]),
        ("attempt that just failed, from 1", vec!["attempt"]),
        ("delay before the next attempt, ms", vec!["delay_ms"]),
        ("the failed attempt's error", vec!["error"]),
        ("give-up error", vec!["RetryError"]),
        ("last error of a give-up", vec!["cause"]),
        ("attempts made", vec!["attempts"]),
        ("give-up reason", vec!["reason"]),
        ("retries issued so far", vec!["retries"]),
        (
            "the seed of call i of a loop (rule above)",
            vec!["call_seed", "CallSeeds"],
        ),
    ];
    let got = spec_table_column("14", "Rust");
    let got: Vec<(&str, Vec<&str>)> = got
        .iter()
        .map(|(c, n)| (c.as_str(), n.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn attempts_count_from_1_in_the_operation_and_the_callback() {
    let policy = Policy::google()
        .to_builder()
        .max_retries(1)
        .build()
        .unwrap();
    let mut told = Vec::new();
    let result = Retry::new(&policy, 42)
        .on_retry(|e: RetryEvent<'_, u32>| told.push((e.attempt, *e.error)))
        .run_blocking(|_| {}, Err::<(), u32>, |_| true);
    // Attempt 1 is retried; attempt 2 gives up (max_retries 1): the operation saw 1 and 2.
    assert_eq!(told, [(1, 1)]);
    let e = result.unwrap_err();
    assert_eq!((e.cause, e.attempts), (2, 2));
}
