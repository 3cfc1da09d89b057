//! JS option values to a core [`Policy`]. The JS wrapper has already checked every value's type and
//! that it fits a `u32`; the ranges and cross-field rules are the core's, reported here under the
//! JS option names.

use seeded_backoff::{DeadlineMode, Jitter, Policy, PolicyError};

/// `PolicyFields::present` bits: which options the caller gave. Absent ones keep the preset's value.
pub mod field {
    /// `initialMs`
    pub const INITIAL_MS: u32 = 1;
    /// `multiplier`
    pub const MULTIPLIER: u32 = 1 << 1;
    /// `maxBackoffMs`
    pub const MAX_BACKOFF_MS: u32 = 1 << 2;
    /// `maxRetries`
    pub const MAX_RETRIES: u32 = 1 << 3;
    /// `jitter`
    pub const JITTER: u32 = 1 << 4;
    /// `jitterMs`
    pub const JITTER_MS: u32 = 1 << 5;
    /// `spreadPerMille`
    pub const SPREAD_PER_MILLE: u32 = 1 << 6;
    /// `maxHintMs`
    pub const MAX_HINT_MS: u32 = 1 << 7;
    /// `maxElapsedMs`
    pub const MAX_ELAPSED_MS: u32 = 1 << 8;
    /// `deadline`
    pub const DEADLINE: u32 = 1 << 9;
}

/// The `preset` option's names, by code (0 = no preset: the core builder's defaults, Google's).
pub const PRESETS: [&str; 5] = ["", "google", "google_64s", "aws_standard", "grpc"];

/// Google's jitter width, the default when `jitter: 'google'` is chosen without `jitterMs`.
const DEFAULT_JITTER_MS: u32 = 1000;
/// gRPC's ±20 %, the default when `jitter: 'proportional'` is chosen without `spreadPerMille`.
const DEFAULT_SPREAD_PER_MILLE: u32 = 200;

/// The option values as the JS wrapper passes them: integers already checked to fit a `u32`.
///
/// ```
/// use seeded_backoff_wasm::options::{field, PolicyFields};
/// let fields = PolicyFields {
///     preset: 4, // grpc
///     present: field::MAX_RETRIES,
///     max_retries: 3,
///     ..PolicyFields::default()
/// };
/// let policy = fields.to_policy().unwrap();
/// assert_eq!(policy.multiplier(), (8, 5));
/// assert_eq!(policy.max_retries(), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicyFields {
    /// Index into [`PRESETS`].
    pub preset: u32,
    /// Which fields were given, as [`field`] bits.
    pub present: u32,
    /// `initialMs`.
    pub initial_ms: u32,
    /// `multiplier` × 1000 (the wrapper checked it has at most three decimals).
    pub multiplier_milli: u32,
    /// `maxBackoffMs`.
    pub max_backoff_ms: u32,
    /// `maxRetries`.
    pub max_retries: u32,
    /// `jitter`, as its code (the index of its name in `Jitter::NAMES`).
    pub jitter: u32,
    /// `jitterMs`.
    pub jitter_ms: u32,
    /// `spreadPerMille`.
    pub spread_per_mille: u32,
    /// `maxHintMs`.
    pub max_hint_ms: u32,
    /// `maxElapsedMs`.
    pub max_elapsed_ms: u32,
    /// `deadline`: 0 `give_up`, 1 `clamp`.
    pub deadline: u32,
}

/// Why the options do not make a policy: a message naming the JS option and its allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionError(pub &'static str);

impl PolicyFields {
    fn has(&self, bit: u32) -> bool {
        self.present & bit != 0
    }

    /// Applies the given fields over the preset and lets the core validate the result.
    pub fn to_policy(&self) -> Result<Policy, OptionError> {
        let base = match self.preset {
            0 => Policy::builder().build(),
            1 => Ok(Policy::google()),
            2 => Ok(Policy::google_64s()),
            3 => Ok(Policy::aws_standard()),
            4 => Ok(Policy::grpc()),
            _ => {
                return Err(OptionError(
                    "preset must be one of google, google_64s, aws_standard, grpc",
                ))
            }
        }
        .map_err(policy_error)?;
        let mut b = base.to_builder();
        if self.has(field::INITIAL_MS) {
            b = b.initial_ms(self.initial_ms);
        }
        if self.has(field::MULTIPLIER) {
            // Reduced, so that 1.6 is the core's 8/5 and a snapshot's fingerprint matches the
            // gRPC preset's and the Rust crate's.
            let g = gcd(self.multiplier_milli, 1000);
            b = b.multiplier(self.multiplier_milli / g, 1000 / g);
        }
        if self.has(field::MAX_BACKOFF_MS) {
            b = b.max_backoff_ms(self.max_backoff_ms);
        }
        if self.has(field::MAX_RETRIES) {
            b = b.max_retries(self.max_retries);
        }
        if self.has(field::MAX_ELAPSED_MS) {
            b = b.max_elapsed_ms(self.max_elapsed_ms);
        }
        if self.has(field::DEADLINE) {
            b = b.deadline(
                DeadlineMode::from_code(u8::try_from(self.deadline).unwrap_or(u8::MAX))
                    .ok_or(OptionError("deadline must be 'give_up' or 'clamp'"))?,
            );
        }
        b = b.jitter(self.jitter(base.jitter())?);
        // Unset, the hint limit follows the cap (as in the core builder), also when a preset's cap
        // is overridden.
        b = b.max_hint_ms(if self.has(field::MAX_HINT_MS) {
            self.max_hint_ms
        } else if self.has(field::MAX_BACKOFF_MS) {
            self.max_backoff_ms
        } else {
            base.max_hint_ms()
        });
        b.build().map_err(policy_error)
    }

    fn jitter(&self, base: Jitter) -> Result<Jitter, OptionError> {
        let code = if self.has(field::JITTER) {
            u8::try_from(self.jitter).unwrap_or(u8::MAX)
        } else {
            base.code()
        };
        let kept = |default| {
            if base.code() == code {
                base.param()
            } else {
                default
            }
        };
        let param =
            match Jitter::from_code(code, 0) {
                Some(Jitter::Google { .. }) => {
                    if self.has(field::SPREAD_PER_MILLE) {
                        return Err(OptionError(
                            "spreadPerMille applies only to jitter 'proportional'",
                        ));
                    }
                    if self.has(field::JITTER_MS) {
                        self.jitter_ms
                    } else {
                        kept(DEFAULT_JITTER_MS)
                    }
                }
                Some(Jitter::Proportional { .. }) => {
                    if self.has(field::JITTER_MS) {
                        return Err(OptionError("jitterMs applies only to jitter 'google'"));
                    }
                    if self.has(field::SPREAD_PER_MILLE) {
                        self.spread_per_mille
                    } else {
                        kept(DEFAULT_SPREAD_PER_MILLE)
                    }
                }
                Some(_) if self.has(field::JITTER_MS) => {
                    return Err(OptionError("jitterMs applies only to jitter 'google'"))
                }
                Some(_) if self.has(field::SPREAD_PER_MILLE) => {
                    return Err(OptionError(
                        "spreadPerMille applies only to jitter 'proportional'",
                    ))
                }
                Some(_) => 0,
                None => return Err(OptionError(
                    "jitter must be one of none, google, full, equal, decorrelated, proportional",
                )),
            };
        Jitter::from_code(code, param).ok_or(OptionError("jitter is unknown"))
    }
}

/// The core's error under the JS option names.
pub fn policy_error(e: PolicyError) -> OptionError {
    OptionError(match e {
        PolicyError::InitialMs => "initialMs must be in 1..=2147483647",
        PolicyError::MaxBackoffMs => "maxBackoffMs must be in initialMs..=2147483647",
        PolicyError::MultiplierDen => "multiplier must have at most 3 decimals",
        PolicyError::MultiplierBelowOne | PolicyError::MultiplierTooLarge => {
            "multiplier must be in 1..=1000"
        }
        PolicyError::JitterMs => "jitterMs must be in 0..=maxBackoffMs",
        PolicyError::SpreadPerMille => "spreadPerMille must be in 0..=1000",
        PolicyError::MaxHintMs => "maxHintMs must be in 0..=2147483647",
        _ => e.message(),
    })
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

    fn with(present: u32, f: impl FnOnce(&mut PolicyFields)) -> Result<Policy, OptionError> {
        let mut fields = PolicyFields {
            present,
            ..PolicyFields::default()
        };
        f(&mut fields);
        fields.to_policy()
    }

    #[test]
    fn presets_are_the_cores() {
        for (code, policy) in [
            (0, Policy::builder().build().unwrap()),
            (1, Policy::google()),
            (2, Policy::google_64s()),
            (3, Policy::aws_standard()),
            (4, Policy::grpc()),
        ] {
            let got = with(0, |f| f.preset = code).unwrap();
            assert_eq!(got, policy, "preset {}", PRESETS[code as usize]);
        }
        assert!(with(0, |f| f.preset = 5).is_err());
    }

    #[test]
    fn multiplier_is_reduced() {
        for (milli, expect) in [
            (1600, (8, 5)),
            (2000, (2, 1)),
            (1001, (1001, 1000)),
            (1500, (3, 2)),
        ] {
            let p = with(field::MULTIPLIER, |f| f.multiplier_milli = milli).unwrap();
            assert_eq!(p.multiplier(), expect);
        }
        let err = with(field::MULTIPLIER, |f| f.multiplier_milli = 999).unwrap_err();
        assert_eq!(err.0, "multiplier must be in 1..=1000");
        let err = with(field::MULTIPLIER, |f| f.multiplier_milli = 0).unwrap_err();
        assert_eq!(err.0, "multiplier must be in 1..=1000");
    }

    #[test]
    fn hint_limit_follows_an_overridden_cap() {
        let p = with(field::MAX_BACKOFF_MS, |f| {
            f.preset = 1;
            f.max_backoff_ms = 60_000;
        })
        .unwrap();
        assert_eq!(p.max_hint_ms(), 60_000);
        let p = with(field::MAX_HINT_MS, |f| f.max_hint_ms = 5).unwrap();
        assert_eq!(p.max_hint_ms(), 5);
    }

    #[test]
    fn errors_name_the_js_option() {
        let e = with(field::INITIAL_MS, |f| f.initial_ms = 0).unwrap_err();
        assert!(e.0.starts_with("initialMs"), "{}", e.0);
        let e = with(field::MAX_BACKOFF_MS, |f| f.max_backoff_ms = 10).unwrap_err();
        assert!(e.0.starts_with("maxBackoffMs"), "{}", e.0);
        let e = with(field::JITTER_MS, |f| f.jitter_ms = 40_000).unwrap_err();
        assert!(e.0.starts_with("jitterMs"), "{}", e.0);
        let e = with(field::JITTER | field::SPREAD_PER_MILLE, |f| {
            f.jitter = 5;
            f.spread_per_mille = 1001;
        })
        .unwrap_err();
        assert!(e.0.starts_with("spreadPerMille"), "{}", e.0);
        let e = with(field::MAX_HINT_MS, |f| f.max_hint_ms = u32::MAX).unwrap_err();
        assert!(e.0.starts_with("maxHintMs"), "{}", e.0);
        let e = with(field::JITTER | field::JITTER_MS, |f| f.jitter = 2).unwrap_err();
        assert!(e.0.starts_with("jitterMs applies"), "{}", e.0);
        let e = with(field::JITTER, |f| f.jitter = 6).unwrap_err();
        assert!(e.0.starts_with("jitter must"), "{}", e.0);
        let e = with(field::DEADLINE, |f| f.deadline = 2).unwrap_err();
        assert!(e.0.starts_with("deadline"), "{}", e.0);
    }

    #[test]
    fn jitter_params_default_or_carry_over() {
        let p = with(field::JITTER, |f| {
            f.preset = 3;
            f.jitter = 1;
        })
        .unwrap();
        assert_eq!(p.jitter(), Jitter::Google { jitter_ms: 1000 });
        let p = with(field::SPREAD_PER_MILLE, |f| {
            f.preset = 4;
            f.spread_per_mille = 100;
        })
        .unwrap();
        assert_eq!(
            p.jitter(),
            Jitter::Proportional {
                spread_per_mille: 100
            }
        );
        let p = with(field::JITTER, |f| f.jitter = 5).unwrap();
        assert_eq!(
            p.jitter(),
            Jitter::Proportional {
                spread_per_mille: 200
            }
        );
    }
}
