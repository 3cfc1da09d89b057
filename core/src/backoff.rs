//! The per-request state machine (SPEC.md §4–§5): 32 bytes, the policy kept outside it.

use core::fmt;

use crate::budget::{FailureKind, RetryGate};
use crate::coded_enum::coded_enum;
use crate::hint::ServerHint;
use crate::jitter::delay_and_next_level;
use crate::policy::{grow_by_integer, DeadlineMode, Jitter, Policy, MAX_DELAY_MS};
use crate::rng::SpecRng;

coded_enum! {
    /// Why a [`Backoff`] stopped retrying. Once given up, it answers the same reason until
    /// [`Backoff::reset`]. The codes start at 1 (SPEC.md §5): 0 means "not given up" in snapshots
    /// and the C ABI.
    #[non_exhaustive]
    pub enum GiveUpReason {
        /// `max_retries` retries were already issued.
        MaxRetries = 1, "max_retries";
        /// The next delay would cross the policy's time budget (`max_elapsed_ms`).
        Deadline = 2, "deadline";
        /// The shared [`RetryBudget`](crate::budget::RetryBudget) refused another retry.
        Budget = 3, "budget";
        /// The server said not to retry (e.g. a negative gRPC pushback).
        ServerStop = 4, "server_stop";
        /// The server asked for a wait longer than the policy's `max_hint_ms`: coming back
        /// earlier would be refused again, and waiting longer is more than the caller allows.
        HintExceedsMax = 5, "hint_exceeds_max";
        /// The run's send rate refused the attempt (fail-fast, SPEC.md §15.2): never a step's
        /// answer, so no backoff state holds it.
        Throttled = 6, "throttled";
    }
}

impl fmt::Display for GiveUpReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The answer to "the last attempt failed: what now?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Wait `delay_ms`, then make retry number `retry` (0-based: the `n` of `2^n` in Google's formula).
    Retry {
        /// How long to wait, in milliseconds.
        delay_ms: u32,
        /// The retry's index, 0 for the first retry.
        retry: u32,
    },
    /// Stop and report the error to the caller.
    GiveUp(GiveUpReason),
}

impl Step {
    /// The delay, or `None` when giving up.
    pub const fn delay_ms(self) -> Option<u32> {
        match self {
            Step::Retry { delay_ms, .. } => Some(delay_ms),
            Step::GiveUp(_) => None,
        }
    }
}

/// Everything one step can be told besides the policy (SPEC.md §5). `Default` is a plain step;
/// the builder methods add one input each.
///
/// ```
/// use seeded_backoff::{ServerHint, StepInput};
/// let input = StepInput::default().hint(ServerHint::RetryAfterMs(5_000)).elapsed_ms(1_200);
/// assert_eq!(input.elapsed_ms, Some(1_200));
/// ```
#[derive(Clone, Copy, Default)]
pub struct StepInput<'b> {
    /// The server's hint, if any.
    pub hint: Option<ServerHint>,
    /// Milliseconds since the first attempt by the caller's monotonic clock; without it the sum of
    /// issued delays stands in.
    pub elapsed_ms: Option<u64>,
    /// A shared retry budget and the kind of failure that prompted this step.
    pub budget: Option<(&'b dyn RetryGate, FailureKind)>,
}

impl<'b> StepInput<'b> {
    /// With the server's hint.
    pub const fn hint(mut self, hint: ServerHint) -> Self {
        self.hint = Some(hint);
        self
    }

    /// With the caller's clock: `ms` since the first attempt.
    pub const fn elapsed_ms(mut self, ms: u64) -> Self {
        self.elapsed_ms = Some(ms);
        self
    }

    /// With a shared budget, charged for a failure of kind `kind`.
    pub const fn budget(mut self, budget: &'b dyn RetryGate, kind: FailureKind) -> Self {
        self.budget = Some((budget, kind));
        self
    }
}

/// The state of one request's retries: 32 bytes on every target, no policy inside. It is `Clone`
/// but deliberately not `Copy`: a silent copy would replay the same jitter.
///
/// The [`Policy`] is shared and passed to each call, which keeps this state small enough to hold
/// one per in-flight request, or to snapshot into 40 bytes of RTC memory. For an iterator of
/// the delays see [`Schedule`](crate::Schedule).
///
/// ```
/// use seeded_backoff::{Backoff, GiveUpReason, Policy, Step};
///
/// let policy = Policy::builder().max_retries(3).build().unwrap();
/// let mut backoff = Backoff::new(&policy, 7);
/// let mut waited = 0;
/// loop {
///     match backoff.next_delay(&policy) {
///         Step::Retry { delay_ms, .. } => waited += delay_ms, // sleep, then try again
///         Step::GiveUp(reason) => {
///             assert_eq!(reason, GiveUpReason::MaxRetries);
///             break;
///         }
///     }
/// }
/// assert_eq!(backoff.retries(), 3);
/// assert!((7_000..=10_000).contains(&waited));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    rng: SpecRng,
    retries: u32,
    level: u32,
    elapsed_ms: u32,
    gave_up: Option<GiveUpReason>,
}

impl Backoff {
    /// A fresh state for one request, its jitter seeded from `seed` (SPEC.md §3.1).
    ///
    /// Use a different seed per client (a device id, a random number): equal seeds give equal
    /// schedules, which is the point for tests and the opposite of what jitter is for in production.
    #[inline]
    pub fn new(policy: &Policy, seed: u64) -> Backoff {
        Backoff {
            rng: SpecRng::from_seed_u64(seed),
            retries: 0,
            level: policy.initial_ms(),
            elapsed_ms: 0,
            gave_up: None,
        }
    }

    /// A state from its parts, for the snapshot code, which has validated them against the policy.
    pub(crate) const fn from_parts(
        rng: SpecRng,
        retries: u32,
        level: u32,
        elapsed_ms: u32,
        gave_up: Option<GiveUpReason>,
    ) -> Backoff {
        Backoff {
            rng,
            retries,
            level,
            elapsed_ms,
            gave_up,
        }
    }

    /// The random generator's state, for the snapshot code.
    pub(crate) const fn rng(&self) -> &SpecRng {
        &self.rng
    }

    /// `base_n` (or the previous delay, for decorrelated jitter), for the snapshot code.
    pub(crate) const fn level(&self) -> u32 {
        self.level
    }

    /// The delay before the next retry, or the reason to give up.
    // Always inlined, so a caller's loop sees the absent hint, clock and budget as constants and
    // keeps the state in registers; `#[inline]` alone is dropped by LLVM as soon as a program calls
    // this from two places (99 instead of 57 instructions per Google delay, lab/RESULTS.md). The
    // measured cost: 0 B for a Google-only firmware and for the npm wasm, 176 B for the whole
    // API on thumbv6m; a firmware stepping from two places shrinks (2 650 B to 734 B). This is
    // SPEC.md §5 without a hint, clock or budget: the give-up checks in their order, then, unless a
    // time budget needs the general step's bookkeeping, the draw. The general step is reached only
    // through a by-value call, so the state can live in registers across a caller's loop and a
    // policy without a time budget (a const one, in firmware) links none of it. Google's jitter
    // with a whole-number multiplier (the reference) is written out beside the strategy dispatch:
    // one test a caller's loop hoists, instead of a jump table and the rational growth rule on
    // every delay (56 to 41 instructions per Google delay in the two-call-site program; the other strategies do not get slower).
    #[inline(always)]
    pub fn next_delay(&mut self, policy: &Policy) -> Step {
        if let Some(reason) = self.gave_up {
            return Step::GiveUp(reason);
        }
        if self.retries >= policy.max_retries() {
            return self.give_up(GiveUpReason::MaxRetries);
        }
        if policy.max_elapsed_ms() != 0 {
            let (state, step) = Self::next_delay_timed(self.clone(), policy);
            *self = state;
            return step;
        }
        let (delay, level) = match (policy.jitter(), policy.integer_multiplier()) {
            (Jitter::Google { jitter_ms }, Some(num)) => {
                let (level, cap) = (self.level, policy.max_backoff_ms());
                // jitter_ms is at most the cap, so `uniform(jitter_ms)` is the draw below
                // `jitter_ms + 1` (the `min` states the bound where the optimiser sees it and
                // hoists it out of a caller's loop). level and jitter_ms are at most
                // MAX_DELAY_MS: the sum cannot wrap.
                let draw = self.rng.uniform_below(jitter_ms.min(MAX_DELAY_MS) + 1);
                let delay = level.wrapping_add(draw).min(cap);
                (delay, grow_by_integer(level, num, cap))
            }
            _ => delay_and_next_level(policy, self.level, &mut self.rng),
        };
        let retry = self.retries;
        self.level = level;
        self.elapsed_ms = self.elapsed_ms.saturating_add(delay);
        self.retries = retry.wrapping_add(1); // retry < max_retries ≤ u32::MAX
        Step::Retry {
            delay_ms: delay,
            retry,
        }
    }

    /// The general step for a policy with a time budget, by value (see `next_delay`).
    #[cold]
    #[inline(never)]
    fn next_delay_timed(mut state: Backoff, policy: &Policy) -> (Backoff, Step) {
        let step = state.next_delay_with(policy, StepInput::default());
        (state, step)
    }

    /// The general step of SPEC.md §5, with any combination of a server hint, the caller's clock
    /// and a shared budget.
    ///
    /// A `Retry-After` hint is a lower bound, or with [`Policy::paced`] the delay itself, and
    /// takes no random draw; a rate-limit reset takes one, for its upward jitter (SPEC.md §5
    /// step 6); `DoNotRetry` gives up with [`GiveUpReason::ServerStop`], and a hint beyond the
    /// policy's `max_hint_ms` with [`GiveUpReason::HintExceedsMax`] (never back before the server
    /// allows). Neither hint changes the level, so later delays grow
    /// as without it. `elapsed_ms` is the caller's monotonic clock since the first attempt, so
    /// time spent in the requests counts against `max_elapsed_ms`. A budget records the failure,
    /// and gives up with [`GiveUpReason::Budget`] when it refuses the retry.
    ///
    /// ```
    /// use seeded_backoff::budget::RetryBudget;
    /// use seeded_backoff::{Backoff, FailureKind, Policy, ServerHint, Step, StepInput};
    /// let p = Policy::google();
    /// let mut b = Backoff::new(&p, 1);
    /// let hint = |h| StepInput::default().hint(h);
    /// let step = b.next_delay_with(&p, hint(ServerHint::RetryAfterMs(20_000)));
    /// assert_eq!(step, Step::Retry { delay_ms: 20_000, retry: 0 });
    /// // The quota resets in 20 s: wait 20 s plus up to 1 s + 10 % (3 s).
    /// let step = b.next_delay_with(&p, hint(ServerHint::RateLimitResetMs(20_000)));
    /// assert!(matches!(step, Step::Retry { delay_ms: 20_000..=23_000, retry: 1 }));
    ///
    /// let budget = RetryBudget::grpc(10, 100).unwrap();
    /// let input = StepInput::default().budget(&budget, FailureKind::Error);
    /// assert!(matches!(b.next_delay_with(&p, input), Step::Retry { retry: 2, .. }));
    /// assert_eq!(budget.tokens_milli(), 9_000);
    ///
    /// // Told to come back in an hour, beyond the policy's 5-minute limit: give up, not return early.
    /// let step = b.next_delay_with(&p, hint(ServerHint::RetryAfterMs(3_600_000)));
    /// assert_eq!(step, Step::GiveUp(seeded_backoff::GiveUpReason::HintExceedsMax));
    /// ```
    #[inline]
    pub fn next_delay_with(&mut self, policy: &Policy, input: StepInput<'_>) -> Step {
        if let Some(reason) = self.gave_up {
            return Step::GiveUp(reason);
        }
        if let Some((budget, kind)) = input.budget {
            budget.record_failure(kind);
        }
        if input.hint == Some(ServerHint::DoNotRetry) {
            return self.give_up(GiveUpReason::ServerStop);
        }
        if self.retries >= policy.max_retries() {
            return self.give_up(GiveUpReason::MaxRetries);
        }
        // Never back before the server allows: a wait beyond the caller's limit gives up rather
        // than return early (SPEC.md §5 step 4).
        if let Some(ServerHint::RetryAfterMs(hint_ms) | ServerHint::RateLimitResetMs(hint_ms)) =
            input.hint
        {
            if hint_ms > policy.max_hint_ms() {
                return self.give_up(GiveUpReason::HintExceedsMax);
            }
        }
        let mut rng = self.rng.clone();
        let (mut delay, level) = delay_and_next_level(policy, self.level, &mut rng);
        match input.hint {
            // A paced server's `Retry-After` is the client's own return time (SPEC.md §16): the
            // wait itself, not a floor under the client's backoff.
            Some(ServerHint::RetryAfterMs(hint_ms)) if policy.paced() => delay = hint_ms,
            Some(ServerHint::RetryAfterMs(hint_ms)) => delay = delay.max(hint_ms),
            Some(ServerHint::RateLimitResetMs(hint_ms)) => {
                // Upward jitter: clients told the same reset time spread over the 1 s + 10 % after
                // it instead of returning at that instant; never earlier than the reset.
                let spread = rng.uniform(1000 + hint_ms / 10);
                delay = delay.max(hint_ms.saturating_add(spread).min(MAX_DELAY_MS));
            }
            _ => {}
        }
        let elapsed = match input.elapsed_ms {
            Some(ms) => u32::try_from(ms).unwrap_or(u32::MAX),
            None => self.elapsed_ms,
        };
        if policy.max_elapsed_ms() > 0 {
            let remaining = policy.max_elapsed_ms().saturating_sub(elapsed);
            match policy.deadline() {
                DeadlineMode::GiveUp if delay > remaining => {
                    return self.give_up(GiveUpReason::Deadline)
                }
                DeadlineMode::Clamp if remaining == 0 => {
                    return self.give_up(GiveUpReason::Deadline)
                }
                DeadlineMode::Clamp => delay = delay.min(remaining),
                DeadlineMode::GiveUp => {}
            }
        }
        if let Some((budget, kind)) = input.budget {
            if !budget.try_acquire(kind) {
                return self.give_up(GiveUpReason::Budget);
            }
        }
        let retry = self.retries;
        self.rng = rng;
        self.level = level;
        self.elapsed_ms = elapsed.saturating_add(delay);
        self.retries = retry.saturating_add(1);
        Step::Retry {
            delay_ms: delay,
            retry,
        }
    }

    fn give_up(&mut self, reason: GiveUpReason) -> Step {
        self.gave_up = Some(reason);
        Step::GiveUp(reason)
    }

    /// Starts over after a success: retry count, level and elapsed time return to zero. The random
    /// stream continues, so the next failure streak draws new jitter instead of replaying the last.
    pub fn reset(&mut self, policy: &Policy) {
        self.retries = 0;
        self.level = policy.initial_ms();
        self.elapsed_ms = 0;
        self.gave_up = None;
    }

    /// Retries issued since creation or the last reset.
    pub const fn retries(&self) -> u32 {
        self.retries
    }

    /// The reason this state gave up, if it has.
    pub const fn gave_up(&self) -> Option<GiveUpReason> {
        self.gave_up
    }

    /// The sum of issued delays (or the last caller-given elapsed plus its delay), saturating.
    pub const fn elapsed_ms(&self) -> u32 {
        self.elapsed_ms
    }

    /// Jumps to retry `n` (at most `max_retries`) without replaying it (SPEC.md §4.3): `retries = n`
    /// and the level becomes
    /// the policy's `base_n`. The random stream is untouched. For decorrelated jitter the level is an
    /// envelope, not the replayed previous delay. Use it to test deep retry numbers.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy, Step};
    /// let p = Policy::google().to_builder().max_retries(u32::MAX).build().unwrap();
    /// let mut b = Backoff::new(&p, 5);
    /// b.fast_forward(&p, u32::MAX - 1);
    /// assert!(matches!(b.next_delay(&p), Step::Retry { delay_ms: 32_000, retry } if retry == u32::MAX - 1));
    /// assert!(matches!(b.next_delay(&p), Step::GiveUp(_)));
    /// ```
    pub fn fast_forward(&mut self, policy: &Policy, n: u32) {
        // Clamped so the state stays one the policy can reach (and snapshots of it restore).
        let n = n.min(policy.max_retries());
        self.retries = n;
        self.level = policy.base_delay_ms(n);
    }
}
