//! The shared, immutable retry policy: validated once, used by every request.

use crate::error_enum::error_enum;
use crate::invalid::Invalid;

/// The largest delay any policy can produce, in milliseconds (2^31 − 1, about 24.8 days).
///
/// JavaScript's `setTimeout` fires at once for larger values, and keeping every delay below 2^31
/// lets every sum in the algorithm fit a `u32` without saturating.
pub const MAX_DELAY_MS: u32 = 2_147_483_647;

/// The default `max_hint_ms` of every policy, preset and builder, in ms: five minutes.
///
/// Long enough for the waits servers commonly ask (a minute's quota window, a restart's
/// `Retry-After: 120`); a server that asks for longer makes the step give up with
/// [`GiveUpReason::HintExceedsMax`](crate::GiveUpReason::HintExceedsMax), so the caller hears of
/// it instead of holding the call for an hour. It does not follow `max_backoff_ms`: the cap bounds
/// the client's own backoff, the hint limit how long it lets a server hold it.
pub const DEFAULT_MAX_HINT_MS: u32 = 300_000;

/// The largest multiplier denominator: three decimal places (gRPC's 1.6 is 8/5).
pub const MAX_MULTIPLIER_DEN: u32 = 1000;

/// The largest multiplier, `num / den ≤ 1000`. It bounds the work of [`Policy::base_delay_ms`].
pub const MAX_MULTIPLIER: u32 = 1000;

mod growth;
mod kinds;
pub(crate) use growth::grow_by_integer;

pub use crate::jitter::jitter_bounds;
pub use crate::preset::Preset;
pub use kinds::{DeadlineMode, Jitter};

error_enum! {
    /// Why a policy was rejected. Each variant names one field and its allowed range.
    pub enum PolicyError {
        /// `initial_ms` is 0 or above [`MAX_DELAY_MS`].
        InitialMs => "initial_ms", "initial_ms must be in 1..=2147483647";
        /// `max_backoff_ms` is below `initial_ms` or above [`MAX_DELAY_MS`].
        MaxBackoffMs => "max_backoff_ms", "max_backoff_ms must be in initial_ms..=2147483647";
        /// The multiplier's denominator is 0 or above [`MAX_MULTIPLIER_DEN`].
        MultiplierDen => "multiplier_den", "multiplier denominator must be in 1..=1000";
        /// The multiplier is below 1 (`num < den`).
        MultiplierBelowOne => "multiplier_below_one", "multiplier must be >= 1 (num >= den)";
        /// The multiplier is above [`MAX_MULTIPLIER`] (`num > 1000 · den`).
        MultiplierTooLarge => "multiplier_too_large",
            "multiplier must be <= 1000 (num <= 1000 * den)";
        /// Google jitter wider than the cap.
        JitterMs => "jitter_ms", "jitter_ms must be in 0..=max_backoff_ms";
        /// Proportional spread above 100 %.
        SpreadPerMille => "spread_per_mille", "spread_per_mille must be in 0..=1000";
        /// `max_hint_ms` above [`MAX_DELAY_MS`].
        MaxHintMs => "max_hint_ms", "max_hint_ms must be in 0..=2147483647";
        /// `jitter_ms` given for a strategy other than Google's (it would be ignored).
        JitterMsNotApplicable => "jitter_ms_not_applicable",
            "jitter_ms applies only to jitter 'google'";
        /// `spread_per_mille` given for a strategy other than proportional (it would be ignored).
        SpreadNotApplicable => "spread_per_mille_not_applicable",
            "spread_per_mille applies only to jitter 'proportional'";
        /// A jitter code that names no strategy (see [`Jitter::NAMES`]).
        UnknownJitter => "unknown_jitter",
            "jitter must be one of none, google, full, equal, decorrelated, proportional";
    }
}

impl PolicyError {
    /// The field the error is about, as named in SPEC.md §2.
    pub const fn field(self) -> &'static str {
        match self {
            PolicyError::MultiplierBelowOne | PolicyError::MultiplierTooLarge => "multiplier",
            PolicyError::JitterMsNotApplicable => "jitter_ms",
            PolicyError::SpreadNotApplicable => "spread_per_mille",
            PolicyError::UnknownJitter => "jitter",
            other => other.name(),
        }
    }
}

/// A validated retry policy. `Copy`, 40 bytes of plain integers, buildable in `const` context so
/// firmware keeps it in flash.
///
/// The fields are private so that every `Policy` in existence has passed [`PolicyBuilder::build`]:
/// the rest of the crate relies on its invariants (initial ≥ 1, initial ≤ cap ≤ [`MAX_DELAY_MS`],
/// 1 ≤ den ≤ 1000, den ≤ num ≤ 1000 · den).
///
/// ```
/// use seeded_backoff::{Jitter, Policy};
///
/// // A custom policy, validated at compile time: a bad field stops the build with its name.
/// const MY_POLICY: Policy = seeded_backoff::const_policy!(Policy::builder()
///     .initial_ms(250)
///     .multiplier(3, 2)
///     .max_backoff_ms(10_000)
///     .max_retries(8)
///     .jitter(Jitter::Full));
/// assert_eq!(MY_POLICY.base_delay_ms(1), 375);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Policy {
    initial_ms: u32,
    multiplier_num: u32,
    multiplier_den: u32,
    max_backoff_ms: u32,
    max_retries: u32,
    max_hint_ms: u32,
    max_elapsed_ms: u32,
    jitter: Jitter,
    deadline: DeadlineMode,
    paced: bool,
}

/// Builds a [`Policy`]; every setter is `const`. Start from [`Policy::builder`] or from a preset's
/// [`Policy::to_builder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyBuilder {
    initial_ms: u32,
    multiplier_num: u32,
    multiplier_den: u32,
    max_backoff_ms: u32,
    max_retries: u32,
    max_hint_ms: u32,
    max_elapsed_ms: u32,
    jitter: Jitter,
    deadline: DeadlineMode,
    paced: bool,
}

impl PolicyBuilder {
    /// Sets the first delay's base, in ms (1 ..= [`MAX_DELAY_MS`]).
    pub const fn initial_ms(mut self, ms: u32) -> Self {
        self.initial_ms = ms;
        self
    }
    /// Sets the growth factor as the fraction `num / den` (e.g. `2, 1` or `8, 5`).
    pub const fn multiplier(mut self, num: u32, den: u32) -> Self {
        self.multiplier_num = num;
        self.multiplier_den = den;
        self
    }
    /// Sets the cap on every computed delay, in ms (`initial_ms` ..= [`MAX_DELAY_MS`]).
    pub const fn max_backoff_ms(mut self, ms: u32) -> Self {
        self.max_backoff_ms = ms;
        self
    }
    /// Sets how many retries are allowed before giving up (0 = never retry).
    pub const fn max_retries(mut self, n: u32) -> Self {
        self.max_retries = n;
        self
    }
    /// Sets the jitter strategy with its parameter.
    pub const fn jitter(mut self, jitter: Jitter) -> Self {
        self.jitter = jitter;
        self
    }
    /// Sets the longest wait a server may ask, in ms (0 ..= [`MAX_DELAY_MS`]; default
    /// [`DEFAULT_MAX_HINT_MS`]). A `Retry-After` or rate-limit reset beyond it gives up with
    /// [`GiveUpReason::HintExceedsMax`](crate::GiveUpReason::HintExceedsMax) rather than come back
    /// before the server allows.
    pub const fn max_hint_ms(mut self, ms: u32) -> Self {
        self.max_hint_ms = ms;
        self
    }
    /// Sets the time budget in ms since the first attempt; 0 disables it.
    pub const fn max_elapsed_ms(mut self, ms: u32) -> Self {
        self.max_elapsed_ms = ms;
        self
    }
    /// Sets what happens to a delay that would cross the time budget.
    pub const fn deadline(mut self, mode: DeadlineMode) -> Self {
        self.deadline = mode;
        self
    }
    /// Follows a pacing server (SPEC.md §16): a `Retry-After` is the wait itself, clamped to
    /// `max_hint_ms`, rather than a lower bound on the backoff. Only for a server trusted to pace:
    /// one that answers `Retry-After: 0` would pull its clients back at once, bounded only by the
    /// retry limit, the time budget and a retry budget.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy, ServerHint, Step, StepInput};
    /// let p = Policy::google().to_builder().paced(true).build().unwrap();
    /// let mut b = Backoff::new(&p, 1);
    /// let hinted = StepInput::default().hint(ServerHint::RetryAfterMs(300));
    /// assert_eq!(b.next_delay_with(&p, hinted), Step::Retry { delay_ms: 300, retry: 0 });
    /// ```
    pub const fn paced(mut self, paced: bool) -> Self {
        self.paced = paced;
        self
    }

    /// Validates every field (in the order of SPEC.md §2) and returns the policy.
    ///
    /// ```
    /// use seeded_backoff::policy::PolicyError;
    /// use seeded_backoff::Policy;
    /// let err = Policy::builder().initial_ms(5000).max_backoff_ms(1000).build().unwrap_err();
    /// assert_eq!(err.error, PolicyError::MaxBackoffMs);
    /// assert_eq!(err.to_string(), "max_backoff_ms must be in initial_ms..=2147483647, got 1000");
    /// ```
    // Always inlined on bare metal: a caller that validates fields read from memory at every step
    // (the C library's reconnect step, whose policy stays in flash) then keeps the policy in
    // registers and folds the errors it does not tell apart, instead of a 40-byte policy returned
    // through its stack (thumbv7m: 156 to 64 B of stack, 1248 to 1174 B of code). Elsewhere
    // (wasm, servers) the compiler decides, as before.
    #[cfg_attr(target_os = "none", inline(always))]
    pub const fn build(self) -> Result<Policy, Invalid<PolicyError>> {
        let b = self;
        if b.initial_ms == 0 || b.initial_ms > MAX_DELAY_MS {
            return Err(Invalid::new(PolicyError::InitialMs, b.initial_ms));
        }
        if b.max_backoff_ms < b.initial_ms || b.max_backoff_ms > MAX_DELAY_MS {
            return Err(Invalid::new(PolicyError::MaxBackoffMs, b.max_backoff_ms));
        }
        if b.multiplier_den == 0 || b.multiplier_den > MAX_MULTIPLIER_DEN {
            return Err(Invalid::new(PolicyError::MultiplierDen, b.multiplier_den));
        }
        if b.multiplier_num < b.multiplier_den {
            return Err(Invalid {
                error: PolicyError::MultiplierBelowOne,
                got: b.multiplier_num,
                den: Some(b.multiplier_den),
            });
        }
        // den ≤ 1000, so the product cannot overflow.
        if b.multiplier_num > MAX_MULTIPLIER * b.multiplier_den {
            return Err(Invalid {
                error: PolicyError::MultiplierTooLarge,
                got: b.multiplier_num,
                den: Some(b.multiplier_den),
            });
        }
        match b.jitter {
            Jitter::Google { jitter_ms } if jitter_ms > b.max_backoff_ms => {
                return Err(Invalid::new(PolicyError::JitterMs, jitter_ms))
            }
            Jitter::Proportional { spread_per_mille } if spread_per_mille > 1000 => {
                return Err(Invalid::new(PolicyError::SpreadPerMille, spread_per_mille))
            }
            _ => {}
        }
        let max_hint_ms = b.max_hint_ms;
        if max_hint_ms > MAX_DELAY_MS {
            return Err(Invalid::new(PolicyError::MaxHintMs, max_hint_ms));
        }
        Ok(Policy {
            initial_ms: b.initial_ms,
            multiplier_num: b.multiplier_num,
            multiplier_den: b.multiplier_den,
            max_backoff_ms: b.max_backoff_ms,
            max_retries: b.max_retries,
            max_hint_ms,
            max_elapsed_ms: b.max_elapsed_ms,
            jitter: b.jitter,
            deadline: b.deadline,
            paced: b.paced,
        })
    }
}

/// A [`Policy`] from a [`PolicyBuilder`] expression, checked when the program compiles: in a
/// `const` (or `static`), a policy that fails [`PolicyBuilder::build`] stops the build with the
/// check's message, which names the field and its range ("evaluation panicked: max_backoff_ms
/// must be in initial_ms..=2147483647"). Outside a `const` it is checked when it runs, and panics
/// with the same message: use [`PolicyBuilder::build`] there to handle the error instead.
///
/// ```
/// use seeded_backoff::{const_policy, Jitter, Policy};
/// const FAST: Policy = const_policy!(Policy::builder().initial_ms(500).jitter(Jitter::Full));
/// assert_eq!(FAST.initial_ms(), 500);
/// ```
///
/// ```compile_fail,E0080
/// use seeded_backoff::{const_policy, Policy};
/// // error[E0080]: evaluation panicked: max_backoff_ms must be in initial_ms..=2147483647
/// const BAD: Policy = const_policy!(Policy::builder().initial_ms(5_000).max_backoff_ms(1_000));
/// ```
#[macro_export]
macro_rules! const_policy {
    ($builder:expr) => {
        match $builder.build() {
            ::core::result::Result::Ok(policy) => policy,
            ::core::result::Result::Err(error) => ::core::panic!("{}", error.error.message()),
        }
    };
}

impl Policy {
    /// A builder with Google's defaults (1 s, ×2, 32 s cap, 10 retries, 0–1000 ms additive jitter),
    /// no time budget, and server waits up to [`DEFAULT_MAX_HINT_MS`].
    pub const fn builder() -> PolicyBuilder {
        PolicyBuilder {
            initial_ms: 1000,
            multiplier_num: 2,
            multiplier_den: 1,
            max_backoff_ms: 32_000,
            max_retries: 10,
            max_hint_ms: DEFAULT_MAX_HINT_MS,
            max_elapsed_ms: 0,
            jitter: Jitter::Google { jitter_ms: 1000 },
            deadline: DeadlineMode::GiveUp,
            paced: false,
        }
    }

    /// A builder holding this policy's fields, to derive a variant of it.
    ///
    /// ```
    /// use seeded_backoff::Policy;
    /// let mobile = Policy::google().to_builder().max_retries(20).build().unwrap();
    /// assert_eq!(mobile.max_retries(), 20);
    /// ```
    pub const fn to_builder(&self) -> PolicyBuilder {
        PolicyBuilder {
            initial_ms: self.initial_ms,
            multiplier_num: self.multiplier_num,
            multiplier_den: self.multiplier_den,
            max_backoff_ms: self.max_backoff_ms,
            max_retries: self.max_retries,
            max_hint_ms: self.max_hint_ms,
            max_elapsed_ms: self.max_elapsed_ms,
            jitter: self.jitter,
            deadline: self.deadline,
            paced: self.paced,
        }
    }

    /// The first delay's base, in ms.
    pub const fn initial_ms(&self) -> u32 {
        self.initial_ms
    }
    /// The multiplier as `(num, den)`.
    pub const fn multiplier(&self) -> (u32, u32) {
        (self.multiplier_num, self.multiplier_den)
    }
    /// The cap on computed delays, in ms.
    pub const fn max_backoff_ms(&self) -> u32 {
        self.max_backoff_ms
    }
    /// How many retries are allowed.
    pub const fn max_retries(&self) -> u32 {
        self.max_retries
    }
    /// The jitter strategy.
    pub const fn jitter(&self) -> Jitter {
        self.jitter
    }
    /// The longest wait a server may ask, in ms: a longer hint gives up.
    pub const fn max_hint_ms(&self) -> u32 {
        self.max_hint_ms
    }
    /// The time budget in ms, 0 if none.
    pub const fn max_elapsed_ms(&self) -> u32 {
        self.max_elapsed_ms
    }
    /// What a delay that would cross the time budget does.
    pub const fn deadline(&self) -> DeadlineMode {
        self.deadline
    }
    /// Whether a `Retry-After` is the wait itself ([`PolicyBuilder::paced`]).
    pub const fn paced(&self) -> bool {
        self.paced
    }
}

impl Default for Policy {
    /// [`Policy::google`].
    fn default() -> Self {
        Policy::google()
    }
}
