//! HTTP-date (RFC 9110 §5.6.7) in its three formats, as seconds from now, without allocation.
//!
//! Every division is a 32-bit one by a constant, which compilers turn into a multiply: firmware
//! for cores without a 64-bit divider links no division helper (about 1 KiB on Cortex-M). The
//! Unix time `now` is split into days and seconds by long division in 16-bit digits, and a
//! two-digit RFC 850 year is resolved after moving `now` back by whole 400-year cycles, within
//! which the Gregorian calendar repeats exactly, so the distance between the two instants is
//! unchanged.

use crate::parse_error::ParseError;

const DAYS_SHORT: [&[u8]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
const DAYS_LONG: [&[u8]; 7] = [
    b"Monday",
    b"Tuesday",
    b"Wednesday",
    b"Thursday",
    b"Friday",
    b"Saturday",
    b"Sunday",
];
const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

/// The fields of a date, all digits already checked, before range validation.
struct Fields<'a> {
    month: &'a [u8],
    day: u32,
    /// A four-digit year as written, or an RFC 850 year resolved against the reduced `now`
    /// (1870 to 2419).
    year: u32,
    /// Whether the year was written with four digits (RFC 850's two-digit years are derived).
    four_digit_year: bool,
    time: [u32; 3],
}

/// Seconds from `now_unix_s` until the date in `value`, or 0 when the date is not in the future.
pub(crate) fn seconds_until(value: &[u8], now_unix_s: u64) -> Result<u64, ParseError> {
    let (mut now_days, now_second) = split_days(now_unix_s);
    let fields = if value.get(3) == Some(&b',') {
        imf_fixdate(value)?
    } else if value.get(3) == Some(&b' ') {
        asctime(value)?
    } else {
        // Both instants move back by whole 400-year cycles, so the date is found within one.
        now_days = era_day(now_days);
        rfc850(value, now_days as u32, now_second)?
    };
    let (date_days, date_second) = days_and_second(fields)?;
    // `now_days < 2^48`, so both fit an i64. An earlier day is never in the future: its seconds
    // reach at most 86 400 (a leap second at 23:59:60), which is the next midnight.
    let ahead_days = date_days - now_days as i64;
    if ahead_days < 0 {
        return Ok(0);
    }
    // At most 2.93 · 10^6 days (year 9999 from 1970), so no product overflows.
    let ahead = ahead_days * 86_400 + date_second as i64 - now_second as i64;
    Ok(u64::try_from(ahead).unwrap_or(0))
}

/// `(n / D, n % D)` by long division in 16-bit digits: every partial dividend is below
/// `D · 2^16 ≤ 2^32`, so each step is a 32-bit division by a constant.
#[inline]
fn div_rem_u64<const D: u32>(n: u64) -> (u64, u32) {
    const { assert!(D > 0 && D <= 1 << 16) };
    let mut quotient = 0u64;
    let mut remainder = 0u32;
    for shift in [48, 32, 16, 0] {
        let partial = (remainder << 16) | ((n >> shift) as u32 & 0xFFFF);
        quotient = (quotient << 16) | (partial / D) as u64;
        remainder = partial % D;
    }
    (quotient, remainder)
}

/// Unix seconds as whole days since 1970-01-01 (below 2^48) and the second of that day.
fn split_days(unix_s: u64) -> (u64, u32) {
    // 86 400 = 675 · 2^7, and 675 fits a 16-bit digit.
    let (days, rest) = div_rem_u64::<675>(unix_s >> 7);
    (days, rest * 128 + (unix_s & 127) as u32)
}

/// `days mod 146 097`, the day within its 400-year cycle (146 097 = 3 · 48 699).
fn era_day(days: u64) -> u64 {
    let (thirds, r1) = div_rem_u64::<3>(days);
    let (_, r2) = div_rem_u64::<48_699>(thirds);
    (3 * r2 + r1) as u64
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`
fn imf_fixdate(v: &[u8]) -> Result<Fields<'_>, ParseError> {
    if v.len() != 29
        || !matches_at(v, 4, b" ")
        || !matches_at(v, 7, b" ")
        || !matches_at(v, 11, b" ")
        || !matches_at(v, 16, b" ")
        || !matches_at(v, 19, b":")
        || !matches_at(v, 22, b":")
        || !matches_at(v, 25, b" GMT")
    {
        return Err(ParseError::InvalidFormat);
    }
    day_name(slice(v, 0, 3), &DAYS_SHORT)?;
    Ok(Fields {
        month: slice(v, 8, 11),
        day: number(slice(v, 5, 7))?,
        year: number(slice(v, 12, 16))?,
        four_digit_year: true,
        time: time_of_day(slice(v, 17, 25))?,
    })
}

/// `Sunday, 06-Nov-94 08:49:37 GMT`
/// `now_era_day` is today's day within its 400-year cycle and `now_second` the second of that day;
/// the year comes out in the same cycle.
fn rfc850(v: &[u8], now_era_day: u32, now_second: u32) -> Result<Fields<'_>, ParseError> {
    let comma = v
        .iter()
        .position(|&b| b == b',')
        .ok_or(ParseError::InvalidFormat)?;
    let rest = v.get(comma + 1..).unwrap_or(&[]);
    if rest.len() != 23
        || !matches_at(rest, 0, b" ")
        || !matches_at(rest, 3, b"-")
        || !matches_at(rest, 7, b"-")
        || !matches_at(rest, 10, b" ")
        || !matches_at(rest, 13, b":")
        || !matches_at(rest, 16, b":")
        || !matches_at(rest, 19, b" GMT")
    {
        return Err(ParseError::InvalidFormat);
    }
    day_name(slice(v, 0, comma), &DAYS_LONG)?;
    let day = number(slice(rest, 1, 3))?;
    let yy = number(slice(rest, 8, 10))?;
    let time = time_of_day(slice(rest, 11, 19))?;
    let month = slice(rest, 4, 7);
    // RFC 9110 §5.6.7: a timestamp that appears to be more than 50 years in the future is in the
    // past century. "50 years in the future" is now's calendar date and time with 50 added to its
    // year; the fields compare in order, as written (out-of-range ones are refused later).
    let month_number = month_number(month)?;
    let [now_year, now_month, now_day] = civil_from_days(now_era_day);
    let now_time = [now_second / 3600, now_second / 60 % 60, now_second % 60];
    let mut year = now_year - now_year % 100 + yy;
    let date = [year, month_number, day, time[0], time[1], time[2]];
    let limit = [
        now_year + 50,
        now_month,
        now_day,
        now_time[0],
        now_time[1],
        now_time[2],
    ];
    if date > limit {
        year -= 100;
    }
    Ok(Fields {
        month,
        day,
        year,
        four_digit_year: false,
        time,
    })
}

/// `Sun Nov  6 08:49:37 1994`
fn asctime(v: &[u8]) -> Result<Fields<'_>, ParseError> {
    if v.len() != 24
        || !matches_at(v, 7, b" ")
        || !matches_at(v, 10, b" ")
        || !matches_at(v, 13, b":")
        || !matches_at(v, 16, b":")
        || !matches_at(v, 19, b" ")
    {
        return Err(ParseError::InvalidFormat);
    }
    day_name(slice(v, 0, 3), &DAYS_SHORT)?;
    let day = match slice(v, 8, 10) {
        [b' ', d] => number(&[*d])?,
        two => number(two)?,
    };
    Ok(Fields {
        month: slice(v, 4, 7),
        day,
        year: number(slice(v, 20, 24))?,
        four_digit_year: true,
        time: time_of_day(slice(v, 11, 19))?,
    })
}

/// `HH:MM:SS` (its colons already checked with the format's layout) as three numbers, not yet
/// range-checked.
fn time_of_day(t: &[u8]) -> Result<[u32; 3], ParseError> {
    Ok([
        number(slice(t, 0, 2))?,
        number(slice(t, 3, 5))?,
        number(slice(t, 6, 8))?,
    ])
}

fn slice(v: &[u8], start: usize, end: usize) -> &[u8] {
    v.get(start..end).unwrap_or(&[])
}

fn matches_at(v: &[u8], at: usize, expected: &[u8]) -> bool {
    v.get(at..at + expected.len()) == Some(expected)
}

/// A month name's number, 1 for `Jan` to 12 for `Dec`.
fn month_number(name: &[u8]) -> Result<u32, ParseError> {
    match MONTHS.iter().position(|m| *m == name) {
        Some(index) => Ok(index as u32 + 1),
        None => Err(ParseError::BadMonth),
    }
}

fn day_name(name: &[u8], names: &[&[u8]; 7]) -> Result<(), ParseError> {
    if names.contains(&name) {
        Ok(())
    } else {
        Err(ParseError::BadDayName)
    }
}

/// A fixed-width run of digits; anything else is a format error.
fn number(digits: &[u8]) -> Result<u32, ParseError> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(ParseError::InvalidFormat);
    }
    Ok(digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10).saturating_add((d - b'0') as u32)
    }))
}

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// Validates the fields: the date's day number since 1970-01-01 (negative for years before 1970,
/// which are in the past) and its second of the day.
fn days_and_second(f: Fields<'_>) -> Result<(i64, u32), ParseError> {
    if f.four_digit_year && f.year == 0 {
        return Err(ParseError::BadYear);
    }
    let month = month_number(f.month)?;
    let days_in_month = match month {
        2 if is_leap(f.year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if f.day == 0 || f.day > days_in_month {
        return Err(ParseError::BadDay);
    }
    let [hour, minute, second] = f.time;
    if hour > 23 {
        return Err(ParseError::BadHour);
    }
    if minute > 59 {
        return Err(ParseError::BadMinute);
    }
    if second > 60 {
        return Err(ParseError::BadSecond);
    }
    Ok((
        days_from_civil(f.year, month, f.day),
        hour * 3600 + minute * 60 + second,
    ))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
/// Date Algorithms"), for the years callers pass: 1 to 9999, so every step fits a u32.
fn days_from_civil(year: u32, month: u32, day: u32) -> i64 {
    let y = if month <= 2 {
        year.saturating_sub(1)
    } else {
        year
    };
    let era = y / 400;
    let yoe = y % 400;
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i64::from(era * 146_097 + doe) - 719_468
}

/// The Gregorian `[year, month, day]` of day `days` (0 to 146 096) since 1970-01-01 (Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: u32) -> [u32; 3] {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    // Months are counted from March: mp 10 and 11 are January and February of the next year.
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    [era * 400 + yoe + u32::from(mp >= 10), month, day]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(1870, 1, 1), -36_524);
        assert_eq!(days_from_civil(1, 1, 1), -719_162);
        assert_eq!(civil_from_days(0), [1970, 1, 1]);
        assert_eq!(civil_from_days(11_016), [2000, 2, 29]);
        assert_eq!(civil_from_days(146_096), [2369, 12, 31]);
        // 2^31 s is 2038-01-19 03:14:08 and 2^32 s is 2106-02-07 06:28:16.
        assert_eq!(
            days_from_civil(2038, 1, 19) * 86_400 + 3 * 3600 + 14 * 60 + 8,
            1 << 31
        );
        assert_eq!(
            days_from_civil(2106, 2, 7) * 86_400 + 6 * 3600 + 28 * 60 + 16,
            1 << 32
        );
    }

    #[test]
    fn long_division_matches_u64_division() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..10_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for n in [x, x >> (i % 64), i, u64::MAX - i] {
                assert_eq!(split_days(n), (n / 86_400, (n % 86_400) as u32), "{n}");
                assert_eq!(era_day(n >> 16), (n >> 16) % 146_097, "{n}");
            }
        }
    }
}
