//! What a retry loop's classifier says about a failed attempt ([`Verdict`]) and what the loop
//! returns when it stops without a success ([`RetryError`]).

use core::fmt;

use crate::backoff::GiveUpReason;
use crate::budget::FailureKind;
use crate::classify::{classify_http, Classification};
use crate::hint::ServerHint;
use crate::run::Outcome;
use crate::send_rate::Answer;

/// What the classifier says about a failed attempt. `true` converts to [`Verdict::RETRY`] and
/// `false` to [`Verdict::Stop`], so a plain `|e| e.is_transient()` is a classifier too.
///
/// A classifier that knows the server's answer says so for a loop's send rate (SPEC.md §15.2):
/// [`Verdict::from_status`] reads it from an HTTP status as SPEC.md §17.3 does, and
/// [`Verdict::throttled`] says "refused for rate" of any protocol's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Do not retry: the error is returned to the caller now.
    Stop,
    /// Retry after the backoff's delay.
    Retry {
        /// The server's hint (a parsed `Retry-After` is a lower bound; `DoNotRetry` gives up).
        hint: Option<ServerHint>,
        /// What kind of failure it was, for a retry budget.
        failure_kind: FailureKind,
        /// The server's answer for a send rate, when the classifier knows it; with `None` the
        /// loop tells the outcome's own ([`answer_of`](crate::run::answer_of): a `Retry-After` or
        /// rate-limit hint is a throttle, anything else no answer).
        answer: Option<Answer>,
    },
}

impl Verdict {
    /// Retry an ordinary error, with no hint.
    pub const RETRY: Verdict = Verdict::Retry {
        hint: None,
        failure_kind: FailureKind::Error,
        answer: None,
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
            failure_kind: FailureKind::Error,
            answer: None,
        }
    }

    /// Retry a refusal for rate (a 429, a gRPC `RESOURCE_EXHAUSTED`), honouring the server's hint
    /// if any: a loop's send rate is told [`Answer::Throttled`] with the hint's ms (0 for none),
    /// so it cuts its rate even when the server gave no `Retry-After`.
    ///
    /// ```
    /// use seeded_backoff::send_rate::Answer;
    /// use seeded_backoff::{ServerHint, Verdict};
    /// assert_eq!(Verdict::throttled(None).answer(), Some(Answer::Throttled { hint_ms: 0 }));
    /// let hinted = Verdict::throttled(Some(ServerHint::RetryAfterMs(2_000)));
    /// assert_eq!(hinted.answer(), Some(Answer::Throttled { hint_ms: 2_000 }));
    /// ```
    pub const fn throttled(hint: Option<ServerHint>) -> Verdict {
        Verdict::Retry {
            hint,
            failure_kind: FailureKind::Error,
            answer: Some(Answer::throttle(hint)),
        }
    }

    /// The verdict on an HTTP status and the hint its headers give (`ServerHint::from_http_headers`):
    /// a 429 or 5xx ([`classify_http`]) is a retry with that hint, carrying the answer
    /// [`Answer::from_http`] reads (SPEC.md §17.3: a 429, or a 503 with a hint, is a throttle;
    /// any other response was accepted); any other status, success included, is
    /// [`Verdict::Stop`].
    ///
    /// ```
    /// use seeded_backoff::send_rate::Answer;
    /// use seeded_backoff::{ServerHint, Verdict};
    /// assert_eq!(Verdict::from_status(429, None), Verdict::throttled(None));
    /// assert_eq!(Verdict::from_status(500, None).answer(), Some(Answer::Accepted));
    /// assert_eq!(Verdict::from_status(404, None), Verdict::Stop);
    /// ```
    pub const fn from_status(status: u16, hint: Option<ServerHint>) -> Verdict {
        match classify_http(status) {
            Classification::Retry => Verdict::Retry {
                hint,
                failure_kind: FailureKind::Error,
                answer: Some(Answer::from_http(status, hint)),
            },
            _ => Verdict::Stop,
        }
    }

    /// The answer the classifier gives a send rate, if any: `None` for [`Verdict::Stop`] (a
    /// loop tells a stop as accepted) and for a retry that leaves it to the loop.
    pub const fn answer(&self) -> Option<Answer> {
        match self {
            Verdict::Stop => None,
            Verdict::Retry { answer, .. } => *answer,
        }
    }
}

impl From<Verdict> for Outcome {
    fn from(verdict: Verdict) -> Outcome {
        match verdict {
            Verdict::Stop => Outcome::Permanent,
            Verdict::Retry {
                hint,
                failure_kind: kind,
                ..
            } => Outcome::Retryable {
                hint,
                failure_kind: kind,
            },
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
/// use seeded_backoff::policy::PolicyError;
/// use seeded_backoff::{GiveUpReason, RetryError};
/// let e = RetryError { cause: PolicyError::InitialMs, attempts: 3, reason: Some(GiveUpReason::MaxRetries) };
/// assert_eq!(e.source().map(|s| s.to_string()), Some(PolicyError::InitialMs.to_string()));
/// ```
impl<E: core::error::Error + 'static> core::error::Error for RetryError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.cause)
    }
}
