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
        seeded_backoff::budget::RetryBudget,
        seeded_backoff::send_rate::SendRate,
        seeded_backoff::pacer::Pacer,
        seeded_backoff::pacer::PacerSlot,
    )> = None;
    let _ = (
        seeded_backoff::classify_http,
        seeded_backoff::http::classify_grpc,
        seeded_backoff::http::is_retryable_http,
        seeded_backoff::ServerHint::from_headers::<core::iter::Empty<(&[u8], &[u8])>>,
        seeded_backoff::parse_retry_after,
        seeded_backoff::http::parse_rate_limit,
        seeded_backoff::snapshot::SNAPSHOT_SIZE,
        seeded_backoff::snapshot::RUN_SNAPSHOT_SIZE,
        seeded_backoff::fleet::seed_from_device,
    );
    // The shared parts need the `valkey` feature; their encoding does not.
    #[cfg(feature = "valkey")]
    let _shared: Option<(
        seeded_backoff::shared::SharedBudget,
        seeded_backoff::shared::SharedPacer,
        seeded_backoff::shared::SharedSendRate,
    )> = None;
    let _ = (
        <seeded_backoff::send_rate::SendRate as seeded_backoff::shared::SharedPart>::encode,
        <seeded_backoff::send_rate::SendRate as seeded_backoff::shared::SharedPart>::decode,
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

/// The crate root's public items, read from lib.rs as rustdoc lists them with every feature on:
/// each top-level `pub use` name, `pub mod` and `pub const`, and the exported macros. The root
/// holds what the README's examples and a request's everyday path use, so a name added to it is a
/// choice made here (BENCHMARKS.md's Surfaces table keeps the count).
#[test]
fn the_crate_root_is_the_everyday_set() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let lib = std::fs::read_to_string(format!("{src}/lib.rs")).unwrap();
    let mut names = Vec::new();
    // Top-level statements only: an inline module's own `pub use`s are indented.
    let mut statement = String::new();
    let mut hidden = false;
    for line in lib.lines() {
        // `#[doc(hidden)]` (the bindings' layer): not in the documented root.
        if line == "#[doc(hidden)]" {
            hidden = true;
            continue;
        }
        if !statement.is_empty() || line.starts_with("pub ") {
            statement.push_str(line.trim());
            statement.push(' ');
            if !(line.ends_with(';') || line.ends_with('{')) {
                continue;
            }
        }
        let s = std::mem::take(&mut statement);
        if std::mem::take(&mut hidden) {
            continue;
        }
        if let Some(rest) = s.strip_prefix("pub use ") {
            let list = rest.rsplit("::").next().unwrap();
            let list = list.trim_matches(|c: char| "{}; ".contains(c));
            names.extend(list.split(',').map(|n| n.trim().to_owned()));
        } else if let Some(rest) = s.strip_prefix("pub mod ") {
            names.push(
                rest.trim_end_matches(|c: char| "{}; ".contains(c))
                    .to_owned(),
            );
        } else if let Some(rest) = s.strip_prefix("pub const ") {
            names.push(rest.split(':').next().unwrap().to_owned());
        }
    }
    let policy = std::fs::read_to_string(format!("{src}/policy.rs")).unwrap();
    for (i, _) in policy.match_indices("#[macro_export]\nmacro_rules! ") {
        let rest = &policy[i + "#[macro_export]\nmacro_rules! ".len()..];
        names.push(rest.split(' ').next().unwrap().to_owned());
    }
    names.sort();
    let mut want = vec![
        // The policy, the backoff and its steps.
        "Policy",
        "PolicyBuilder",
        "Jitter",
        "const_policy",
        "Backoff",
        "Step",
        "StepInput",
        "GiveUpReason",
        "Schedule",
        // What every constructor that checks its arguments refuses with.
        "Invalid",
        // The server's hint and the classification of a response.
        "ServerHint",
        "parse_retry_after",
        "classify_http",
        "Classification",
        "Verdict",
        // The retry loops and the run.
        "Retry",
        "RetryError",
        "RetryEvent",
        "retry_async",
        "retry_blocking",
        "retry_tokio",
        "retry_reqwest",
        "ReqwestFailure",
        "Run",
        "Action",
        "Outcome",
        "FailureKind",
        "call_seed",
        "CallSeeds",
        "VERSION",
        // The modules of the concerns, and the integrations.
        "policy",
        "http",
        "budget",
        "send_rate",
        "pacer",
        "fleet",
        "reconnect",
        "snapshot",
        "run",
        "retry",
        "shared",
        "tower",
        "retry_policies",
    ];
    want.sort();
    assert_eq!(names, want);
    assert_eq!(names.len(), 43);
}
