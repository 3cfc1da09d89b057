//! Snapshot and restore: 40 bytes that carry a request's retry state across a restart (written to
//! a file here; RTC memory, `sessionStorage` or a database row elsewhere). The restored state
//! continues the very same schedule, and a snapshot taken under another policy is refused.

use std::fs;

use seeded_backoff::snapshot::SnapshotError;
use seeded_backoff::{Backoff, Policy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let policy = Policy::google();
    let path = std::env::temp_dir().join(format!("seeded-backoff-{}.snap", std::process::id()));

    // Before the restart: two retries, then save.
    let mut before = Backoff::new(&policy, 42);
    let first: Vec<_> = (0..2).map(|_| before.next_delay(&policy)).collect();
    fs::write(&path, before.snapshot(&policy))?;
    println!("delays before the restart: {first:?}");

    // After the restart: the same next delays as the state that was never interrupted.
    let bytes = fs::read(&path)?;
    fs::remove_file(&path)?;
    let mut after = Backoff::restore(&policy, &bytes)?;
    for _ in 0..3 {
        let (resumed, uninterrupted) = (after.next_delay(&policy), before.next_delay(&policy));
        println!("resumed {resumed:?}, uninterrupted {uninterrupted:?}");
        assert_eq!(resumed, uninterrupted);
    }

    // The snapshot names its policy: a changed policy refuses it instead of misreading it.
    let other = Policy::google_64s();
    assert_eq!(
        Backoff::restore(&other, &bytes),
        Err(SnapshotError::PolicyMismatch)
    );
    // One flipped bit is caught by the checksum.
    let mut damaged = bytes.clone();
    damaged[10] ^= 1;
    let err = Backoff::restore(&policy, &damaged).unwrap_err();
    println!("a damaged snapshot: {err}");
    assert_eq!(err, SnapshotError::BadChecksum);
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
