//! The error of a constructor that checks the values it is given: the rule a field broke and the
//! value given for it, so that a message reads as Python's and the CLI's do ("got 500").

use core::fmt;

/// A value refused: the rule it broke (`error`, whose message names the field and its allowed
/// range) and the value given for that field. Every constructor that checks its arguments returns
/// one: [`PolicyBuilder::build`](crate::PolicyBuilder::build) (`Invalid<PolicyError>`), the
/// budgets', the send rate's, the pacer's, the startup delay's and the reconnect loop's.
///
/// ```
/// use seeded_backoff::policy::PolicyError;
/// use seeded_backoff::{Invalid, Policy};
/// let err = Policy::builder().initial_ms(1000).max_backoff_ms(500).build().unwrap_err();
/// assert_eq!(err, Invalid { error: PolicyError::MaxBackoffMs, got: 500, den: None });
/// assert_eq!(err.to_string(), "max_backoff_ms must be in initial_ms..=2147483647, got 500");
/// let err = Policy::builder().multiplier(1, 2).build().unwrap_err();
/// assert_eq!(err.to_string(), "multiplier must be >= 1 (num >= den), got 1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invalid<E> {
    /// The rule broken: which field, and its allowed range.
    pub error: E,
    /// The value given for the field (a ratio's numerator).
    pub got: u32,
    /// A ratio's denominator (the policy's multiplier, given as `num / den`); `None` for a whole
    /// number.
    pub den: Option<u32>,
}

impl<E> Invalid<E> {
    /// `error`, for the whole number `got`.
    pub(crate) const fn new(error: E, got: u32) -> Invalid<E> {
        Invalid {
            error,
            got,
            den: None,
        }
    }
}

impl<E: fmt::Display> fmt::Display for Invalid<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.den {
            Some(den) => write!(f, "{}, got {}/{}", self.error, self.got, den),
            None => write!(f, "{}, got {}", self.error, self.got),
        }
    }
}

/// The rule broken is the source: a report that walks errors reaches the bare rule.
impl<E: core::error::Error + 'static> core::error::Error for Invalid<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}
