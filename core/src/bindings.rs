//! What the language bindings and the CLI build on, kept out of the typed API a Rust program uses:
//! options coded as numbers, as they cross a C or wasm boundary, the raw forms of the per-request
//! state, of the run, of a reconnect loop and of a server's pacer for memory a binding owns
//! ([`RawBackoff`], [`RawRun`], [`RawReconnect`], [`RawPacer`], the send rate's [`SEND_RATE_WORDS`] words), the budget's
//! coded modes and options ([`BudgetMode`], [`BudgetOption`]), the delta-seconds fast path of the
//! `Retry-After` parser, and the snapshot format's CRC-32.
//!
//! [`PolicyOptions`] is the one place that turns "a preset plus the options a user gave" into a
//! [`Policy`]. Every binding (the npm package, the C ABI, the CLI) calls [`PolicyOptions::build`]
//! rather than keeping its own copy of the rules, so that an option combination is accepted or refused the same way
//! everywhere: an option the chosen strategy has no use for (`jitter_ms` with full jitter) is an
//! error, not silently ignored; a strategy's parameter defaults to the reference value (Google's
//! 1000 ms, gRPC's ±20 %) unless the preset already uses that strategy; the hint limit is the one
//! given, else [`DEFAULT_MAX_HINT_MS`](crate::policy::DEFAULT_MAX_HINT_MS), whatever the cap.

pub use crate::budget::options::{BudgetMode, BudgetOption};
use crate::coded_enum::coded_enum;
pub use crate::crc32::crc32;
use crate::error_enum::error_enum;
pub use crate::hint::parse_retry_after_seconds;
use crate::hint::ServerHint;
pub use crate::pacer::RawPacer;
use crate::policy::{DeadlineMode, Jitter, Policy, PolicyError};
use crate::preset::Preset;
pub use crate::reconnect::RawReconnect;
pub use crate::run::RawRun;
pub use crate::send_rate::SEND_RATE_WORDS;
pub use crate::snapshot::RawBackoff;

mod run_codes;
pub use run_codes::{
    answer_from_status, failure_kind_from_code, outcome_code, outcome_from_codes,
    pause_reason_from_code, RunCodeError,
};

error_enum! {
    /// Why a binding's step input was refused. The core's [`StepInput`](crate::StepInput) holds
    /// one hint by its type; a binding that takes each hint as its own field checks the rule with
    /// [`one_hint`].
    pub enum StepInputError {
        /// More than one server hint in one step (SPEC.md §5).
        TwoHints => "two_hints",
            "give at most one server hint per step: retry_after_ms, rate_limit_ms or do_not_retry";
    }
}

/// The one server hint of a step whose hints come as separate fields (SPEC.md §5: a step has at
/// most one; which one a response gives is [`ServerHint::from_headers`]'s rule).
///
/// ```
/// use seeded_backoff::bindings::{one_hint, StepInputError};
/// use seeded_backoff::ServerHint;
/// assert_eq!(one_hint(Some(5_000), None, false), Ok(Some(ServerHint::RetryAfterMs(5_000))));
/// assert_eq!(one_hint(None, None, true), Ok(Some(ServerHint::DoNotRetry)));
/// assert_eq!(one_hint(None, None, false), Ok(None));
/// assert_eq!(one_hint(Some(5_000), None, true), Err(StepInputError::TwoHints));
/// ```
pub const fn one_hint(
    retry_after_ms: Option<u32>,
    rate_limit_ms: Option<u32>,
    do_not_retry: bool,
) -> Result<Option<ServerHint>, StepInputError> {
    match (retry_after_ms, rate_limit_ms, do_not_retry) {
        (None, None, false) => Ok(None),
        (Some(ms), None, false) => Ok(Some(ServerHint::RetryAfterMs(ms))),
        (None, Some(ms), false) => Ok(Some(ServerHint::RateLimitResetMs(ms))),
        (None, None, true) => Ok(Some(ServerHint::DoNotRetry)),
        _ => Err(StepInputError::TwoHints),
    }
}

/// Google's jitter width: `jitter_ms` when Google jitter is chosen over a preset without it.
const DEFAULT_JITTER_MS: u32 = 1000;
/// gRPC's ±20 %: `spread_per_mille` when proportional jitter is chosen over a preset without it.
const DEFAULT_SPREAD_PER_MILLE: u32 = 200;

/// A preset (or the builder's defaults, which are Google's) and the options that override it.
/// Each `None` keeps the preset's value.
///
/// ```
/// use seeded_backoff::bindings::PolicyOptions;
/// use seeded_backoff::policy::{PolicyError, Preset};
/// use seeded_backoff::Jitter;
///
/// let options = PolicyOptions {
///     preset: Some(Preset::Grpc),
///     multiplier: Some((1500, 1000)),
///     max_backoff_ms: Some(60_000),
///     ..PolicyOptions::default()
/// };
/// let policy = options.build().unwrap();
/// assert_eq!(policy.multiplier(), (3, 2)); // reduced: the same policy as 3/2
/// assert_eq!(policy.max_hint_ms(), 300_000); // the one default, whatever the cap
///
/// let full_with_width = PolicyOptions {
///     jitter: Some(Jitter::Full.code()),
///     jitter_ms: Some(500),
///     ..PolicyOptions::default()
/// };
/// assert_eq!(full_with_width.build(), Err(PolicyError::JitterMsNotApplicable));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicyOptions {
    /// The starting point; `None` is [`Policy::builder`]'s defaults.
    pub preset: Option<Preset>,
    /// First delay's base, ms.
    pub initial_ms: Option<u32>,
    /// Growth factor `num / den`, reduced before use (1600/1000 is 8/5).
    pub multiplier: Option<(u32, u32)>,
    /// Cap on every delay, ms.
    pub max_backoff_ms: Option<u32>,
    /// Retries before giving up.
    pub max_retries: Option<u32>,
    /// The strategy, by [`Jitter::code`].
    pub jitter: Option<u8>,
    /// Google jitter's width, ms; only with Google jitter.
    pub jitter_ms: Option<u32>,
    /// Proportional jitter's half-width, ‰; only with proportional jitter.
    pub spread_per_mille: Option<u32>,
    /// Largest server hint honoured, ms.
    pub max_hint_ms: Option<u32>,
    /// Time budget, ms (0: none).
    pub max_elapsed_ms: Option<u32>,
    /// What a delay crossing the time budget does.
    pub deadline: Option<DeadlineMode>,
    /// Whether a `Retry-After` is the wait itself (a pacing server, SPEC.md §16).
    pub paced: Option<bool>,
}

coded_enum! {
    /// The fields of [`PolicyOptions`], in their order, with their names: the index a binding
    /// gives each when options cross its boundary as numbered words or presence bits (the npm
    /// package's option words, the C ABI's `SB_OPTION_*` bits), and the name it shows a user.
    ///
    /// ```
    /// use seeded_backoff::bindings::PolicyOption;
    /// assert_eq!(PolicyOption::NAMES[PolicyOption::Jitter.code() as usize], "jitter");
    /// assert_eq!(PolicyOption::from_code(2), Some(PolicyOption::Multiplier));
    /// ```
    pub enum PolicyOption {
        /// The field `preset` of [`PolicyOptions`].
        Preset = 0, "preset";
        /// The field `initial_ms` of [`PolicyOptions`].
        InitialMs = 1, "initial_ms";
        /// The field `multiplier` of [`PolicyOptions`].
        Multiplier = 2, "multiplier";
        /// The field `max_backoff_ms` of [`PolicyOptions`].
        MaxBackoffMs = 3, "max_backoff_ms";
        /// The field `max_retries` of [`PolicyOptions`].
        MaxRetries = 4, "max_retries";
        /// The field `jitter` of [`PolicyOptions`].
        Jitter = 5, "jitter";
        /// The field `jitter_ms` of [`PolicyOptions`].
        JitterMs = 6, "jitter_ms";
        /// The field `spread_per_mille` of [`PolicyOptions`].
        SpreadPerMille = 7, "spread_per_mille";
        /// The field `max_hint_ms` of [`PolicyOptions`].
        MaxHintMs = 8, "max_hint_ms";
        /// The field `max_elapsed_ms` of [`PolicyOptions`].
        MaxElapsedMs = 9, "max_elapsed_ms";
        /// The field `deadline` of [`PolicyOptions`].
        Deadline = 10, "deadline";
        /// The field `paced` of [`PolicyOptions`].
        Paced = 11, "paced";
    }
}

impl PolicyOptions {
    /// The preset with the options applied, validated as [`PolicyBuilder::build`] does, plus the
    /// applicability rules (SPEC.md §2.1).
    ///
    /// [`PolicyBuilder::build`]: crate::PolicyBuilder::build
    pub fn build(&self) -> Result<Policy, PolicyError> {
        // No preset: the builder's defaults, which are Google's (test `a_preset_alone_is_the_preset`).
        let base = match self.preset {
            Some(p) => p.policy(),
            None => Policy::google(),
        };
        self.apply_to(&base)
    }

    /// `base` with the options applied, by the rules of [`build`](Self::build) with `base` in the
    /// preset's place (`preset` is not read): each `None` keeps `base`'s value, the strategy's
    /// parameter carries over while its strategy is kept, the hint limit follows an overridden
    /// cap unless given. A binding derives a policy from a user's one this way (a Google `Retry`
    /// lowering `max_elapsed_ms` to its deadline) instead of rebuilding it field by field.
    ///
    /// ```
    /// use seeded_backoff::bindings::PolicyOptions;
    /// use seeded_backoff::policy::PolicyError;
    /// use seeded_backoff::{Jitter, Policy};
    ///
    /// let narrow = Policy::builder().jitter(Jitter::Google { jitter_ms: 250 }).build().unwrap();
    /// let timed = PolicyOptions { max_elapsed_ms: Some(60_000), ..PolicyOptions::default() };
    /// let p = timed.apply_to(&narrow).unwrap();
    /// assert_eq!((p.max_elapsed_ms(), p.jitter()), (60_000, Jitter::Google { jitter_ms: 250 }));
    ///
    /// let spread = PolicyOptions { spread_per_mille: Some(100), ..PolicyOptions::default() };
    /// assert_eq!(spread.apply_to(&narrow), Err(PolicyError::SpreadNotApplicable));
    /// ```
    pub fn apply_to(&self, base: &Policy) -> Result<Policy, PolicyError> {
        let mut b = base.to_builder();
        if let Some(ms) = self.initial_ms {
            b = b.initial_ms(ms);
        }
        if let Some((num, den)) = self.multiplier {
            let g = gcd(num, den);
            b = b.multiplier(num / g, den / g);
        }
        if let Some(ms) = self.max_backoff_ms {
            b = b.max_backoff_ms(ms);
        }
        if let Some(n) = self.max_retries {
            b = b.max_retries(n);
        }
        if let Some(ms) = self.max_elapsed_ms {
            b = b.max_elapsed_ms(ms);
        }
        if let Some(mode) = self.deadline {
            b = b.deadline(mode);
        }
        if let Some(paced) = self.paced {
            b = b.paced(paced);
        }
        b = b.jitter(self.jitter(base.jitter())?);
        if let Some(ms) = self.max_hint_ms {
            b = b.max_hint_ms(ms);
        }
        b.build().map_err(|e| e.error)
    }

    fn jitter(&self, base: Jitter) -> Result<Jitter, PolicyError> {
        let code = self.jitter.unwrap_or(base.code());
        // The preset's parameter carries over only while its strategy is kept.
        let param = |given: Option<u32>, default| match given {
            Some(v) => v,
            None if base.code() == code => base.param(),
            None => default,
        };
        let google = Jitter::Google { jitter_ms: 0 }.code();
        let proportional = Jitter::Proportional {
            spread_per_mille: 0,
        }
        .code();
        if self.jitter_ms.is_some() && code != google {
            return Err(PolicyError::JitterMsNotApplicable);
        }
        if self.spread_per_mille.is_some() && code != proportional {
            return Err(PolicyError::SpreadNotApplicable);
        }
        let p = if code == google {
            param(self.jitter_ms, DEFAULT_JITTER_MS)
        } else {
            param(self.spread_per_mille, DEFAULT_SPREAD_PER_MILLE)
        };
        Jitter::from_code(code, p).ok_or(PolicyError::UnknownJitter)
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(f: impl FnOnce(&mut PolicyOptions)) -> Result<Policy, PolicyError> {
        let mut o = PolicyOptions::default();
        f(&mut o);
        o.build()
    }

    #[test]
    fn a_preset_alone_is_the_preset() {
        for (code, name) in Preset::NAMES.iter().enumerate() {
            let preset = Preset::from_code(code as u8).unwrap();
            assert_eq!(Preset::from_name(name), Some(preset));
            assert_eq!(build(|o| o.preset = Some(preset)), Ok(preset.policy()));
        }
        assert_eq!(Preset::from_code(5), None);
        assert_eq!(build(|_| {}), Ok(Policy::google()));
    }

    #[test]
    fn the_multiplier_is_reduced() {
        for (given, expect) in [
            ((1600, 1000), (8, 5)),
            ((2000, 1000), (2, 1)),
            ((3, 2), (3, 2)),
        ] {
            let p = build(|o| o.multiplier = Some(given)).unwrap();
            assert_eq!(p.multiplier(), expect);
        }
        assert_eq!(
            build(|o| o.multiplier = Some((999, 1000))),
            Err(PolicyError::MultiplierBelowOne)
        );
        assert_eq!(
            build(|o| o.multiplier = Some((0, 0))),
            Err(PolicyError::MultiplierDen)
        );
    }

    #[test]
    fn the_hint_limit_is_the_default_unless_given() {
        let p = build(|o| o.max_backoff_ms = Some(60_000)).unwrap();
        assert_eq!(p.max_hint_ms(), crate::policy::DEFAULT_MAX_HINT_MS);
        let p = build(|o| {
            o.max_backoff_ms = Some(60_000);
            o.max_hint_ms = Some(5);
        })
        .unwrap();
        assert_eq!(p.max_hint_ms(), 5);
        let p = build(|o| o.preset = Some(Preset::Google64s)).unwrap();
        assert_eq!(p.max_hint_ms(), crate::policy::DEFAULT_MAX_HINT_MS);
    }

    #[test]
    fn options_a_strategy_has_no_use_for_are_refused() {
        let full = Some(Jitter::Full.code());
        assert_eq!(
            build(|o| {
                o.jitter = full;
                o.jitter_ms = Some(1);
            }),
            Err(PolicyError::JitterMsNotApplicable)
        );
        assert_eq!(
            build(|o| o.spread_per_mille = Some(100)),
            Err(PolicyError::SpreadNotApplicable)
        );
        assert_eq!(
            build(|o| {
                o.preset = Some(Preset::Grpc);
                o.jitter_ms = Some(1);
            }),
            Err(PolicyError::JitterMsNotApplicable)
        );
        assert_eq!(
            build(|o| o.jitter = Some(6)),
            Err(PolicyError::UnknownJitter)
        );
    }

    #[test]
    fn strategy_parameters_default_or_carry_over() {
        let p = build(|o| {
            o.preset = Some(Preset::AwsStandard);
            o.jitter = Some(1);
        })
        .unwrap();
        assert_eq!(p.jitter(), Jitter::Google { jitter_ms: 1000 });
        let p = build(|o| {
            o.preset = Some(Preset::Grpc);
            o.spread_per_mille = Some(100);
        })
        .unwrap();
        assert_eq!(
            p.jitter(),
            Jitter::Proportional {
                spread_per_mille: 100
            }
        );
        let p = build(|o| o.jitter = Some(5)).unwrap();
        assert_eq!(
            p.jitter(),
            Jitter::Proportional {
                spread_per_mille: 200
            }
        );
        let p = build(|o| o.jitter_ms = Some(250)).unwrap();
        assert_eq!(p.jitter(), Jitter::Google { jitter_ms: 250 });
    }

    #[test]
    fn options_apply_over_any_policy_as_over_a_preset() {
        let base = Policy::builder()
            .initial_ms(300)
            .max_backoff_ms(9_000)
            .jitter(Jitter::Proportional {
                spread_per_mille: 50,
            })
            .max_hint_ms(4_000)
            .build()
            .unwrap();
        let over = |f: fn(&mut PolicyOptions)| {
            let mut o = PolicyOptions::default();
            f(&mut o);
            o.apply_to(&base)
        };
        assert_eq!(over(|_| {}), Ok(base));
        let p = over(|o| o.max_elapsed_ms = Some(60_000)).unwrap();
        assert_eq!(p.max_elapsed_ms(), 60_000);
        assert_eq!(p.to_builder().max_elapsed_ms(0).build(), Ok(base));
        // The preset field is not read: the base is the starting point.
        assert_eq!(over(|o| o.preset = Some(Preset::AwsStandard)), Ok(base));
        // The hint limit never follows the cap (SPEC.md §2: one hint limit): the base's stays.
        let p = over(|o| o.max_backoff_ms = Some(20_000)).unwrap();
        assert_eq!((p.max_hint_ms(), p.initial_ms()), (4_000, 300));
        let p = over(|o| o.jitter = Some(1)).unwrap();
        assert_eq!(p.jitter(), Jitter::Google { jitter_ms: 1000 });
        assert_eq!(
            over(|o| o.jitter_ms = Some(5)),
            Err(PolicyError::JitterMsNotApplicable)
        );
        assert_eq!(
            over(|o| o.initial_ms = Some(10_000)),
            Err(PolicyError::MaxBackoffMs)
        );
    }

    #[test]
    fn range_errors_are_the_builders() {
        assert_eq!(
            build(|o| o.initial_ms = Some(0)),
            Err(PolicyError::InitialMs)
        );
        assert_eq!(
            build(|o| o.max_backoff_ms = Some(10)),
            Err(PolicyError::MaxBackoffMs)
        );
        assert_eq!(
            build(|o| o.jitter_ms = Some(40_000)),
            Err(PolicyError::JitterMs)
        );
        assert_eq!(
            build(|o| o.max_hint_ms = Some(u32::MAX)),
            Err(PolicyError::MaxHintMs)
        );
    }
}
