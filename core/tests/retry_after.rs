//! `Retry-After` (RFC 9110 §10.2.3, SPEC.md §8.1) case by case: the RFC's examples, calendar
//! edges and the rules where independent tests once found the core off SPEC.md (or SPEC.md off
//! the RFC). Expected values come from the RFC's wording and calendar arithmetic (Unix times from
//! Python's `calendar.timegm`), not from running the code.

use seeded_backoff::{
    http::{parse_grpc_pushback, ParseError},
    parse_retry_after, ServerHint,
};

const SATURATED: u32 = u32::MAX;
const RFC_EXAMPLE: u64 = 784_111_777; // Sun, 06 Nov 1994 08:49:37 GMT

#[test]
fn retry_after_rfc_examples_and_calendar_edges() {
    for v in [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ] {
        assert_eq!(
            parse_retry_after(v.as_bytes(), RFC_EXAMPLE - 10),
            Ok(10_000),
            "{v}"
        );
        assert_eq!(
            parse_retry_after(v.as_bytes(), RFC_EXAMPLE + 10),
            Ok(0),
            "{v} in the past"
        );
    }
    assert_eq!(parse_retry_after(b"120", 0), Ok(120_000));
    assert_eq!(parse_retry_after(b" \t120\t ", 0), Ok(120_000));
    assert_eq!(
        parse_retry_after(b"99999999999999999999999", 0),
        Ok(u32::MAX)
    );
    // Leap years: 2024-02-29 exists, 2023-02-29 and 2100-02-29 do not, 2000-02-29 does.
    assert!(parse_retry_after(b"Thu, 29 Feb 2024 00:00:00 GMT", 0).is_ok());
    assert!(parse_retry_after(b"Tue, 29 Feb 2000 00:00:00 GMT", 0).is_ok());
    assert_eq!(
        parse_retry_after(b"Wed, 29 Feb 2023 00:00:00 GMT", 0),
        Err(ParseError::BadDay)
    );
    assert_eq!(
        parse_retry_after(b"Mon, 29 Feb 2100 00:00:00 GMT", 0),
        Err(ParseError::BadDay)
    );
    assert_eq!(
        parse_retry_after(b"Sun, 30 Feb 2025 00:00:00 GMT", 0),
        Err(ParseError::BadDay)
    );
    // 2^31 s = Tue, 19 Jan 2038 03:14:08 and 2^32 s = Sun, 07 Feb 2106 06:28:16.
    assert_eq!(
        parse_retry_after(b"Tue, 19 Jan 2038 03:14:08 GMT", (1 << 31) - 3),
        Ok(3000)
    );
    assert_eq!(
        parse_retry_after(b"Sun, 07 Feb 2106 06:28:16 GMT", (1 << 32) - 4),
        Ok(4000)
    );
    assert_eq!(
        parse_retry_after(b"Sun, 07 Feb 2106 06:28:16 GMT", 0),
        Ok(u32::MAX)
    );
    assert_eq!(parse_retry_after(b"", 0), Err(ParseError::Empty));
    assert_eq!(parse_retry_after(b"-1", 0), Err(ParseError::Negative));
    assert_eq!(
        parse_retry_after(b"soon", 0),
        Err(ParseError::InvalidFormat)
    );
    assert_eq!(
        parse_retry_after(b"Sun, 06 Nov 1994 24:00:00 GMT", 0),
        Err(ParseError::BadHour)
    );
    assert_eq!(
        parse_retry_after(b"Sun, 06 Nox 1994 08:49:37 GMT", 0),
        Err(ParseError::BadMonth)
    );
    assert_eq!(
        parse_retry_after(b"Fun, 06 Nov 1994 08:49:37 GMT", 0),
        Err(ParseError::BadDayName)
    );
    assert_eq!(parse_grpc_pushback(b"250"), Ok(250));
    assert_eq!(
        ServerHint::from_grpc_pushback(b"-5"),
        ServerHint::DoNotRetry
    );
    assert_eq!(ServerHint::from_grpc_pushback(b""), ServerHint::DoNotRetry);
}

#[test]
fn the_rfc850_fifty_year_rule_compares_timestamps_not_years() {
    // RFC 9110 §5.6.7: "a timestamp that appears to be more than 50 years in the future". Now is
    // 2026-11-30 12:00:00 UTC (1796040000), so the limit is 2076-11-30 12:00:00: later dates are
    // in 1976 (past: 0); up to the limit they are in 2076 (more than 2^32 ms away: saturated).
    let now = 1_796_040_000;
    let cases = [
        ("Tuesday, 01-Dec-76 00:00:00 GMT", 0),
        ("Monday, 30-Nov-76 12:00:01 GMT", 0),
        ("Monday, 30-Nov-76 12:00:00 GMT", SATURATED),
        ("Monday, 30-Nov-76 11:59:59 GMT", SATURATED),
        ("Saturday, 30-Nov-26 12:00:10 GMT", 10_000),
    ];
    for (value, ms) in cases {
        assert_eq!(parse_retry_after(value.as_bytes(), now), Ok(ms), "{value}");
    }
    // Now 2024-02-29 12:00:00 (1709208000): the limit's fields are 2074-02-29 12:00:00.
    let leap = 1_709_208_000;
    assert_eq!(
        parse_retry_after(b"Friday, 01-Mar-74 00:00:00 GMT", leap),
        Ok(0)
    );
    assert_eq!(
        parse_retry_after(b"Thursday, 28-Feb-74 23:59:59 GMT", leap),
        Ok(SATURATED)
    );
}

#[test]
fn the_fifty_year_limit_compares_minutes_and_seconds_too() {
    // Now 2026-11-30 12:34:56 UTC (1796042096, Python's calendar.timegm): the limit is
    // 2076-11-30 12:34:56, so a date past it by a minute or a second is in 1976.
    let now = 1_796_042_096;
    let cases = [
        ("Monday, 30-Nov-76 12:35:00 GMT", 0),
        ("Monday, 30-Nov-76 12:34:57 GMT", 0),
        ("Monday, 30-Nov-76 12:34:56 GMT", SATURATED),
        ("Monday, 30-Nov-76 12:34:00 GMT", SATURATED),
        ("Monday, 30-Nov-76 12:33:59 GMT", SATURATED),
    ];
    for (value, ms) in cases {
        assert_eq!(parse_retry_after(value.as_bytes(), now), Ok(ms), "{value}");
    }
}

#[test]
fn the_fifty_year_limit_follows_now_across_the_end_of_february() {
    // Each day from 20 Feb to 10 Mar of 2026 and of 2100 (neither a leap year: 28 days in
    // February) at 00:00:00 UTC (20 Feb: Python's calendar.timegm). Now's date with 50 added to
    // its year is the limit itself (2076, 2150: saturated); one second later is a century back
    // (1976, 2050: past, 0).
    for (feb_20, yy) in [(1_771_545_600u64, 76), (4_106_764_800, 50)] {
        for i in 0..19u64 {
            let now = feb_20 + i * 86_400;
            let (day, month) = if 20 + i <= 28 {
                (20 + i, "Feb")
            } else {
                (20 + i - 28, "Mar")
            };
            let at = |time: &str| format!("Monday, {day:02}-{month}-{yy} {time} GMT");
            let limit = at("00:00:00");
            let past_it = at("00:00:01");
            assert_eq!(
                parse_retry_after(limit.as_bytes(), now),
                Ok(SATURATED),
                "{limit} at {now}"
            );
            assert_eq!(
                parse_retry_after(past_it.as_bytes(), now),
                Ok(0),
                "{past_it} at {now}"
            );
        }
    }
}

#[test]
fn a_rfc850_date_a_century_back_keeps_its_leap_day() {
    // Now 2101-01-01 00:00:00 UTC (4133980800): 29-Feb-56 in now's century would be 2156-02-29,
    // past the limit 2151-01-01, so it is 2056-02-29, a leap day (2056 = 4 · 514): valid, and in
    // the past.
    assert_eq!(
        parse_retry_after(b"Tuesday, 29-Feb-56 00:00:00 GMT", 4_133_980_800),
        Ok(0)
    );
}

#[test]
fn four_digit_years_before_1970_are_dates_in_the_past() {
    for value in [
        "Wed, 31 Dec 1969 23:59:59 GMT",
        "Sun Nov  6 08:49:37 1960",
        "Mon, 01 Jan 0001 00:00:00 GMT",
        "Tue, 29 Feb 1600 00:00:00 GMT", // 1600 is a leap year (divisible by 400)
    ] {
        assert_eq!(parse_retry_after(value.as_bytes(), 0), Ok(0), "{value}");
    }
    // 0000 is not a year; 1900 is not a leap year.
    assert_eq!(
        parse_retry_after(b"Mon, 01 Jan 0000 00:00:00 GMT", 0),
        Err(ParseError::BadYear)
    );
    assert_eq!(
        parse_retry_after(b"Thu, 29 Feb 1900 00:00:00 GMT", 0),
        Err(ParseError::BadDay)
    );
}

#[test]
fn the_layout_is_checked_before_the_day_name() {
    // SPEC.md §8.1: the layout (every separator, the time's colons included) comes first.
    for value in [
        "Foo, 06 Nov 1994 08-49-37 GMT",
        "Foo Nov  6 08-49-37 1994",
        "Foosday, 06-Nov-94 08.49.37 GMT",
    ] {
        assert_eq!(
            parse_retry_after(value.as_bytes(), 0),
            Err(ParseError::InvalidFormat),
            "{value}"
        );
    }
    assert_eq!(
        parse_retry_after(b"Foo, 06 Nov 1994 08:49:37 GMT", 0),
        Err(ParseError::BadDayName)
    );
}

#[test]
fn any_separator_out_of_place_is_invalid_format() {
    // SPEC.md §8.1: each format's layout is fixed; a byte other than the separator it names
    // (a space, `,`, `-`, `:`, `GMT`) is `invalid_format`. At byte 3 the change also picks
    // RFC 850, whose day name needs a `,` that is not there: `invalid_format` again.
    for (example, gmt) in [
        ("Sun, 06 Nov 1994 08:49:37 GMT", true),
        ("Sunday, 06-Nov-94 08:49:37 GMT", true),
        ("Sun Nov  6 08:49:37 1994", false),
    ] {
        let bytes = example.as_bytes();
        assert!(parse_retry_after(bytes, 0).is_ok(), "{example}");
        let gmt_at = if gmt { bytes.len() - 3 } else { bytes.len() };
        for at in 0..bytes.len() {
            if bytes[at].is_ascii_alphanumeric() && at < gmt_at {
                continue;
            }
            let mut v = bytes.to_vec();
            v[at] = b'x';
            assert_eq!(
                parse_retry_after(&v, 0),
                Err(ParseError::InvalidFormat),
                "{}",
                String::from_utf8_lossy(&v)
            );
        }
    }
}
