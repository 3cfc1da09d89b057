//! The snapshot part: 40-byte snapshots (SPEC.md §9) of a state held in JS.

use seeded_backoff::{Backoff, SnapshotError};

use crate::io;
use crate::rt::io as shared;

/// The snapshot of the shared state under the policy of the shared options, into the first 40
/// shared bytes. Returns 0, or 1 + the index of the core's `SnapshotError`.
#[export_name = "snapshotTake"]
pub extern "C" fn snapshot_take() -> u32 {
    io::snapshot_status(shared(|io| {
        let policy = io::policy(&io.options).map_err(|_| SnapshotError::PolicyMismatch)?;
        let state = io::state(io, &policy)?;
        for (b, s) in io.bytes.iter_mut().zip(state.snapshot(&policy)) {
            *b = s;
        }
        Ok(())
    }))
}

/// The state restored from the first `len` shared bytes under the policy of the shared options,
/// written to the shared state. Returns a status as [`snapshot_take`] does.
#[export_name = "snapshotRestore"]
pub extern "C" fn snapshot_restore(len: u32) -> u32 {
    io::snapshot_status(shared(|io| {
        let policy = io::policy(&io.options).map_err(|_| SnapshotError::PolicyMismatch)?;
        let bytes = io
            .bytes
            .get(..len as usize)
            .ok_or(SnapshotError::WrongLength)?;
        io.state = Backoff::restore(&policy, bytes)?.to_raw();
        Ok(())
    }))
}
