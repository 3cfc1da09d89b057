//! The `Retry-After` vectors of SPEC.md §8.1: delta-seconds, the three HTTP-date formats, RFC 850's
//! century rule and every error, each value parsed by the core at a stated `now`.

use seeded_backoff::http::MAX_HEADER_VALUE_LEN;
use seeded_backoff::parse_retry_after;
use serde_json::{json, Value};

/// Unix time of the RFC 9110 example date, Sun, 06 Nov 1994 08:49:37 GMT.
const RFC_EXAMPLE: u64 = 784_111_777;

/// `tail` preceded by `pad` bytes up to `len` bytes in all.
pub fn at_bound(tail: &[u8], pad: u8, len: usize) -> Vec<u8> {
    let mut v = vec![pad; len - tail.len()];
    v.extend_from_slice(tail);
    v
}

/// The `retry-after` vector file.
pub fn file() -> Value {
    let before = RFC_EXAMPLE - 90;
    let mut cases: Vec<(Vec<u8>, u64)> = [
        ("120", 0),
        ("0", 0),
        ("  7\t", 0),
        ("4294967", 0),
        ("4294968", 0),
        ("99999999999999999999999999999", 0),
        ("Sun, 06 Nov 1994 08:49:37 GMT", before),
        ("Sunday, 06-Nov-94 08:49:37 GMT", before),
        ("Sun Nov  6 08:49:37 1994", before),
        ("Sun Nov 06 08:49:37 1994", before),
        ("Sun, 06 Nov 1994 08:49:37 GMT", RFC_EXAMPLE),
        ("Sun, 06 Nov 1994 08:49:37 GMT", RFC_EXAMPLE + 1_000_000),
        // Leap years: 2024 and 2000 have Feb 29; 2023 and 2100 do not.
        ("Thu, 29 Feb 2024 12:00:00 GMT", 1_709_200_000),
        ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_000),
        ("Wed, 01 Mar 2023 00:00:00 GMT", 1_677_628_000),
        ("Wed, 29 Feb 2023 00:00:00 GMT", 0),
        ("Mon, 29 Feb 2100 00:00:00 GMT", 0),
        ("Mon, 30 Feb 2004 00:00:00 GMT", 0),
        ("Mon, 31 Apr 2004 00:00:00 GMT", 0),
        // 2^31 s (the 2038 rollover) and 2^32 s (2106).
        ("Tue, 19 Jan 2038 03:14:08 GMT", (1 << 31) - 5),
        ("Tue, 19 Jan 2038 03:14:07 GMT", (1 << 31) - 5),
        ("Sun, 07 Feb 2106 06:28:16 GMT", (1 << 32) - 10),
        ("Sun, 07 Feb 2106 06:28:16 GMT", 0),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 0),
        ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_700),
        // RFC 850 two-digit years: the century follows `now`, never more than 50 years ahead.
        ("Friday, 01-Jan-55 00:00:00 GMT", 1_700_000_000),
        ("Monday, 01-Jan-74 00:00:00 GMT", 1_700_000_000),
        ("Monday, 01-Jan-77 00:00:00 GMT", 1_700_000_000),
        ("Thursday, 01-Jan-70 00:00:00 GMT", 0),
        ("Wednesday, 01-Jan-25 00:00:00 GMT", 1_735_600_000),
        // Every error, one fault each.
        ("", 0),
        ("   \t ", 0),
        ("-5", 0),
        ("-0", 0),
        ("12a", 0),
        ("1.5", 0),
        ("+5", 0),
        ("soon", 0),
        ("Sun, 06 Nov 1994 08:49:37 UTC", 0),
        ("Sun, 06 Nov 1994 08:49:37 GMT junk", 0),
        ("Sun,  6 Nov 1994 08:49:37 GMT", 0),
        ("Foo, 06 Nov 1994 08:49:37 GMT", 0),
        ("Sunday, 06 Nov 1994 08:49:37 GMT", 0),
        ("Sun, 06 Nox 1994 08:49:37 GMT", 0),
        ("Sun, 06 nov 1994 08:49:37 GMT", 0),
        ("Sun, 00 Nov 1994 08:49:37 GMT", 0),
        ("Sun, 32 Nov 1994 08:49:37 GMT", 0),
        ("Sun, 06 Nov 1994 24:00:00 GMT", 0),
        ("Sun, 06 Nov 1994 23:60:00 GMT", 0),
        ("Sun, 06 Nov 1994 23:59:61 GMT", 0),
        ("Sun, 06 Nov 1969 08:49:37 GMT", 0),
        ("Sun, 06 Nov 0000 08:49:37 GMT", 0),
        ("Sun, 06 Nov 1994 08-49-37 GMT", 0),
        ("Sun, 06 Nov 1994 08:4x:37 GMT", 0),
        ("Sun Nov  6 08:49:37 1994 ", 0),
        ("Sun Nov 6 08:49:37 1994", 0),
        ("Sun Nox  6 08:49:37 1994", 0),
        ("Sunday, 06-Nov-94 08:49:37", 0),
        ("Sun, 06-Nov-94 08:49:37 GMT", 0),
        (", 06-Nov-94 08:49:37 GMT", 0),
        ("Sun,day, 06-Nov-94 08:49:37 GMT", 0),
        ("Sunday, 06-Nox-94 08:49:37 GMT", 0),
        ("Funday, 06-Nov-94 08:49:37 GMT", 0),
        ("Sunday, 31-Jun-94 08:49:37 GMT", 0),
        // The layout (the time's colons included) is checked before the day name.
        ("Foo, 06 Nov 1994 08-49-37 GMT", 0),
        ("Foo Nov  6 08-49-37 1994", 0),
        ("Foosday, 06-Nov-94 08.49.37 GMT", 0),
        // Four-digit years before 1970 are in the past; 1900 is not a leap year, 1600 is.
        ("Mon, 01 Jan 0001 00:00:00 GMT", 0),
        ("Thu, 29 Feb 1900 00:00:00 GMT", 0),
        ("Tue, 29 Feb 1600 00:00:00 GMT", 0),
        // The 50-year rule compares timestamps: now is 2026-11-30 12:00:00 UTC.
        ("Tuesday, 01-Dec-76 00:00:00 GMT", 1_796_040_000),
        ("Monday, 30-Nov-76 12:00:01 GMT", 1_796_040_000),
        ("Monday, 30-Nov-76 12:00:00 GMT", 1_796_040_000),
        ("Saturday, 30-Nov-26 12:00:10 GMT", 1_796_040_000),
    ]
    .into_iter()
    .map(|(v, now)| (v.as_bytes().to_vec(), now))
    .collect();
    // The length bound (SPEC.md §8): 8192 bytes are read, 8193 are `too_long` whatever they hold.
    cases.push((at_bound(b"7", b'0', MAX_HEADER_VALUE_LEN), 0));
    cases.push((at_bound(b"7", b'0', MAX_HEADER_VALUE_LEN + 1), 0));
    cases.push((at_bound(b"7", b' ', MAX_HEADER_VALUE_LEN), 0));
    cases.push((at_bound(b"7", b' ', MAX_HEADER_VALUE_LEN + 1), 0));
    cases.push((vec![0xff, 0xfe, b'1'], 0));
    // A byte outside ASCII (SPEC.md §8), as UTF-8 and as a Latin-1 byte, in each form.
    cases.push(("1\u{e9}".as_bytes().to_vec(), 0));
    cases.push(("Sun, 06 Nov 1994 08:49:37 GMT\u{a0}".as_bytes().to_vec(), 0));
    cases.push((b"Sun, 06 Nov 1994 08:49:37 GM\xc9".to_vec(), 0));
    cases.push(("-\u{2212}1".as_bytes().to_vec(), 0));
    cases.push((b"12\x003".to_vec(), 0));
    let cases: Vec<Value> = cases
        .into_iter()
        .map(|(value, now)| {
            let mut case = match std::str::from_utf8(&value) {
                Ok(text) if !text.contains('\0') => json!({ "value": text, "now": now }),
                _ => json!({ "value_hex": value.iter().map(|b| format!("{b:02x}")).collect::<String>(), "now": now }),
            };
            match parse_retry_after(&value, now) {
                Ok(ms) => case["expect_ms"] = json!(ms),
                Err(e) => case["error"] = json!(e.name()),
            }
            case
        })
        .collect();
    json!({ "kind": "retry_after", "description": "RFC 9110 Retry-After: delta-seconds and the three HTTP-date formats", "cases": cases })
}
