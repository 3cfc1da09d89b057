//! Which outcomes are worth retrying (SPEC.md §7): Google retries 5xx and 429, nothing else.

use crate::coded_enum::coded_enum;

coded_enum! {
    /// What to do with an outcome. The codes are the C ABI's `SB_CLASS_*` and the npm package's.
    pub enum Classification {
        /// It worked: call [`Backoff::reset`](crate::Backoff::reset) if the state is reused.
        Success = 0, "success";
        /// A transient failure: ask the backoff for a delay.
        Retry = 1, "retry";
        /// A permanent failure: report it now.
        DoNotRetry = 2, "do_not_retry";
        /// Not a valid status at all.
        Invalid = 3, "invalid";
    }
}

/// Classifies an HTTP status: 2xx success; 429 and 5xx retry; other 100–599 do not retry; anything
/// else is invalid.
///
/// It takes a `u16`, the type of `http::StatusCode::as_u16()` (hyper, reqwest, axum), so
/// `classify_http(resp.status().as_u16())` needs no cast. A binding holding a wider integer maps
/// values above `u16::MAX` to [`Classification::Invalid`].
///
/// ```
/// use seeded_backoff::{classify_http, Classification};
/// assert_eq!(classify_http(503), Classification::Retry);
/// assert_eq!(classify_http(429), Classification::Retry);
/// assert_eq!(classify_http(404), Classification::DoNotRetry);
/// assert_eq!(classify_http(204), Classification::Success);
/// assert_eq!(classify_http(600), Classification::Invalid);
/// ```
pub const fn classify_http(status: u16) -> Classification {
    match status {
        200..=299 => Classification::Success,
        429 | 500..=599 => Classification::Retry,
        100..=599 => Classification::DoNotRetry,
        _ => Classification::Invalid,
    }
}

/// Whether an HTTP status should be retried (429 or 5xx).
pub const fn is_retryable_http(status: u16) -> bool {
    matches!(classify_http(status), Classification::Retry)
}

/// Classifies a gRPC status code: OK success; UNAVAILABLE (14) and RESOURCE_EXHAUSTED (8) retry;
/// other codes up to 16 do not retry; above 16 is invalid.
///
/// ```
/// use seeded_backoff::http::classify_grpc;
/// use seeded_backoff::Classification;
/// assert_eq!(classify_grpc(14), Classification::Retry);
/// assert_eq!(classify_grpc(5), Classification::DoNotRetry);
/// ```
pub const fn classify_grpc(code: u32) -> Classification {
    match code {
        0 => Classification::Success,
        8 | 14 => Classification::Retry,
        1..=16 => Classification::DoNotRetry,
        _ => Classification::Invalid,
    }
}

/// RFC 9110 §9.2.2's idempotent methods, upper case, as HTTP sends them: repeating one of these
/// cannot repeat an effect. CONNECT is left out: it opens a tunnel, not a request to repeat.
pub const IDEMPOTENT_METHODS: [&str; 6] = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"];

/// Whether an HTTP method is idempotent (RFC 9110 §9.2.2; SPEC.md §7.1). Method names are
/// case-sensitive, so `"get"` is not `GET`.
///
/// ```
/// use seeded_backoff::http::is_idempotent_method;
/// assert!(is_idempotent_method(b"PUT"));
/// assert!(!is_idempotent_method(b"POST"));
/// assert!(!is_idempotent_method(b"get"));
/// ```
pub fn is_idempotent_method(method: &[u8]) -> bool {
    IDEMPOTENT_METHODS.iter().any(|m| m.as_bytes() == method)
}

/// The methods a client that follows the Fetch standard sends upper-cased, whatever case it was
/// given ("normalize a method"): a method equal to one of these but for ASCII case goes on the
/// wire as this name; any other goes as given (SPEC.md §7.1).
pub const NORMALIZED_METHODS: [&str; 6] = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];

/// The method as a client that follows the Fetch standard sends it (SPEC.md §7.1): one of
/// [`NORMALIZED_METHODS`] but for ASCII case is that name, any other is unchanged. A binding over
/// such a client (npm's `fetchWithBackoff`) gives [`request_may_retry`] this form, the one on the
/// wire, and compares the caller's own method names in it too.
///
/// ```
/// use seeded_backoff::http::normalize_method;
/// assert_eq!(normalize_method(b"get"), b"GET");
/// assert_eq!(normalize_method(b"Delete"), b"DELETE");
/// assert_eq!(normalize_method(b"patch"), b"patch"); // not one of the six: sent as given
/// assert_eq!(normalize_method(b"trace"), b"trace");
/// ```
pub fn normalize_method(method: &[u8]) -> &[u8] {
    NORMALIZED_METHODS
        .iter()
        .map(|m| m.as_bytes())
        .find(|m| m.eq_ignore_ascii_case(method))
        .unwrap_or(method)
}

/// The header that makes a request of any method safe to repeat: the server applies a request
/// with a given key at most once (draft-ietf-httpapi-idempotency-key-header).
pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";

/// Whether a request may be sent again after a failure (SPEC.md §7.1): its method is idempotent,
/// or it carries an `Idempotency-Key` header. Another request (a POST, which might charge a card
/// twice) is sent once.
///
/// ```
/// use seeded_backoff::http::request_may_retry;
/// assert!(request_may_retry(b"GET", false));
/// assert!(request_may_retry(b"POST", true));
/// assert!(!request_may_retry(b"POST", false));
/// ```
pub fn request_may_retry(method: &[u8], has_idempotency_key: bool) -> bool {
    has_idempotency_key || is_idempotent_method(method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_six_names_are_normalised_and_only_by_ascii_case() {
        for m in NORMALIZED_METHODS {
            let lower = m.to_ascii_lowercase();
            assert_eq!(normalize_method(lower.as_bytes()), m.as_bytes());
        }
        assert_eq!(normalize_method(b"pUt"), b"PUT");
        // U+017F (long s) upper-cases to S in Unicode, not in ASCII: no POST.
        assert_eq!(
            normalize_method("po\u{17f}t".as_bytes()),
            "po\u{17f}t".as_bytes()
        );
        for as_given in [&b"patch"[..], b"connect", b"trace", b"GETS", b"", b"GET "] {
            assert_eq!(normalize_method(as_given), as_given);
        }
        // The rule reads the normalised form: `get` is GET on the wire, `trace` is not TRACE.
        assert!(request_may_retry(normalize_method(b"get"), false));
        assert!(!request_may_retry(normalize_method(b"trace"), false));
    }
}
