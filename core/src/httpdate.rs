//! HTTP-date (RFC 9110 §5.6.7) in its three formats, to Unix seconds, without allocation.

use crate::hint::ParseError;

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
    year: i64,
    /// Whether the year was written with four digits (RFC 850's two-digit years are derived).
    four_digit_year: bool,
    time: [u32; 3],
}

/// Parses any of the three formats; the result is Unix seconds (possibly before `now_unix_s`, or
/// before 1970). It is an `i128` because an RFC 850 year is taken from `now_unix_s`'s century: with
/// `now_unix_s` near `u64::MAX` the date's seconds exceed both `i64` and `u64`.
pub(crate) fn parse_http_date(value: &[u8], now_unix_s: u64) -> Result<i128, ParseError> {
    let fields = if value.get(3) == Some(&b',') {
        imf_fixdate(value)?
    } else if value.get(3) == Some(&b' ') {
        asctime(value)?
    } else {
        rfc850(value, now_unix_s)?
    };
    to_unix(fields)
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`
fn imf_fixdate(v: &[u8]) -> Result<Fields<'_>, ParseError> {
    if v.len() != 29
        || !matches_at(v, 4, b" ")
        || !matches_at(v, 7, b" ")
        || !matches_at(v, 11, b" ")
        || !matches_at(v, 16, b" ")
        || !matches_at(v, 25, b" GMT")
    {
        return Err(ParseError::InvalidFormat);
    }
    day_name(slice(v, 0, 3), &DAYS_SHORT)?;
    Ok(Fields {
        month: slice(v, 8, 11),
        day: number(slice(v, 5, 7))?,
        year: number(slice(v, 12, 16))? as i64,
        four_digit_year: true,
        time: time_of_day(slice(v, 17, 25))?,
    })
}

/// `Sunday, 06-Nov-94 08:49:37 GMT`
fn rfc850(v: &[u8], now_unix_s: u64) -> Result<Fields<'_>, ParseError> {
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
        || !matches_at(rest, 19, b" GMT")
    {
        return Err(ParseError::InvalidFormat);
    }
    day_name(slice(v, 0, comma), &DAYS_LONG)?;
    let day = number(slice(rest, 1, 3))?;
    let yy = number(slice(rest, 8, 10))? as i64;
    let time = time_of_day(slice(rest, 11, 19))?;
    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is in the past century.
    let now_year = civil_year((now_unix_s / 86_400) as i64);
    let mut year = now_year - now_year.rem_euclid(100) + yy;
    if year > now_year + 50 {
        year -= 100;
    }
    Ok(Fields {
        month: slice(rest, 4, 7),
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
        year: number(slice(v, 20, 24))? as i64,
        four_digit_year: true,
        time: time_of_day(slice(v, 11, 19))?,
    })
}

/// `HH:MM:SS` as three numbers, not yet range-checked.
fn time_of_day(t: &[u8]) -> Result<[u32; 3], ParseError> {
    if t.len() != 8 || !matches_at(t, 2, b":") || !matches_at(t, 5, b":") {
        return Err(ParseError::InvalidFormat);
    }
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

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn to_unix(f: Fields<'_>) -> Result<i128, ParseError> {
    if f.four_digit_year && f.year < 1970 {
        return Err(ParseError::BadYear);
    }
    let month = MONTHS
        .iter()
        .position(|m| *m == f.month)
        .ok_or(ParseError::BadMonth)? as u32
        + 1;
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
    let days = days_from_civil(f.year, month, f.day);
    Ok(days as i128 * 86_400 + (hour * 3600 + minute * 60 + second) as i128)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
/// Date Algorithms"). Years are at most about 5.9 · 10^11 (an RFC 850 year in the century of
/// `now_unix_s = u64::MAX`), so the day count stays far inside `i64`.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The Gregorian year containing day `days` since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_year(days: i64) -> i64 {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    era * 400 + yoe + if month <= 2 { 1 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_year(0), 1970);
        assert_eq!(civil_year(11_016), 2000);
        assert_eq!(civil_year(-1), 1969);
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
}
