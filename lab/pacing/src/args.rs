//! The server's flags, each refused by name when missing or out of range.

use core::fmt;

pub const USAGE: &str = "seeded-backoff-pace-server --answer paced|constant|bare --log PATH \
 [--capacity 100] [--reserve-per-mille 60] [--seed 1] [--port 0] [--max-s 300]";

/// What a 429 carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The core's `PaceLayer` sets its headers on every 429.
    Paced,
    /// `Retry-After: 1` on every 429.
    Constant,
    /// No `Retry-After`.
    Bare,
}

#[derive(Debug)]
pub struct Args {
    pub answer: Answer,
    pub capacity: u32,
    pub reserve_per_mille: u32,
    pub seed: u64,
    pub port: u16,
    pub log: String,
    pub max_s: u64,
}

/// Why the flags were refused.
#[derive(Debug, PartialEq, Eq)]
pub enum ArgsError {
    Unknown(String),
    NoValue(&'static str),
    BadValue(&'static str, String),
    Missing(&'static str),
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsError::Unknown(flag) => write!(f, "unknown flag {flag:?}"),
            ArgsError::NoValue(flag) => write!(f, "{flag} needs a value"),
            ArgsError::BadValue(flag, v) => write!(f, "{flag}: {v:?} is out of its range"),
            ArgsError::Missing(flag) => write!(f, "{flag} is required"),
        }
    }
}

fn number<T: core::str::FromStr + PartialOrd>(
    flag: &'static str,
    value: &str,
    range: core::ops::RangeInclusive<T>,
) -> Result<T, ArgsError> {
    match value.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(ArgsError::BadValue(flag, value.to_owned())),
    }
}

impl Args {
    pub fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, ArgsError> {
        let (mut answer, mut log) = (None, None);
        let mut args = Args {
            answer: Answer::Bare,
            capacity: 100,
            reserve_per_mille: 60,
            seed: 1,
            port: 0,
            log: String::new(),
            max_s: 300,
        };
        while let Some(flag) = argv.next() {
            let name: &'static str = match flag.as_str() {
                "--answer" => "--answer",
                "--capacity" => "--capacity",
                "--reserve-per-mille" => "--reserve-per-mille",
                "--seed" => "--seed",
                "--port" => "--port",
                "--log" => "--log",
                "--max-s" => "--max-s",
                _ => return Err(ArgsError::Unknown(flag)),
            };
            let value = argv.next().ok_or(ArgsError::NoValue(name))?;
            match name {
                "--answer" => {
                    answer = Some(match value.as_str() {
                        "paced" => Answer::Paced,
                        "constant" => Answer::Constant,
                        "bare" => Answer::Bare,
                        _ => return Err(ArgsError::BadValue(name, value)),
                    })
                }
                "--capacity" => args.capacity = number(name, &value, 1..=1_000_000)?,
                "--reserve-per-mille" => args.reserve_per_mille = number(name, &value, 0..=999)?,
                "--seed" => args.seed = number(name, &value, 0..=u64::MAX)?,
                "--port" => args.port = number(name, &value, 0..=u16::MAX)?,
                "--log" if !value.is_empty() => log = Some(value),
                "--log" => return Err(ArgsError::BadValue(name, value)),
                _ => args.max_s = number(name, &value, 1..=3600)?,
            }
        }
        args.answer = answer.ok_or(ArgsError::Missing("--answer"))?;
        args.log = log.ok_or(ArgsError::Missing("--log"))?;
        Ok(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, ArgsError> {
        Args::parse(line.split_whitespace().map(String::from))
    }

    #[test]
    fn flags_are_read_and_refused_by_name() {
        let a = parse("--answer paced --log x --capacity 7 --max-s 9").unwrap();
        assert_eq!((a.answer, a.capacity, a.max_s), (Answer::Paced, 7, 9));
        assert_eq!((a.reserve_per_mille, a.seed, a.port), (60, 1, 0));
        assert_eq!(
            parse("--answer slow").unwrap_err(),
            ArgsError::BadValue("--answer", "slow".into())
        );
        assert_eq!(
            parse("--answer bare").unwrap_err(),
            ArgsError::Missing("--log")
        );
        assert_eq!(
            parse("--answer bare --log x --capacity 0").unwrap_err(),
            ArgsError::BadValue("--capacity", "0".into())
        );
        assert_eq!(parse("--seed").unwrap_err(), ArgsError::NoValue("--seed"));
        assert_eq!(parse("-x").unwrap_err(), ArgsError::Unknown("-x".into()));
    }
}
