//! A [`Run`]'s fields as plain integers, for bindings that keep it in memory they own (the C ABI's
//! `sb_run`, the wasm part's slots). Only [`Run::from_raw`] turns it back into a run, after
//! checking every field, so corrupted memory is an error and never a wrong schedule.

use super::{Phase, Run};
use crate::backoff::Backoff;
use crate::budget::FailureKind;
use crate::policy::Policy;
use crate::snapshot::{RawBackoff, SnapshotError};

/// A [`Run`] as integers (`#[repr(C)]`, 88 bytes, no padding).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RawRun {
    /// The seed of the re-drawn waits (SPEC.md §13).
    pub seed: u64,
    /// The clock reading of the first event.
    pub origin_ms: u64,
    /// The latest clock reading.
    pub now_ms: u64,
    /// Time spent paused.
    pub paused_ms: u64,
    /// When the pause in progress began.
    pub pause_since_ms: u64,
    /// The per-request state.
    pub backoff: RawBackoff,
    /// Attempts made.
    pub attempt: u32,
    /// Re-drawn waits so far.
    pub redraws: u32,
    /// The window of the next re-drawn wait.
    pub window_ms: u32,
    /// Phase code (SPEC.md §15): 0 ready, 1 attempting, 2 sleeping, 3 paused, 4 done, 5 gave up.
    pub phase: u8,
    /// 1 if the run reads a clock.
    pub clock: u8,
    /// 1 if paused time counts as elapsed.
    pub count_paused: u8,
    /// The kind of the last retry's failure: 0 none, 1 error, 2 timeout.
    pub retried: u8,
}

const _: () = assert!(core::mem::size_of::<RawRun>() == 88);

impl RawRun {
    /// The fields as 22 little-endian-ordered `u32` words (each `u64` low half first, the four
    /// byte fields packed into the last word), for bindings whose memory is an array of words
    /// (the wasm part's shared area, the C `sb_run`).
    ///
    /// ```
    /// use seeded_backoff::{Policy, RawRun, Run};
    /// let raw = Run::new(&Policy::google(), 3).to_raw();
    /// assert_eq!(RawRun::from_words(raw.to_words()), raw);
    /// ```
    pub fn to_words(&self) -> [u32; 22] {
        let split = |x: u64| [x as u32, (x >> 32) as u32];
        let [s0, s1] = split(self.seed);
        let [o0, o1] = split(self.origin_ms);
        let [n0, n1] = split(self.now_ms);
        let [p0, p1] = split(self.paused_ms);
        let [q0, q1] = split(self.pause_since_ms);
        let b = self.backoff;
        let flags = u32::from_le_bytes([self.phase, self.clock, self.count_paused, self.retried]);
        [
            s0,
            s1,
            o0,
            o1,
            n0,
            n1,
            p0,
            p1,
            q0,
            q1,
            b.rng[0],
            b.rng[1],
            b.rng[2],
            b.rng[3],
            b.retries,
            b.level,
            b.elapsed_ms,
            b.gave_up,
            self.attempt,
            self.redraws,
            self.window_ms,
            flags,
        ]
    }

    /// The fields from [`RawRun::to_words`]; any words make a `RawRun`, which
    /// [`Run::from_raw`] then checks.
    pub fn from_words(w: [u32; 22]) -> RawRun {
        let join = |lo: u32, hi: u32| u64::from(lo) | (u64::from(hi) << 32);
        let [phase, clock, count_paused, retried] = w[21].to_le_bytes();
        RawRun {
            seed: join(w[0], w[1]),
            origin_ms: join(w[2], w[3]),
            now_ms: join(w[4], w[5]),
            paused_ms: join(w[6], w[7]),
            pause_since_ms: join(w[8], w[9]),
            backoff: RawBackoff {
                rng: [w[10], w[11], w[12], w[13]],
                retries: w[14],
                level: w[15],
                elapsed_ms: w[16],
                gave_up: w[17],
            },
            attempt: w[18],
            redraws: w[19],
            window_ms: w[20],
            phase,
            clock,
            count_paused,
            retried,
        }
    }
}

const PHASES: [Phase; 6] = [
    Phase::Ready,
    Phase::Attempting,
    Phase::Sleeping,
    Phase::Paused,
    Phase::Done,
    Phase::GaveUp,
];

impl Run {
    /// The run as plain integers.
    pub fn to_raw(&self) -> RawRun {
        RawRun {
            seed: self.seed,
            origin_ms: self.origin_ms,
            now_ms: self.now_ms,
            paused_ms: self.paused_ms,
            pause_since_ms: self.pause_since_ms,
            backoff: self.backoff.to_raw(),
            attempt: self.attempt,
            redraws: self.redraws,
            window_ms: self.window_ms,
            phase: self.phase as u8,
            clock: u8::from(self.clock),
            count_paused: u8::from(self.count_paused),
            retried: self.retried.map_or(0, |kind| kind.code() + 1),
        }
    }

    /// Rebuilds a run from [`Run::to_raw`], checking the backoff as [`Backoff::from_raw`] does
    /// and every other field against its range ([`SnapshotError::InvalidState`]).
    ///
    /// ```
    /// use seeded_backoff::{Policy, Run};
    /// let p = Policy::google();
    /// let mut run = Run::new(&p, 9);
    /// run.start(Some(5)).unwrap();
    /// let raw = run.to_raw();
    /// assert_eq!(Run::from_raw(&p, raw), Ok(run));
    /// let mut bad = raw;
    /// bad.phase = 9;
    /// assert!(Run::from_raw(&p, bad).is_err());
    /// ```
    pub fn from_raw(policy: &Policy, raw: RawRun) -> Result<Run, SnapshotError> {
        let backoff = Backoff::from_raw(policy, raw.backoff)?;
        let phase = *PHASES
            .get(usize::from(raw.phase))
            .ok_or(SnapshotError::InvalidState)?;
        let retried = match raw.retried {
            0 => None,
            code => Some(FailureKind::from_code(code - 1).ok_or(SnapshotError::InvalidState)?),
        };
        let flag = |v: u8| match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(SnapshotError::InvalidState),
        };
        let window_ok = raw.window_ms <= crate::policy::MAX_DELAY_MS;
        if !window_ok || raw.now_ms < raw.origin_ms || raw.pause_since_ms > raw.now_ms {
            return Err(SnapshotError::InvalidState);
        }
        Ok(Run {
            backoff,
            seed: raw.seed,
            origin_ms: raw.origin_ms,
            now_ms: raw.now_ms,
            paused_ms: raw.paused_ms,
            pause_since_ms: raw.pause_since_ms,
            attempt: raw.attempt,
            redraws: raw.redraws,
            window_ms: raw.window_ms,
            phase,
            clock: flag(raw.clock)?,
            count_paused: flag(raw.count_paused)?,
            retried,
        })
    }
}
