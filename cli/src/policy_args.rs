//! Policy flags shared by the subcommands, and their translation into a validated core `Policy`.

use clap::{Args, ValueEnum};
use seeded_backoff::bindings::PolicyOptions;
use seeded_backoff::{DeadlineMode, Policy, PolicyError};

/// The presets, by the names every binding uses (the npm package's `preset` option, the core's
/// constructors); the CLI's first spellings stay accepted as aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Preset {
    /// Google Cloud: 1 s, ×2, +0..=1000 ms, cap 32 s, 10 retries.
    Google,
    /// Google Cloud with a 64 s cap.
    #[value(name = "google_64s", alias = "google-64s")]
    Google64s,
    /// AWS standard: full jitter, 100 ms, cap 20 s, 2 retries.
    #[value(name = "aws_standard", alias = "aws")]
    AwsStandard,
    /// gRPC: 1 s, ×1.6, ±20 %, cap 120 s.
    Grpc,
}

impl Preset {
    /// The core's preset of the same name.
    pub fn core(self) -> seeded_backoff::Preset {
        match self {
            Preset::Google => seeded_backoff::Preset::Google,
            Preset::Google64s => seeded_backoff::Preset::Google64s,
            Preset::AwsStandard => seeded_backoff::Preset::AwsStandard,
            Preset::Grpc => seeded_backoff::Preset::Grpc,
        }
    }
}

/// Jitter strategy names (SPEC.md §2), in the core's code order (`as u8` is the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum JitterName {
    None,
    Google,
    Full,
    Equal,
    Decorrelated,
    Proportional,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadlineName {
    #[value(name = "give_up", alias = "give-up")]
    GiveUp,
    Clamp,
}

/// A multiplier given as `2`, `1.6` (up to three decimals) or `3/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiplier {
    pub num: u32,
    pub den: u32,
}

const MULTIPLIER_RANGE: &str =
    "expected a multiplier in 1..=1000 as N, N.DDD (up to 3 decimals) or N/D with D in 1..=1000";

pub fn parse_multiplier(text: &str) -> Result<Multiplier, String> {
    let bad = || format!("{MULTIPLIER_RANGE} (got '{text}')");
    let number = |s: &str| -> Result<u32, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<u32>().map_err(|_| bad())
    };
    let (num, den) = if let Some((n, d)) = text.split_once('/') {
        (number(n)?, number(d)?)
    } else if let Some((int, frac)) = text.split_once('.') {
        if frac.is_empty() || frac.len() > 3 {
            return Err(bad());
        }
        let den = 10u32.pow(frac.len() as u32);
        let num = number(int)?
            .checked_mul(den)
            .and_then(|n| n.checked_add(number(frac).ok()?))
            .ok_or_else(bad)?;
        (num, den)
    } else {
        (number(text)?, 1)
    };
    // Reduce so that 1.600 and 8/5 are the same policy (and the same fingerprint).
    let g = gcd(num, den).max(1);
    let (num, den) = (num / g, den / g);
    if den == 0
        || den > 1000
        || num < den
        || num / den > 1000
        || (num / den == 1000 && num % den != 0)
    {
        return Err(bad());
    }
    Ok(Multiplier { num, den })
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub fn parse_seed(text: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "must be an integer in 0..=18446744073709551615 (got '{text}')"
        ));
    }
    text.parse::<u64>().map_err(|_| {
        format!("must be an integer in 0..=18446744073709551615 (got '{text}', too large)")
    })
}

/// A parser for an integer flag in `min..=max` whose error names the range, also for negative
/// numbers (with `allow_hyphen_values`, which would otherwise be taken for flags).
pub fn u32_in(min: u32, max: u32) -> impl Fn(&str) -> Result<u32, String> + Clone + Send + Sync {
    move |text: &str| {
        let bad = |why: &str| format!("must be an integer in {min}..={max} (got '{text}'{why})");
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

fn u32_flag(text: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "must be an integer in 0..=4294967295 (got '{text}')"
        ));
    }
    text.parse::<u32>()
        .map_err(|_| format!("must be an integer in 0..=4294967295 (got '{text}', too large)"))
}

#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Start from this preset; the flags below override its fields.
    #[arg(long, value_enum, default_value = "google")]
    pub preset: Preset,
    /// First delay's base in ms (1..=2147483647).
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub initial_ms: Option<u32>,
    /// Growth factor: 2, 1.6 or 3/2 (1..=1000, up to 3 decimals).
    #[arg(long, value_parser = parse_multiplier, allow_hyphen_values = true)]
    pub multiplier: Option<Multiplier>,
    /// Cap on computed delays in ms (initial-ms..=2147483647).
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_backoff_ms: Option<u32>,
    /// Retries before giving up (0..=4294967295).
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_retries: Option<u32>,
    /// Jitter strategy.
    #[arg(long, value_enum)]
    pub jitter: Option<JitterName>,
    /// Google jitter width in ms (0..=max-backoff-ms); default 1000.
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub jitter_ms: Option<u32>,
    /// Proportional jitter half-width in thousandths (0..=1000); default 200.
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub spread_per_mille: Option<u32>,
    /// Largest honoured Retry-After hint in ms (0..=2147483647); default the cap.
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_hint_ms: Option<u32>,
    /// Time budget in ms since the first attempt; 0 = none.
    #[arg(long, value_parser = u32_flag, allow_hyphen_values = true)]
    pub max_elapsed_ms: Option<u32>,
    /// What a delay crossing the time budget does.
    #[arg(long, value_enum)]
    pub deadline: Option<DeadlineName>,
}

/// The flag that sets the field a core error is about: the core's field name in kebab case.
fn flag_of(error: PolicyError) -> String {
    let field = error.field().trim_end_matches("_den");
    format!("--{}", field.replace('_', "-"))
}

impl PolicyArgs {
    /// The validated policy, or a one-line message naming the flag and its allowed range. The
    /// preset, overrides and applicability rules are the core's ([`PolicyOptions`]), shared with
    /// the npm package.
    pub fn to_policy(&self) -> Result<Policy, String> {
        let options = PolicyOptions {
            preset: Some(self.preset.core()),
            initial_ms: self.initial_ms,
            multiplier: self.multiplier.map(|m| (m.num, m.den)),
            max_backoff_ms: self.max_backoff_ms,
            max_retries: self.max_retries,
            jitter: self.jitter.map(|j| j as u8),
            jitter_ms: self.jitter_ms,
            spread_per_mille: self.spread_per_mille,
            max_hint_ms: self.max_hint_ms,
            max_elapsed_ms: self.max_elapsed_ms,
            deadline: self.deadline.map(|d| match d {
                DeadlineName::GiveUp => DeadlineMode::GiveUp,
                DeadlineName::Clamp => DeadlineMode::Clamp,
            }),
        };
        options
            .build()
            .map_err(|e| format!("{}: {}", flag_of(e), e.message()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn multipliers_parse_as_reduced_fractions() {
        assert_eq!(parse_multiplier("2"), Ok(Multiplier { num: 2, den: 1 }));
        assert_eq!(parse_multiplier("1.6"), Ok(Multiplier { num: 8, den: 5 }));
        assert_eq!(parse_multiplier("1.600"), Ok(Multiplier { num: 8, den: 5 }));
        assert_eq!(parse_multiplier("3/2"), Ok(Multiplier { num: 3, den: 2 }));
        assert_eq!(parse_multiplier("1"), Ok(Multiplier { num: 1, den: 1 }));
        for bad in [
            "0.5", "0", "", "-2", "1.2345", "2/0", "abc", "1/1001", "1001", "nan", "inf",
        ] {
            assert!(parse_multiplier(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn jitter_names_are_the_cores_in_code_order() {
        for (code, name) in seeded_backoff::Jitter::NAMES.iter().enumerate() {
            let j = JitterName::from_str(name, false).unwrap();
            assert_eq!(j as usize, code);
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
