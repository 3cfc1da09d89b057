//! Why a header value was not understood: shared by the hint parsers and the HTTP-date parser, so
//! neither depends on the other for it.

use crate::error_enum::error_enum;

error_enum! {
    /// Why a header value was not understood.
    pub enum ParseError {
        /// Nothing but whitespace.
        Empty => "empty", "retry hint is empty";
        /// A leading minus sign.
        Negative => "negative", "retry hint is negative";
        /// Not in the header's format: for `Retry-After`, neither delta-seconds nor any of the
        /// three HTTP-date formats; for a rate-limit reset, not seconds (`12`, `1.5`); for
        /// `RateLimit`, no quota with a reset (`t=`).
        InvalidFormat => "invalid_format",
            "retry hint is not in its header's format (Retry-After: delta-seconds or an HTTP-date; rate-limit reset: seconds; RateLimit: a t= reset)";
        /// A day name that is not `Mon`…`Sun` (or `Monday`…`Sunday` in RFC 850 dates).
        BadDayName => "bad_day_name", "HTTP-date day name must be Mon..Sun";
        /// A month that is not `Jan`…`Dec`.
        BadMonth => "bad_month", "HTTP-date month must be Jan..Dec";
        /// A day of month outside the month (e.g. Feb 30, or Feb 29 outside a leap year).
        BadDay => "bad_day", "HTTP-date day must be within the month";
        /// An hour above 23.
        BadHour => "bad_hour", "HTTP-date hour must be in 0..=23";
        /// A minute above 59.
        BadMinute => "bad_minute", "HTTP-date minute must be in 0..=59";
        /// A second above 60.
        BadSecond => "bad_second", "HTTP-date second must be in 0..=60";
        /// The four-digit year 0000.
        BadYear => "bad_year", "HTTP-date year must be in 0001..=9999";
        /// Longer than [`MAX_HEADER_VALUE_LEN`](crate::http::MAX_HEADER_VALUE_LEN) bytes: not read.
        TooLong => "too_long", "retry hint is longer than 8192 bytes";
    }
}
