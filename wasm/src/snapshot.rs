//! The snapshot part: 40-byte snapshots (SPEC.md §9) of a state held in JS, and 100-byte run
//! snapshots (§15) of a run held in JS.

use seeded_backoff::bindings::RawRun;
use seeded_backoff::snapshot::SnapshotError;
use seeded_backoff::{Backoff, Run};

use crate::io;
use crate::rt::io as shared;

/// The first `len` shared bytes: a snapshot JS wrote there.
fn given(io: &crate::rt::Io, len: u32) -> Result<&[u8], SnapshotError> {
    io.bytes
        .get(..len as usize)
        .ok_or(SnapshotError::WrongLength)
}

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
        io.state = Backoff::restore(&policy, given(io, len)?)?.to_raw();
        Ok(())
    }))
}

/// The run snapshot (SPEC.md §15) of the shared run words under the policy of the shared
/// options, into the first 100 shared bytes. Returns a status as [`snapshot_take`] does.
#[export_name = "runSnapshotTake"]
pub extern "C" fn run_snapshot_take() -> u32 {
    io::snapshot_status(shared(|io| {
        let policy = io::policy(&io.options).map_err(|_| SnapshotError::PolicyMismatch)?;
        let run = Run::from_raw(&policy, RawRun::from_words(io.run))?;
        for (b, s) in io.bytes.iter_mut().zip(run.snapshot(&policy)) {
            *b = s;
        }
        Ok(())
    }))
}

/// The run restored from the first `len` shared bytes under the policy of the shared options,
/// written to the shared run words. Returns a status as [`snapshot_take`] does.
#[export_name = "runSnapshotRestore"]
pub extern "C" fn run_snapshot_restore(len: u32) -> u32 {
    io::snapshot_status(shared(|io| {
        let policy = io::policy(&io.options).map_err(|_| SnapshotError::PolicyMismatch)?;
        io.run = Run::restore(&policy, given(io, len)?)?.to_raw().to_words();
        Ok(())
    }))
}
