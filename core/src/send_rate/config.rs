//! A send rate's fixed parameters and the error naming the one out of range (SPEC.md §17.1).

use crate::error_enum::error_enum;
use crate::invalid::Invalid;

/// The largest rate, in thousandths of a request per second (one million requests per second).
pub const MAX_RATE_MILLI: u32 = 1_000_000_000;

error_enum! {
    /// Why a send rate's parameters were rejected. Each names the field and its range.
    pub enum SendRateError {
        /// `max_rate_milli` outside 1..=1000000000.
        MaxRate => "max_rate_milli", "max_rate_milli must be in 1..=1000000000";
        /// `min_rate_milli` outside 1..=max_rate_milli.
        MinRate => "min_rate_milli", "min_rate_milli must be in 1..=max_rate_milli";
        /// `margin_permille` outside 1..=500.
        Margin => "margin_permille", "margin_permille must be in 1..=500";
        /// `probe_ms` outside 10..=60000.
        ProbeMs => "probe_ms", "probe_ms must be in 10..=60000";
        /// `probe_first_permille` outside 1..=probe_max_permille.
        ProbeFirst => "probe_first_permille", "probe_first_permille must be in 1..=probe_max_permille";
        /// `probe_max_permille` outside 1..=1000.
        ProbeMax => "probe_max_permille", "probe_max_permille must be in 1..=1000";
        /// `guard_ms` outside 0..=60000.
        GuardMs => "guard_ms", "guard_ms must be in 0..=60000";
        /// `burst` outside 1..=1000.
        Burst => "burst", "burst must be in 1..=1000";
        /// `max_hold_ms` outside 0..=3600000.
        MaxHold => "max_hold_ms", "max_hold_ms must be in 0..=3600000";
    }
}

/// A send rate's parameters (SPEC.md §17.1). Start from [`SendRateConfig::DEFAULT`], change fields,
/// and [`check`](SendRateConfig::check) them (or let [`SendRate::new`](crate::send_rate::SendRate::new) do it).
///
/// ```
/// use seeded_backoff::send_rate::{SendRateConfig, SendRateError};
/// let config = SendRateConfig { fail_fast: true, ..SendRateConfig::DEFAULT };
/// assert_eq!(config.check(), Ok(config));
/// let bad = SendRateConfig { margin_permille: 0, ..SendRateConfig::DEFAULT };
/// let err = bad.check().unwrap_err();
/// assert_eq!(err.error, SendRateError::Margin);
/// assert_eq!(err.to_string(), "margin_permille must be in 1..=500, got 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SendRateConfig {
    /// The lowest rate a throttle brings the rate to, in thousandths of a request per second
    /// (1 = one request every 1000 s, so quotas per hour work).
    pub min_rate_milli: u32,
    /// The highest rate probing reaches, in thousandths of a request per second.
    pub max_rate_milli: u32,
    /// How far under the measured accepted rate a throttle sets the rate, in thousandths.
    pub margin_permille: u32,
    /// How often, without a throttle, the rate grows.
    pub probe_ms: u32,
    /// The first growth after a throttle, in thousandths of the rate; it doubles each probe.
    pub probe_first_permille: u32,
    /// The largest growth per probe, in thousandths of the rate.
    pub probe_max_permille: u32,
    /// After a decrease, throttles within this many ms do not decrease again. Throttles of
    /// attempts sent before the decrease never do when the send time is told
    /// ([`SendRate::on_answer_sent`](crate::send_rate::SendRate::on_answer_sent)), so the default is 0.
    pub guard_ms: u32,
    /// Attempts that may go at once after an idle spell (the pacer's bucket size). The default
    /// is 2: waits are whole ms and a woken caller is up to a few ms late, and with a burst of 1
    /// every late attempt moves the schedule back (at 100/s, 50 Tokio tasks against nginx sent
    /// 97 % of the rate, Python asyncio tasks 89 %; at 400/s the simulator's process sent 333/s);
    /// with 2 a late attempt goes on the schedule.
    pub burst: u32,
    /// The longest a server's hint (Retry-After, rate-limit reset) holds every attempt back.
    pub max_hold_ms: u32,
    /// Refuse an attempt that would have to wait, instead of reserving its slot.
    pub fail_fast: bool,
}

impl SendRateConfig {
    /// The defaults: 0.001..1 000 000 requests/s, margin 2 %, probe every 500 ms growing 1 %
    /// doubling to 25 %, guard 0 ms, burst 2, hints held up to 60 s, blocking.
    pub const DEFAULT: SendRateConfig = SendRateConfig {
        min_rate_milli: 1,
        max_rate_milli: MAX_RATE_MILLI,
        margin_permille: 20,
        probe_ms: 500,
        probe_first_permille: 10,
        probe_max_permille: 250,
        guard_ms: 0,
        burst: 2,
        max_hold_ms: 60_000,
        fail_fast: false,
    };

    /// The parameters if every field is in range, else the first field out of range, in the
    /// order of [`SendRateError::ALL`].
    pub const fn check(self) -> Result<SendRateConfig, Invalid<SendRateError>> {
        if self.max_rate_milli == 0 || self.max_rate_milli > MAX_RATE_MILLI {
            return Err(Invalid::new(SendRateError::MaxRate, self.max_rate_milli));
        }
        if self.min_rate_milli == 0 || self.min_rate_milli > self.max_rate_milli {
            return Err(Invalid::new(SendRateError::MinRate, self.min_rate_milli));
        }
        if self.margin_permille == 0 || self.margin_permille > 500 {
            return Err(Invalid::new(SendRateError::Margin, self.margin_permille));
        }
        if self.probe_ms < 10 || self.probe_ms > 60_000 {
            return Err(Invalid::new(SendRateError::ProbeMs, self.probe_ms));
        }
        if self.probe_first_permille == 0 || self.probe_first_permille > self.probe_max_permille {
            return Err(Invalid::new(
                SendRateError::ProbeFirst,
                self.probe_first_permille,
            ));
        }
        if self.probe_max_permille == 0 || self.probe_max_permille > 1000 {
            return Err(Invalid::new(
                SendRateError::ProbeMax,
                self.probe_max_permille,
            ));
        }
        if self.guard_ms > 60_000 {
            return Err(Invalid::new(SendRateError::GuardMs, self.guard_ms));
        }
        if self.burst == 0 || self.burst > 1000 {
            return Err(Invalid::new(SendRateError::Burst, self.burst));
        }
        if self.max_hold_ms > 3_600_000 {
            return Err(Invalid::new(SendRateError::MaxHold, self.max_hold_ms));
        }
        Ok(self)
    }
}

impl Default for SendRateConfig {
    fn default() -> Self {
        SendRateConfig::DEFAULT
    }
}
