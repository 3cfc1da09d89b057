//! `Retry-After` (SPEC.md §8): arbitrary bytes never panic and every answer is consistent with
//! the value's shape; dates made from arbitrary timestamps, written in each of the three
//! RFC 9110 formats (with arbitrary surrounding whitespace), parse back to exactly that instant.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::http::{parse_grpc_pushback, parse_rate_limit, ParseError, RateLimitHeader, RATE_LIMIT_HEADERS};
use seeded_backoff::{parse_retry_after, ServerHint};

/// 9999-12-31T23:59:59Z, the last instant a four-digit year can name.
const LAST_FOUR_DIGIT_YEAR_S: u64 = 253_402_300_799;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Format {
    Imf,
    Rfc850,
    Asctime,
}

#[derive(Arbitrary, Debug)]
enum Input {
    Raw {
        bytes: Vec<u8>,
        now: u64,
    },
    Date {
        t: u64,
        format: Format,
        /// Where `now` sits relative to `t`, in seconds (RFC 850 keeps it within 49 years).
        now_offset: i64,
        lead: u8,
        trail: u8,
    },
    /// A well-formed date judged from any `now` at all: must not overflow or panic.
    DateAnyNow {
        t: u64,
        format: Format,
        now: u64,
    },
}

/// Hinnant's `civil_from_days`: (year, month 1–12, day 1–31) of a day count since 1970-01-01.
/// Used only to write dates; the core parses with the inverse, `days_from_civil`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = [
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
];

/// `t` (seconds, ≤ 9999-12-31) in one of the three formats, with its true day name.
fn format(t: u64, f: Format) -> String {
    let days = (t / 86_400) as i64;
    let secs = t % 86_400;
    let (y, m, d) = civil_from_days(days);
    let day_name = DAYS[(days % 7) as usize];
    let (hh, mm, ss) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mon = MONTHS[m as usize - 1];
    match f {
        Format::Imf => format!(
            "{}, {d:02} {mon} {y:04} {hh:02}:{mm:02}:{ss:02} GMT",
            &day_name[..3]
        ),
        Format::Rfc850 => format!(
            "{day_name}, {d:02}-{mon}-{:02} {hh:02}:{mm:02}:{ss:02} GMT",
            y % 100
        ),
        Format::Asctime => format!(
            "{} {mon} {d:>2} {hh:02}:{mm:02}:{ss:02} {y:04}",
            &day_name[..3]
        ),
    }
}

/// SPEC.md §8.1: the year a two-digit RFC 850 year means, seen from `now`: the timestamp in
/// now's century, unless it is later than now's date and time with 50 added to the year.
fn rfc850_year(t: u64, now: u64) -> i64 {
    let (year_t, month, day) = civil_from_days((t / 86_400) as i64);
    let (now_year, now_month, now_day) = civil_from_days((now / 86_400) as i64);
    let year = now_year - now_year % 100 + year_t % 100;
    let date = (year, month, day, t % 86_400);
    let limit = (now_year + 50, now_month, now_day, now % 86_400);
    if date > limit {
        year - 100
    } else {
        year
    }
}

fn expected_ms(t: u64, now: u64) -> u32 {
    if t <= now {
        0
    } else {
        ((t - now) as u128 * 1000).min(u32::MAX as u128) as u32
    }
}

fn whitespace(n: u8) -> String {
    (0..n % 4)
        .map(|i| if (n >> (2 + i)) & 1 == 1 { '\t' } else { ' ' })
        .collect()
}

/// Invariants for any bytes: the error is the one the value's shape implies, and digits parse
/// to exactly `sat32(seconds · 1000)`.
fn check_raw(bytes: &[u8], now: u64) {
    let got = parse_retry_after(bytes, now);
    // SPEC.md §8: a value with a byte above 0x7F (within the length bound) is invalid_format in
    // every header, before any other check.
    if bytes.len() <= 8192 && !bytes.is_ascii() {
        assert_eq!(got, Err(ParseError::InvalidFormat));
        assert_eq!(parse_grpc_pushback(bytes), Err(ParseError::InvalidFormat));
        for h in RATE_LIMIT_HEADERS {
            assert_eq!(
                parse_rate_limit(h, bytes, now),
                Err(ParseError::InvalidFormat)
            );
        }
        return;
    }
    let trimmed: &[u8] = {
        let is_ws = |b: &u8| *b == b' ' || *b == b'\t';
        let start = bytes.iter().position(|b| !is_ws(b)).unwrap_or(bytes.len());
        let end = bytes
            .iter()
            .rposition(|b| !is_ws(b))
            .map_or(start, |i| i + 1);
        &bytes[start..end]
    };
    if trimmed.is_empty() {
        assert_eq!(got, Err(ParseError::Empty));
    } else if trimmed[0] == b'-' {
        assert_eq!(got, Err(ParseError::Negative));
    } else if trimmed.iter().all(u8::is_ascii_digit) {
        let mut secs: u128 = 0;
        for &d in trimmed {
            secs = (secs * 10 + (d - b'0') as u128).min(u64::MAX as u128);
        }
        assert_eq!(got, Ok((secs * 1000).min(u32::MAX as u128) as u32));
    } else if let Ok(ms) = got {
        // Only an HTTP-date can parse here: it has 24, 29 or (RFC 850) 30–33 bytes.
        assert!(
            matches!(trimmed.len(), 24 | 29..=33),
            "{trimmed:?} parsed to {ms}"
        );
        assert!(trimmed.is_ascii());
    }
    if let Err(e) = got {
        assert!(!e.message().is_empty() && !e.name().is_empty());
    }
    // The gRPC header: digits or nothing, and its hint maps every error to DoNotRetry.
    let push = parse_grpc_pushback(bytes);
    match push {
        Ok(ms) => assert_eq!(
            ServerHint::from_grpc_pushback(bytes),
            ServerHint::RetryAfterMs(ms)
        ),
        Err(_) => assert_eq!(
            ServerHint::from_grpc_pushback(bytes),
            ServerHint::DoNotRetry
        ),
    }
    if !trimmed.is_empty() && trimmed.iter().all(u8::is_ascii_digit) {
        assert!(push.is_ok());
    }
    check_rate_limit(bytes, trimmed, now);
}

/// The rate-limit headers (SPEC.md §8.3): any bytes, any clock, no panic; a reset value of plain
/// digits is seconds (a delay up to 10^9, else a Unix time); `RateLimit` parses only with a `t`
/// or `reset` key in it.
fn check_rate_limit(bytes: &[u8], trimmed: &[u8], now: u64) {
    for h in RATE_LIMIT_HEADERS {
        let got = parse_rate_limit(h, bytes, now);
        if let Err(e) = got {
            assert!(matches!(
                e,
                ParseError::Empty | ParseError::Negative | ParseError::InvalidFormat
            ));
        }
        if h == RateLimitHeader::RateLimit {
            if got.is_ok() {
                // A reset needs a key `t` or `reset` and an `=`.
                assert!(bytes.contains(&b'=') && bytes.contains(&b't'), "{bytes:?}");
            }
            continue;
        }
        if !trimmed.is_empty() && trimmed.iter().all(u8::is_ascii_digit) {
            let mut secs: u128 = 0;
            for &d in trimmed {
                secs = (secs * 10 + (d - b'0') as u128).min(u64::MAX as u128);
            }
            let ms = (secs * 1000).min(u64::MAX as u128);
            let want = if secs > 1_000_000_000 {
                ms.saturating_sub((now as u128 * 1000).min(u64::MAX as u128))
            } else {
                ms
            };
            assert_eq!(
                got,
                Ok(want.min(u32::MAX as u128) as u32),
                "{h:?} {trimmed:?}"
            );
        }
    }
}

fuzz_target!(|input: Input| match input {
    Input::Raw { bytes, now } => check_raw(&bytes, now),
    Input::Date {
        t,
        format: f,
        now_offset,
        lead,
        trail,
    } => {
        let t = match f {
            // asctime and IMF-fixdate write four-digit years from 1970 on.
            Format::Imf | Format::Asctime => t % (LAST_FOUR_DIGIT_YEAR_S + 1),
            // RFC 850's two-digit year is resolved around `now`; keep `now` within 49 years
            // (and 365-day years undercount, so 49 · 365 days stays inside the window).
            Format::Rfc850 => t % (LAST_FOUR_DIGIT_YEAR_S - 50 * 366 * 86_400),
        };
        let window = match f {
            Format::Rfc850 => 49 * 365 * 86_400,
            _ => i64::MAX,
        };
        let offset = if window == i64::MAX {
            now_offset
        } else {
            now_offset % window
        };
        let now = if offset >= 0 {
            t.saturating_add(offset as u64)
        } else {
            t.saturating_sub(offset.unsigned_abs())
        };
        let text = format!("{}{}{}", whitespace(lead), format(t, f), whitespace(trail));
        let got = parse_retry_after(text.as_bytes(), now);
        if matches!(f, Format::Rfc850)
            && rfc850_year(t, now) != civil_from_days((t / 86_400) as i64).0
        {
            // `now` put the two-digit year in another century: a valid date there, or Feb 29 of
            // a year that has none.
            assert!(
                got.is_ok() || (got == Err(ParseError::BadDay) && text.contains("29-Feb")),
                "{text:?} at now = {now}: {got:?}"
            );
        } else {
            assert_eq!(got, Ok(expected_ms(t, now)), "{text:?} at now = {now}");
        }
        check_raw(text.as_bytes(), now);
    }
    Input::DateAnyNow { t, format: f, now } => {
        let text = format(t % (LAST_FOUR_DIGIT_YEAR_S + 1), f);
        let got = parse_retry_after(text.as_bytes(), now);
        match f {
            // Four-digit dates do not depend on `now` except through the subtraction.
            Format::Imf | Format::Asctime => {
                assert_eq!(got, Ok(expected_ms(t % (LAST_FOUR_DIGIT_YEAR_S + 1), now)));
            }
            // The century comes from `now`, so Feb 29 may not exist there; anything else parses.
            Format::Rfc850 => assert!(
                got.is_ok() || (got == Err(ParseError::BadDay) && text.contains("29-Feb")),
                "{text:?} at now = {now}: {got:?}"
            ),
        }
        check_raw(text.as_bytes(), now);
    }
});
