//! A device's reconnect loop (SPEC.md §12.3): §5's delays without hint, clock or budget, and a
//! retry count that, under [`RETRY_FOREVER`], never ends the loop.

use crate::backoff::{GiveUpReason, Step};
use crate::error_enum::error_enum;
use crate::invalid::Invalid;
use crate::jitter::delay_and_next_level;
use crate::policy::Policy;
use crate::rng::SpecRng;
use crate::snapshot::SnapshotError;

/// `max_retries` for a loop that never stops trying: under it a [`Reconnect`] never gives up
/// (SPEC.md §12.3). A [`Backoff`](crate::Backoff) reads it as the count it is, 4294967295
/// retries, more than 4000 years of retries at a 32 s cap.
pub const RETRY_FOREVER: u32 = u32::MAX;

error_enum! {
    /// Why [`Reconnect::new`] refused a policy.
    pub enum ReconnectError {
        /// The policy has a time budget (`max_elapsed_ms > 0`), which a loop that keeps no
        /// clock and never ends has no use for.
        TimeBudget => "time_budget",
            "max_elapsed_ms must be 0 for a reconnect loop, which keeps no time budget";
    }
}

/// The state of a device's reconnect loop: the generator, the retry count and the level, 24 bytes.
/// The [`Policy`] stays outside (in flash, on a device) and is passed to every call; give every
/// call the policy given to [`Reconnect::new`].
///
/// ```
/// use seeded_backoff::fleet::seed_from_device;
/// use seeded_backoff::reconnect::{Reconnect, RETRY_FOREVER};
/// use seeded_backoff::{Policy, Step};
/// let policy = Policy::builder()
///     .max_backoff_ms(64_000)
///     .jitter(seeded_backoff::Jitter::Full)
///     .max_retries(RETRY_FOREVER)
///     .build()
///     .unwrap();
/// let mut r = Reconnect::new(&policy, seed_from_device(b"sensor-0042", 1)).unwrap();
/// for _ in 0..100 {
///     // connect() failed: wait, then try again
///     let Step::Retry { delay_ms, .. } = r.next_delay(&policy) else { unreachable!() };
///     assert!(delay_ms <= 64_000);
/// }
/// r.reset(&policy); // connected: the next outage starts from initial_ms
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconnect {
    rng: SpecRng,
    retries: u32,
    level: u32,
}

/// [`Reconnect`] as plain integers, for memory a binding owns (the C ABI's `sb_reconnect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawReconnect {
    /// The xoshiro128++ state words s0..s3.
    pub rng: [u32; 4],
    /// Retries issued since the start or the last reset.
    pub retries: u32,
    /// `base_n`, or the previous delay for decorrelated jitter.
    pub level: u32,
}

impl Reconnect {
    /// A loop's state under `policy`, its jitter seeded from `seed` (a device's, from
    /// [`seed_from_device`](crate::fleet::seed_from_device), so that devices draw apart); refused for a
    /// policy with a time budget.
    #[inline]
    pub fn new(policy: &Policy, seed: u64) -> Result<Reconnect, Invalid<ReconnectError>> {
        if policy.max_elapsed_ms() != 0 {
            return Err(Invalid::new(
                ReconnectError::TimeBudget,
                policy.max_elapsed_ms(),
            ));
        }
        Ok(Reconnect {
            rng: SpecRng::from_seed_u64(seed),
            retries: 0,
            level: policy.initial_ms(),
        })
    }

    /// The delay before the next connection attempt: §5's step without hint, clock or budget.
    /// Under `max_retries = RETRY_FOREVER` it never gives up and the count stops at
    /// `RETRY_FOREVER` (a delay depends on the level and the generator, never on the count);
    /// under a finite count it gives up with [`GiveUpReason::MaxRetries`] once that many retries
    /// were issued, changing nothing, until [`Reconnect::reset`].
    // Inlined: a binding that reads the policy from memory at every step keeps it in registers.
    #[inline(always)]
    pub fn next_delay(&mut self, policy: &Policy) -> Step {
        let (retry, max) = (self.retries, policy.max_retries());
        if retry >= max && max != RETRY_FOREVER {
            return Step::GiveUp(GiveUpReason::MaxRetries);
        }
        let (delay, level) = delay_and_next_level(policy, self.level, &mut self.rng);
        self.level = level;
        self.retries = retry.saturating_add(1);
        Step::Retry {
            delay_ms: delay,
            retry,
        }
    }

    /// Starts over after a connection: count 0, level `initial_ms`; the generator continues, so
    /// the next outage draws new delays.
    #[inline(always)]
    pub fn reset(&mut self, policy: &Policy) {
        self.retries = 0;
        self.level = policy.initial_ms();
    }

    /// Jumps to retry `n` (at most `max_retries`) without replaying it, as
    /// [`Backoff::fast_forward`](crate::Backoff::fast_forward) does (SPEC.md §4.3).
    pub fn fast_forward(&mut self, policy: &Policy, n: u32) {
        let n = n.min(policy.max_retries());
        self.retries = n;
        self.level = policy.base_delay_ms(n);
    }

    /// Retries issued since the start or the last reset (at most `RETRY_FOREVER`).
    pub const fn retries(&self) -> u32 {
        self.retries
    }

    /// The state as plain integers.
    #[inline(always)]
    pub fn to_raw(&self) -> RawReconnect {
        RawReconnect {
            rng: self.rng.words(),
            retries: self.retries,
            level: self.level,
        }
    }

    /// A state from [`Reconnect::to_raw`], checked against `policy` as a snapshot is (SPEC.md
    /// §9): an all-zero generator is [`SnapshotError::ZeroRngState`]; a count above
    /// `max_retries`, a level outside `initial_ms..=max_backoff_ms` or a policy with a time
    /// budget is [`SnapshotError::InvalidState`].
    #[inline(always)]
    pub fn from_raw(policy: &Policy, raw: RawReconnect) -> Result<Reconnect, SnapshotError> {
        let rng = SpecRng::from_words(raw.rng).ok_or(SnapshotError::ZeroRngState)?;
        let reachable = raw.retries <= policy.max_retries()
            && raw.level >= policy.initial_ms()
            && raw.level <= policy.max_backoff_ms()
            && policy.max_elapsed_ms() == 0;
        if !reachable {
            return Err(SnapshotError::InvalidState);
        }
        Ok(Reconnect {
            rng,
            retries: raw.retries,
            level: raw.level,
        })
    }
}
