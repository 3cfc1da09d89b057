//! Hand-derived cases for four rules where independent tests found the core off SPEC.md (or
//! SPEC.md off RFC 9110). Expected values come from the RFC's wording and calendar arithmetic
//! (Unix times from Python's `calendar.timegm`), not from running the code.

use seeded_backoff::{parse_retry_after, Backoff, Jitter, ParseError, Policy, Step};

const SATURATED: u32 = u32::MAX;

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
fn every_strategy_clamps_to_the_cap_of_the_policy_passed_in() {
    // A state created under a 32 s cap and advanced to its cap, then stepped under a policy with a
    // 5 s cap: no strategy waits more than 5000 ms, and `None` waits exactly min(32000, 5000).
    let jitters = [
        Jitter::None,
        Jitter::Google { jitter_ms: 1000 },
        Jitter::Full,
        Jitter::Equal,
        Jitter::Proportional {
            spread_per_mille: 200,
        },
        Jitter::Decorrelated,
    ];
    for jitter in jitters {
        let build = |cap| {
            Policy::builder()
                .jitter(jitter)
                .max_backoff_ms(cap)
                .max_retries(20)
                .build()
                .unwrap()
        };
        let (big, small) = (build(32_000), build(5_000));
        for seed in 0..20 {
            let mut b = Backoff::new(&big, seed);
            b.fast_forward(&big, 10); // level 32000
            let Step::Retry { delay_ms, .. } = b.next_delay(&small) else {
                panic!("{jitter:?} gave up");
            };
            assert!(delay_ms <= 5_000, "{jitter:?} seed {seed}: {delay_ms}");
            if jitter == Jitter::None {
                assert_eq!(delay_ms, 5_000);
            }
        }
    }
}
