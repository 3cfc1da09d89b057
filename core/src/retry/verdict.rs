//! What a retry loop's classifier says about a failed attempt ([`Verdict`]) and what the loop
//! returns when it stops without a success ([`RetryError`]).

use core::fmt;

use crate::backoff::GiveUpReason;
use crate::budget::FailureKind;
use crate::hint::ServerHint;
use crate::run::Outcome;

/// What the classifier says about a failed attempt. `true` converts to [`Verdict::RETRY`] and
/// `false` to [`Verdict::Stop`], so a plain `|e| e.is_transient()` is a classifier too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Do not retry: the error is returned to the caller now.
    Stop,
    /// Retry after the backoff's delay.
    Retry {
        /// The server's hint (a parsed `Retry-After` is a lower bound; `DoNotRetry` gives up).
        hint: Option<ServerHint>,
        /// What kind of failure it was, for a retry budget.
        kind: FailureKind,
    },
}

impl Verdict {
    /// Retry an ordinary error, with no hint.
    pub const RETRY: Verdict = Verdict::Retry {
        hint: None,
        kind: FailureKind::Error,
    };

    /// Retry, honouring the server's hint.
    ///
    /// ```
    /// use seeded_backoff::{parse_retry_after, ServerHint, Verdict};
    /// let ms = parse_retry_after(b"3", 0).unwrap();
    /// let verdict = Verdict::with_hint(ServerHint::RetryAfterMs(ms));
    /// assert!(matches!(verdict, Verdict::Retry { hint: Some(ServerHint::RetryAfterMs(3000)), .. }));
    /// ```
    pub const fn with_hint(hint: ServerHint) -> Verdict {
        Verdict::Retry {
            hint: Some(hint),
            kind: FailureKind::Error,
        }
    }
}

impl From<Verdict> for Outcome {
    fn from(verdict: Verdict) -> Outcome {
        match verdict {
            Verdict::Stop => Outcome::Permanent,
            Verdict::Retry { hint, kind } => Outcome::Retryable { hint, kind },
        }
    }
}

impl From<bool> for Verdict {
    fn from(retry: bool) -> Verdict {
        if retry {
            Verdict::RETRY
        } else {
            Verdict::Stop
        }
    }
}

/// Why a retry loop stopped without a success: the last error (`cause`, as in every binding), how
/// many attempts were made, and the give-up reason (`None` when the classifier said
/// [`Verdict::Stop`]).
#[derive(Debug, PartialEq, Eq)]
pub struct RetryError<E> {
    /// The error of the last attempt.
    pub cause: E,
    /// Attempts made, the first one included.
    pub attempts: u32,
    /// Why the backoff gave up; `None` if the classifier said the error is permanent.
    pub reason: Option<GiveUpReason>,
}

impl<E: fmt::Display> fmt::Display for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Some(reason) => write!(
                f,
                "gave up after {} attempts ({reason}): {}",
                self.attempts, self.cause
            ),
            None => write!(
                f,
                "permanent error after {} attempts: {}",
                self.attempts, self.cause
            ),
        }
    }
}

/// The cause is the error's source, so an error report walks from the give-up to what the last
/// attempt failed with.
///
/// ```
/// use core::error::Error;
/// use seeded_backoff::{GiveUpReason, PolicyError, RetryError};
/// let e = RetryError { cause: PolicyError::InitialMs, attempts: 3, reason: Some(GiveUpReason::MaxRetries) };
/// assert_eq!(e.source().map(|s| s.to_string()), Some(PolicyError::InitialMs.to_string()));
/// ```
impl<E: core::error::Error + 'static> core::error::Error for RetryError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.cause)
    }
}
