//! Values at the edges of the types, as the bindings hand them over: header bytes that are not
//! ASCII (the UTF-8 of a lone surrogate, overlong and invalid UTF-8), digit strings far beyond
//! `u64`, and integers at `u32::MAX`. Expected values are SPEC.md's: no byte outside ASCII is a
//! digit or a date (§8.1), bytes inside a `RateLimit` quoted string are skipped (§8.3.3), digits
//! saturate, and an out-of-range code or parameter is an answer or a typed error, never a panic.

use seeded_backoff::{
    budget::{BudgetConfig, BudgetError},
    classify_http,
    http::{
        classify_grpc, is_retryable_http, parse_rate_limit, rate_limit_applies, ParseError,
        RateLimitHeader as H,
    },
    parse_retry_after, Classification, ServerHint,
};

/// The UTF-8 a lone surrogate becomes when encoded anyway (CESU-8 / WTF-8), invalid UTF-8, an
/// overlong '1', and a fullwidth digit seven.
const NOT_ASCII: [&[u8]; 5] = [
    b"\xED\xA0\x80",
    b"12\xED\xB0\x80",
    b"\xFF\xFE1",
    b"\xC0\xB1",
    b"\xEF\xBC\x97",
];

#[test]
fn retry_after_bytes_outside_ascii_are_invalid_format() {
    for value in NOT_ASCII {
        assert_eq!(
            parse_retry_after(value, 0),
            Err(ParseError::InvalidFormat),
            "{value:?}"
        );
    }
    let date = b"Sun, 06 Nov 1994 08:49:37 GMT\xED\xA0\x80";
    assert_eq!(parse_retry_after(date, 0), Err(ParseError::InvalidFormat));
}

#[test]
fn rate_limit_bytes_outside_ascii_are_invalid_format_anywhere() {
    for header in [
        H::RateLimitReset,
        H::XRateLimitReset,
        H::XRateLimitRetryAfter,
    ] {
        for value in NOT_ASCII {
            let got = parse_rate_limit(header, value, 0);
            assert_eq!(got, Err(ParseError::InvalidFormat), "{header:?} {value:?}");
        }
    }
    // A byte outside ASCII is invalid_format anywhere (§8), a quoted quota name included: the
    // answer is the same whatever encoding a text binding's library decoded the bytes with.
    let quoted = b"\"\xED\xA0\x80\xFF\";r=0;t=7";
    assert_eq!(
        parse_rate_limit(H::RateLimit, quoted, 0),
        Err(ParseError::InvalidFormat)
    );
    let unquoted = b"\xED\xA0\x80;r=0;t=7";
    assert_eq!(
        parse_rate_limit(H::RateLimit, unquoted, 0),
        Err(ParseError::InvalidFormat)
    );
    assert_eq!(
        parse_rate_limit(H::RateLimit, "\"d\u{e9}faut\";r=0;t=7".as_bytes(), 0),
        Err(ParseError::InvalidFormat)
    );
    assert_eq!(
        parse_rate_limit(H::RateLimit, b"\"default\";r=0;t=7", 0),
        Ok(7000)
    );
    assert_eq!(
        parse_rate_limit(H::RateLimit, b"\"q\";r=0;t=7\xED", 0),
        Err(ParseError::InvalidFormat)
    );
}

#[test]
fn digit_strings_far_beyond_u64_saturate() {
    let digits = [b'9'; 400];
    assert_eq!(parse_retry_after(&digits, 0), Ok(u32::MAX));
    assert_eq!(parse_retry_after(&digits, u64::MAX), Ok(u32::MAX));
    for header in [H::RateLimitReset, H::XRateLimitRetryAfter] {
        assert_eq!(
            parse_rate_limit(header, &digits, 0),
            Ok(u32::MAX),
            "{header:?}"
        );
    }
    // Above 10^9 X-RateLimit-Reset is a Unix time, both sides saturating at 2^64 - 1 ms (§8.3.2):
    // far ahead of a clock at 0, and no later than a clock at u64::MAX.
    assert_eq!(
        parse_rate_limit(H::XRateLimitReset, &digits, 0),
        Ok(u32::MAX)
    );
    assert_eq!(
        parse_rate_limit(H::XRateLimitReset, &digits, u64::MAX),
        Ok(0)
    );
}

#[test]
fn an_unreadable_retry_after_leaves_the_next_header_to_decide() {
    let reset = |h: H| (h == H::XRateLimitReset).then_some(&b"20"[..]);
    for value in NOT_ASCII {
        let hint = ServerHint::from_http_headers(429, Some(value), reset, 0);
        assert_eq!(
            hint,
            Some(ServerHint::RateLimitResetMs(20_000)),
            "{value:?}"
        );
        assert_eq!(
            ServerHint::from_http_headers(503, Some(value), reset, 0),
            None
        );
    }
}

#[test]
fn codes_at_the_types_limits_are_invalid() {
    assert_eq!(classify_grpc(u32::MAX), Classification::Invalid);
    assert_eq!(classify_grpc(17), Classification::Invalid);
    assert_eq!(classify_http(u16::MAX), Classification::Invalid);
    assert!(!is_retryable_http(u16::MAX) && !rate_limit_applies(u16::MAX));
}

#[test]
fn budget_parameters_at_u32_max_are_typed_errors_naming_the_field() {
    let cases = [
        (
            BudgetConfig::grpc(10, u32::MAX).err(),
            BudgetError::TokenRatio,
        ),
        (
            BudgetConfig::grpc(u32::MAX, 100).err(),
            BudgetError::MaxTokens,
        ),
        (
            BudgetConfig::aws_quota(u32::MAX, 5, 10, 1).err(),
            BudgetError::Capacity,
        ),
        (
            BudgetConfig::aws_quota(500, u32::MAX, 10, 1).err(),
            BudgetError::Cost,
        ),
        (
            BudgetConfig::aws_quota(500, 5, 10, u32::MAX).err(),
            BudgetError::NoRetryIncrement,
        ),
    ];
    for (got, want) in cases {
        // Each case gives u32::MAX for the field its error names.
        let got = got.unwrap();
        assert_eq!(got.error, want);
        assert!(want.message().contains(want.name()), "{want:?}");
        assert_eq!(
            got.to_string(),
            format!("{}, got 4294967295", want.message())
        );
    }
}
