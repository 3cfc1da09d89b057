//! The Rust column of SPEC.md §18's table of public names is the crate's: each name is used here
//! as written (a path, a field pattern), so a rename breaks the build, and the list used is
//! compared with the table.

use seeded_backoff::{FailureKind, Outcome};
use seeded_backoff_test_support::spec_table_column;

#[test]
fn the_rust_column_of_the_names_table_is_the_crates() {
    // Each name as written: this does not compile if one is renamed.
    let _types: Option<(
        seeded_backoff::Policy,
        seeded_backoff::Backoff,
        seeded_backoff::Run,
        seeded_backoff::RetryBudget,
        seeded_backoff::SendRate,
        seeded_backoff::Pacer,
        seeded_backoff::PacerSlot,
    )> = None;
    let _ = (
        seeded_backoff::classify_http,
        seeded_backoff::classify_grpc,
        seeded_backoff::is_retryable_http,
        seeded_backoff::ServerHint::from_headers::<core::iter::Empty<(&[u8], &[u8])>>,
        seeded_backoff::parse_retry_after,
        seeded_backoff::parse_rate_limit,
        seeded_backoff::SNAPSHOT_SIZE,
        seeded_backoff::RUN_SNAPSHOT_SIZE,
        seeded_backoff::seed_from_device,
    );
    // The shared parts need the `valkey` feature; their encoding does not.
    #[cfg(feature = "valkey")]
    let _shared: Option<(
        seeded_backoff::shared::SharedBudget,
        seeded_backoff::shared::SharedPacer,
        seeded_backoff::shared::SharedSendRate,
    )> = None;
    let _ = (
        <seeded_backoff::SendRate as seeded_backoff::shared::SharedPart>::encode,
        <seeded_backoff::SendRate as seeded_backoff::shared::SharedPart>::decode,
        seeded_backoff::shared::CAS_SCRIPT,
    );
    let _failure_kind = |o: Outcome| match o {
        Outcome::Retryable { failure_kind, .. } => failure_kind,
        _ => FailureKind::Error,
    };
    let used: Vec<(&str, Vec<&str>)> = vec![
        ("retry policy (§2)", vec!["Policy"]),
        ("a request's backoff state (§4)", vec!["Backoff"]),
        ("one call's run (§15)", vec!["Run"]),
        ("retry budget (§10)", vec!["RetryBudget"]),
        ("send rate (§17)", vec!["SendRate"]),
        ("server pacer (§16)", vec!["Pacer"]),
        ("a pacer's answer (§16.2)", vec!["PacerSlot"]),
        ("classify an HTTP status (§7)", vec!["classify_http"]),
        ("classify a gRPC code (§7)", vec!["classify_grpc"]),
        (
            "an HTTP status is worth a retry (§7)",
            vec!["is_retryable_http"],
        ),
        (
            "a hint from a response's headers (§8.3)",
            vec!["ServerHint::from_headers"],
        ),
        (
            "parse a `Retry-After` value (§8.1)",
            vec!["parse_retry_after"],
        ),
        ("parse a rate-limit header (§8.3)", vec!["parse_rate_limit"]),
        ("a snapshot's size in bytes (§9)", vec!["SNAPSHOT_SIZE"]),
        (
            "a run snapshot's size in bytes (§15)",
            vec!["RUN_SNAPSHOT_SIZE"],
        ),
        ("a seed from a device id (§12.1)", vec!["seed_from_device"]),
        (
            "a retryable outcome's failure kind (§15)",
            vec!["failure_kind"],
        ),
        (
            "a retry budget shared through a store (§19)",
            vec!["shared::SharedBudget"],
        ),
        (
            "a pacer shared through a store (§19)",
            vec!["shared::SharedPacer"],
        ),
        (
            "a send rate shared through a store (§19)",
            vec!["shared::SharedSendRate"],
        ),
        (
            "a part's value in a store (§19.2)",
            vec!["shared::SharedPart::encode", "shared::SharedPart::decode"],
        ),
        (
            "the compare-and-set script (§19.4)",
            vec!["shared::CAS_SCRIPT"],
        ),
    ];
    let table = spec_table_column("18", "Rust");
    let want: Vec<(&str, Vec<&str>)> = table
        .iter()
        .map(|(c, n)| (c.as_str(), n.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(want, used);
}
