//! The state of a [`SendRate`] as plain words, for memory a binding owns (the C ABI's
//! `sb_send_rate`) and for [`AtomicSendRate`](super::AtomicSendRate)'s atomic words.

use super::{SendRate, SendRateConfig, Window};

/// Words the state takes: rate, next, last probe, step, last decrease, decreased, now, epoch,
/// first, started, five sent and five accepted counts, hold, the end of the line.
pub const SEND_RATE_WORDS: usize = 22;

impl SendRate {
    /// The state as words (the configuration apart), for [`SendRate::from_words`].
    ///
    /// ```
    /// use seeded_backoff::send_rate::{Answer, SendRate, SendRateConfig};
    /// let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    /// rate.on_answer(10, Answer::Throttled { hint_ms: 500 });
    /// assert_eq!(SendRate::from_words(SendRateConfig::DEFAULT, &rate.to_words()), Some(rate));
    /// ```
    pub fn to_words(&self) -> [u64; SEND_RATE_WORDS] {
        let mut w = [0u64; SEND_RATE_WORDS];
        w[0] = u64::from(self.rate_milli);
        w[1] = self.next_us;
        w[2] = self.last_probe_ms;
        w[3] = u64::from(self.step_permille);
        w[4] = self.last_decrease_ms;
        w[5] = u64::from(self.decreased);
        w[6] = self.now_ms;
        w[7] = self.window.epoch;
        w[8] = self.window.first_ms;
        w[9] = u64::from(self.window.started);
        // Zipped slices, not indices: no bounds check is left for the C ABI's no-panic proof.
        for (to, &c) in w[10..15].iter_mut().zip(&self.window.sent) {
            *to = u64::from(c);
        }
        for (to, &c) in w[15..20].iter_mut().zip(&self.window.accepted) {
            *to = u64::from(c);
        }
        w[20] = self.hold_us;
        w[21] = self.line_us;
        w
    }

    /// The send rate of `config` with the state [`SendRate::to_words`] gave; `None` if the
    /// configuration is out of range or the words are no state it reaches (a count or rate
    /// beyond u32, a flag other than 0 or 1, a rate outside `min_rate_milli..=max_rate_milli`
    /// and not 0, a step outside `probe_first_permille..=probe_max_permille`).
    pub fn from_words(config: SendRateConfig, w: &[u64; SEND_RATE_WORDS]) -> Option<SendRate> {
        let config = config.check().ok()?;
        let wide = |v: &u64| *v > u64::from(u32::MAX);
        if wide(&w[0]) || wide(&w[3]) || w[10..20].iter().any(wide) {
            return None;
        }
        if w[5] > 1 || w[9] > 1 {
            return None;
        }
        let rate = w[0];
        let rate_ok = rate == 0
            || (u64::from(config.min_rate_milli)..=u64::from(config.max_rate_milli))
                .contains(&rate);
        let step_ok = (u64::from(config.probe_first_permille)
            ..=u64::from(config.probe_max_permille))
            .contains(&w[3]);
        if !rate_ok || !step_ok {
            return None;
        }
        Some(from_words_unchecked(config, w))
    }
}

fn narrow(w: u64) -> u32 {
    u32::try_from(w).unwrap_or(u32::MAX)
}

/// The state of `w` as it is (the atomic form's own words, always a reached state).
pub(super) fn from_words_unchecked(config: SendRateConfig, w: &[u64; SEND_RATE_WORDS]) -> SendRate {
    let mut window = Window::new();
    window.epoch = w[7];
    window.first_ms = w[8];
    window.started = w[9] != 0;
    for (to, &c) in window.sent.iter_mut().zip(&w[10..15]) {
        *to = narrow(c);
    }
    for (to, &c) in window.accepted.iter_mut().zip(&w[15..20]) {
        *to = narrow(c);
    }
    SendRate {
        config,
        rate_milli: narrow(w[0]),
        next_us: w[1],
        hold_us: w[20],
        line_us: w[21],
        last_probe_ms: w[2],
        step_permille: narrow(w[3]),
        last_decrease_ms: w[4],
        decreased: w[5] != 0,
        now_ms: w[6],
        window,
    }
}
