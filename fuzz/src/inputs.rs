//! Arbitrary integers to policies and budgets. Raw `u32`s are almost always huge; `spread` folds
//! them onto every magnitude so small, medium and extreme values all show up.

use arbitrary::Arbitrary;
use seeded_backoff::budget::BudgetConfig;
use seeded_backoff::policy::{DeadlineMode, MAX_DELAY_MS};
use seeded_backoff::{Jitter, Policy};

/// A value of any magnitude 0 ..= u32::MAX: the low bits pick a bit width, the rest the value.
pub fn spread(raw: u32) -> u32 {
    let width = raw % 33;
    let value = raw.rotate_right(6);
    if width == 32 {
        value
    } else {
        value & ((1u32 << width) - 1)
    }
}

/// `lo + (x mod (hi − lo + 1))`, for `lo ≤ hi`.
pub fn fit(x: u32, lo: u32, hi: u32) -> u32 {
    let span = hi as u64 - lo as u64 + 1;
    (lo as u64 + x as u64 % span) as u32
}

/// Every field of SPEC.md §2 as it arrives from a caller, unvalidated.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct PolicyFields {
    pub initial_ms: u32,
    pub max_backoff_ms: u32,
    pub multiplier_num: u32,
    pub multiplier_den: u32,
    pub jitter_code: u8,
    pub jitter_param: u32,
    pub max_hint_ms: Option<u32>,
    pub max_retries: u32,
    pub max_elapsed_ms: u32,
    pub clamp: bool,
}

impl PolicyFields {
    /// The same fields with each value spread over all magnitudes.
    pub fn spread(self) -> PolicyFields {
        PolicyFields {
            initial_ms: spread(self.initial_ms),
            max_backoff_ms: spread(self.max_backoff_ms),
            multiplier_num: spread(self.multiplier_num),
            multiplier_den: spread(self.multiplier_den),
            jitter_param: spread(self.jitter_param),
            max_hint_ms: self.max_hint_ms.map(spread),
            max_retries: spread(self.max_retries),
            max_elapsed_ms: spread(self.max_elapsed_ms),
            ..self
        }
    }

    /// The jitter strategy the fields name; codes above 5 wrap so every input names one.
    pub fn jitter(&self) -> Jitter {
        match self.jitter_code % 6 {
            0 => Jitter::None,
            1 => Jitter::Google {
                jitter_ms: self.jitter_param,
            },
            2 => Jitter::Full,
            3 => Jitter::Equal,
            4 => Jitter::Decorrelated,
            _ => Jitter::Proportional {
                spread_per_mille: self.jitter_param,
            },
        }
    }

    /// Builds through the public builder, exactly as a caller would.
    pub fn build(&self) -> Result<Policy, seeded_backoff::policy::PolicyError> {
        let mut b = Policy::builder()
            .initial_ms(self.initial_ms)
            .max_backoff_ms(self.max_backoff_ms)
            .multiplier(self.multiplier_num, self.multiplier_den)
            .jitter(self.jitter())
            .max_retries(self.max_retries)
            .max_elapsed_ms(self.max_elapsed_ms)
            .deadline(if self.clamp {
                DeadlineMode::Clamp
            } else {
                DeadlineMode::GiveUp
            });
        if let Some(ms) = self.max_hint_ms {
            b = b.max_hint_ms(ms);
        }
        b.build().map_err(|e| e.error)
    }

    /// The fields folded into their allowed ranges (SPEC.md §2): always a valid policy, with
    /// extreme values as likely as ordinary ones.
    pub fn valid(&self) -> Policy {
        let s = self.spread();
        let initial = fit(s.initial_ms, 1, MAX_DELAY_MS);
        let cap = fit(s.max_backoff_ms, initial, MAX_DELAY_MS);
        let den = fit(s.multiplier_den, 1, 1000);
        let num = fit(s.multiplier_num, den, 1000 * den);
        let param = match self.jitter_code % 6 {
            1 => fit(s.jitter_param, 0, cap),
            5 => fit(s.jitter_param, 0, 1000),
            _ => 0,
        };
        let fields = PolicyFields {
            initial_ms: initial,
            max_backoff_ms: cap,
            multiplier_num: num,
            multiplier_den: den,
            jitter_param: param,
            max_hint_ms: s.max_hint_ms.map(|h| fit(h, 0, MAX_DELAY_MS)),
            ..s
        };
        match fields.build() {
            Ok(p) => p,
            Err(e) => panic!("folded fields {fields:?} must be valid, got {e:?}"),
        }
    }
}

/// A budget's parameters as a caller gives them.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct BudgetFields {
    pub aws: bool,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub d: u32,
}

impl BudgetFields {
    /// Folded into the allowed ranges of SPEC.md §10.
    pub fn valid(&self) -> BudgetConfig {
        let config = if self.aws {
            let capacity = fit(spread(self.a), 1, 1_000_000);
            BudgetConfig::aws_quota(
                capacity,
                fit(spread(self.b), 1, capacity),
                fit(spread(self.c), 1, capacity),
                fit(spread(self.d), 0, capacity),
            )
        } else {
            let max_tokens = fit(spread(self.a), 1, 1000);
            BudgetConfig::grpc(max_tokens, fit(spread(self.b), 1, 1000 * max_tokens))
        };
        match config {
            Ok(c) => c,
            Err(e) => panic!("folded budget {self:?} must be valid, got {e:?}"),
        }
    }
}
