//! The error of [`PolicyBuilder::build`](super::PolicyBuilder::build): the rule a field broke,
//! and the value given for it, so that a message reads as Python's and the CLI's do ("got 500").

use core::fmt;

use super::PolicyError;

/// A policy the builder refused: the field's rule ([`PolicyError`], which names the field and its
/// allowed range) and the value given for it.
///
/// ```
/// use seeded_backoff::policy::PolicyError;
/// use seeded_backoff::Policy;
/// let err = Policy::builder().initial_ms(1000).max_backoff_ms(500).build().unwrap_err();
/// assert_eq!(err.error, PolicyError::MaxBackoffMs);
/// assert_eq!(err.to_string(), "max_backoff_ms must be in initial_ms..=2147483647, got 500");
/// let err = Policy::builder().multiplier(1, 2).build().unwrap_err();
/// assert_eq!(err.to_string(), "multiplier must be >= 1 (num >= den), got 1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidPolicy {
    /// The rule broken: which field, and its allowed range.
    pub error: PolicyError,
    /// The value given for the field (the multiplier's numerator for the multiplier's rules).
    pub got: u32,
    /// The multiplier's denominator for `MultiplierBelowOne` and `MultiplierTooLarge`; 1 otherwise.
    pub den: u32,
}

impl InvalidPolicy {
    pub(crate) const fn new(error: PolicyError, got: u32) -> InvalidPolicy {
        InvalidPolicy { error, got, den: 1 }
    }

    /// The rule's static message (what [`const_policy!`](crate::const_policy) stops a build
    /// with, where no value can be formatted).
    pub const fn message(self) -> &'static str {
        self.error.message()
    }
}

impl fmt::Display for InvalidPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            PolicyError::MultiplierBelowOne | PolicyError::MultiplierTooLarge => {
                write!(f, "{}, got {}/{}", self.message(), self.got, self.den)
            }
            _ => write!(f, "{}, got {}", self.message(), self.got),
        }
    }
}

/// The rule broken is the source: a report that walks errors reaches the bare rule.
impl core::error::Error for InvalidPolicy {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}
