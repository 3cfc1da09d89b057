//! Policy flags shared by the subcommands, and their translation into a validated core `Policy`.
//!
//! The flags parse syntax only: names are checked against the core's tables (`Preset::NAMES`,
//! `Jitter::NAMES`, the deadline modes), numbers are read as numbers, and every range and rule is
//! left to `PolicyOptions::build`, whose error names the field and its range. The help texts quote
//! the core's own messages, so they cannot drift from what the core enforces.

use clap::builder::PossibleValuesParser;
use clap::Args;
use seeded_backoff::bindings::PolicyOptions;
use seeded_backoff::{
    policy::{DeadlineMode, PolicyError, Preset},
    Jitter, Policy,
};

use crate::echo::escape;

/// The deadline modes' names, in code order, from the core.
pub fn deadline_names() -> impl Iterator<Item = &'static str> {
    DeadlineMode::NAMES.into_iter()
}

/// A clap parser accepting exactly `names` (the core's table for the flag).
pub fn one_of(names: impl IntoIterator<Item = &'static str>) -> PossibleValuesParser {
    PossibleValuesParser::new(names)
}

/// A flag's help: what it is, then the core's rules for it (its `PolicyError` messages).
fn help(what: &str, rules: &[PolicyError]) -> String {
    let rules: Vec<&str> = rules.iter().map(|e| e.message()).collect();
    if rules.is_empty() {
        what.to_string()
    } else {
        format!("{what} [{}]", rules.join("; "))
    }
}

/// A multiplier as written: `2` is 2/1, `1.6` is 16/10, `3/2` is 3/2. Only the syntax is checked
/// here; the core reduces the fraction and checks its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiplier {
    pub num: u32,
    pub den: u32,
}

const MULTIPLIER_SYNTAX: &str = "expected a multiplier as N, N.DDD or N/D";

pub fn parse_multiplier(text: &str) -> Result<Multiplier, String> {
    let bad = || format!("{MULTIPLIER_SYNTAX} (got '{}')", escape(text));
    // Digits only; a number too large for a u32 saturates, so the core reports it out of range.
    let number = |s: &str| -> Result<u32, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        Ok(s.parse::<u32>().unwrap_or(u32::MAX))
    };
    let (num, den) = if let Some((n, d)) = text.split_once('/') {
        (number(n)?, number(d)?)
    } else if let Some((int, frac)) = text.split_once('.') {
        // 10^9 is the largest power of ten a u32 holds: more decimals cannot be a fraction here.
        let den = u32::try_from(frac.len())
            .ok()
            .and_then(|n| 10u32.checked_pow(n))
            .ok_or_else(bad)?;
        let num = number(int)?
            .saturating_mul(den)
            .saturating_add(number(frac)?);
        (num, den)
    } else {
        (number(text)?, 1)
    };
    Ok(Multiplier { num, den })
}

pub fn parse_seed(text: &str) -> Result<u64, String> {
    let got = escape(text);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "must be an integer in 0..={} (got '{got}')",
            u64::MAX
        ));
    }
    text.parse::<u64>().map_err(|_| {
        format!(
            "must be an integer in 0..={} (got '{got}', too large)",
            u64::MAX
        )
    })
}

/// A parser for an integer flag in `min..=max` whose error names the range, also for negative
/// numbers (with `allow_hyphen_values`, which would otherwise be taken for flags).
pub fn u32_in(min: u32, max: u32) -> impl Fn(&str) -> Result<u32, String> + Clone + Send + Sync {
    move |text: &str| {
        let bad = |why: &str| {
            format!(
                "must be an integer in {min}..={max} (got '{}'{why})",
                escape(text)
            )
        };
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(""));
        }
        match text.parse::<u64>() {
            Ok(n) if n < min as u64 => Err(bad(", too small")),
            Ok(n) if n <= max as u64 => Ok(n as u32),
            _ => Err(bad(", too large")),
        }
    }
}

/// A policy field's value: any `u32` here (the syntax); the core checks the field's range.
fn u32_flag(text: &str) -> Result<u32, String> {
    u32_in(0, u32::MAX)(text)
}

#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Start from this preset; the flags below override its fields.
    #[arg(long, value_parser = one_of(Preset::NAMES), default_value = Preset::NAMES[0])]
    pub preset: String,
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true,
        help = help("First delay's base in ms", &[PolicyError::InitialMs]))]
    pub initial_ms: Option<u32>,
    #[arg(long, value_parser = parse_multiplier, allow_hyphen_values = true, help = help(
        "Growth factor: 2, 1.6 or 3/2",
        &[PolicyError::MultiplierDen, PolicyError::MultiplierBelowOne, PolicyError::MultiplierTooLarge],
    ))]
    pub multiplier: Option<Multiplier>,
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true,
        help = help("Cap on computed delays in ms", &[PolicyError::MaxBackoffMs]))]
    pub max_backoff_ms: Option<u32>,
    /// Retries before giving up (any u32).
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_retries: Option<u32>,
    /// Jitter strategy.
    #[arg(long, value_parser = one_of(Jitter::NAMES))]
    pub jitter: Option<String>,
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true, help = help(
        "Google jitter width in ms; default 1000",
        &[PolicyError::JitterMs, PolicyError::JitterMsNotApplicable],
    ))]
    pub jitter_ms: Option<u32>,
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true, help = help(
        "Proportional jitter half-width in thousandths; default 200",
        &[PolicyError::SpreadPerMille, PolicyError::SpreadNotApplicable],
    ))]
    pub spread_per_mille: Option<u32>,
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true, help = help(
        "Longest server wait (Retry-After, rate-limit reset) in ms; a longer one gives up (hint_exceeds_max); default 300000",
        &[PolicyError::MaxHintMs],
    ))]
    pub max_hint_ms: Option<u32>,
    /// Time budget in ms since the first attempt; 0 = none.
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_elapsed_ms: Option<u32>,
    /// What a delay crossing the time budget does.
    #[arg(long, value_parser = one_of(deadline_names()))]
    pub deadline: Option<String>,
    /// Follow a pacing server: a Retry-After is the wait itself (up to --max-hint-ms), not a
    /// lower bound. Only for a server trusted to pace (SPEC.md §16).
    #[arg(long)]
    pub paced: bool,
}

/// The flag that sets the field a core error is about: the core's field name in kebab case.
fn flag_of(error: PolicyError) -> String {
    let field = error.field().trim_end_matches("_den");
    format!("--{}", field.replace('_', "-"))
}

impl PolicyArgs {
    /// The validated policy, or a one-line message naming the flag and its allowed range. The
    /// preset, overrides and rules are the core's ([`PolicyOptions`]), shared with every binding.
    pub fn to_policy(&self) -> Result<Policy, String> {
        // clap has checked the names against the same tables; a miss is still an error, not a panic.
        let unknown = |flag: &str, name: &str| format!("{flag}: unknown name '{}'", escape(name));
        let preset =
            Preset::from_name(&self.preset).ok_or_else(|| unknown("--preset", &self.preset))?;
        let jitter = match &self.jitter {
            Some(name) => Some(
                Jitter::from_name(name, 0)
                    .ok_or_else(|| unknown("--jitter", name))?
                    .code(),
            ),
            None => None,
        };
        let deadline = match &self.deadline {
            Some(name) => Some(
                (0u8..)
                    .map_while(DeadlineMode::from_code)
                    .find(|mode| mode.name() == name)
                    .ok_or_else(|| unknown("--deadline", name))?,
            ),
            None => None,
        };
        let options = PolicyOptions {
            preset: Some(preset),
            initial_ms: self.initial_ms,
            multiplier: self.multiplier.map(|m| (m.num, m.den)),
            max_backoff_ms: self.max_backoff_ms,
            max_retries: self.max_retries,
            jitter,
            jitter_ms: self.jitter_ms,
            spread_per_mille: self.spread_per_mille,
            max_hint_ms: self.max_hint_ms,
            max_elapsed_ms: self.max_elapsed_ms,
            deadline,
            paced: self.paced.then_some(true),
        };
        options
            .build()
            .map_err(|e| format!("{}: {}", flag_of(e), e.message()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipliers_parse_as_written_fractions() {
        for (text, num, den) in [
            ("2", 2, 1),
            ("1.6", 16, 10),
            ("1.600", 1600, 1000),
            ("3/2", 3, 2),
            ("0.5", 5, 10),
            ("2/0", 2, 0),
            ("99999999999", u32::MAX, 1),
        ] {
            assert_eq!(
                parse_multiplier(text),
                Ok(Multiplier { num, den }),
                "{text}"
            );
        }
        for bad in [
            "",
            "-2",
            "abc",
            "nan",
            "inf",
            "1.",
            ".5",
            "1/",
            "1.2.3",
            "1.0000000000",
        ] {
            assert!(parse_multiplier(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_cover_u64_and_nothing_else() {
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_seed("18446744073709551616").is_err());
        assert!(parse_seed("-1").is_err());
        assert!(parse_seed("").is_err());
    }
}
