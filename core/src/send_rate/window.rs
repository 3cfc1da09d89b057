//! The last second of answers, in five 250 ms buckets (SPEC.md §17.2): how many attempts were sent
//! and how many the server accepted, as rates. Fixed size; old buckets are cleared as time moves.

/// The width of one bucket.
pub(crate) const BUCKET_MS: u64 = 250;
/// Buckets kept: the current, partial one and the four complete ones before it.
pub(crate) const BUCKETS: usize = 5;
/// The least time a rate divides by: early in a process the window spans only the time since
/// the first reading, and a rate measured over a few ms of a burst says nothing about a server's
/// per-second quota (1 ms after a start, 10 accepted answers would read as 10 000/s; 50 workers
/// starting together against nginx's 100/s were refused 114 times in the first second).
pub const SPAN_FLOOR_MS: u64 = 100;

/// Counts per bucket; `epoch` is the index (`now / BUCKET_MS`) of the current bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Window {
    pub(crate) epoch: u64,
    /// The first clock reading, so a rate early in a process divides by the time seen.
    pub(crate) first_ms: u64,
    pub(crate) started: bool,
    pub(crate) sent: [u32; BUCKETS],
    pub(crate) accepted: [u32; BUCKETS],
}

impl Window {
    pub(crate) const fn new() -> Self {
        Window {
            epoch: 0,
            first_ms: 0,
            started: false,
            sent: [0; BUCKETS],
            accepted: [0; BUCKETS],
        }
    }

    /// Moves the window to `now_ms` (never earlier than a previous reading: the caller keeps the
    /// clock monotone), clearing the buckets that fell out of it.
    pub(crate) fn roll(&mut self, now_ms: u64) {
        let epoch = now_ms / BUCKET_MS;
        if !self.started {
            self.started = true;
            self.first_ms = now_ms;
            self.epoch = epoch;
            return;
        }
        let gap = epoch.saturating_sub(self.epoch).min(BUCKETS as u64);
        for i in 1..=gap {
            let slot = self.slot(self.epoch.saturating_add(i));
            if let Some(c) = self.sent.get_mut(slot) {
                *c = 0;
            }
            if let Some(c) = self.accepted.get_mut(slot) {
                *c = 0;
            }
        }
        self.epoch = self.epoch.max(epoch);
    }

    fn slot(&self, epoch: u64) -> usize {
        (epoch % BUCKETS as u64) as usize
    }

    pub(crate) fn add_sent(&mut self) {
        let slot = self.slot(self.epoch);
        if let Some(c) = self.sent.get_mut(slot) {
            *c = c.saturating_add(1);
        }
    }

    pub(crate) fn add_accepted(&mut self) {
        let slot = self.slot(self.epoch);
        if let Some(c) = self.accepted.get_mut(slot) {
            *c = c.saturating_add(1);
        }
    }

    /// The time the window covers at `now_ms`: the current bucket's elapsed part plus four full
    /// buckets, but no more than the time since the first reading; at least [`SPAN_FLOOR_MS`].
    fn span_ms(&self, now_ms: u64) -> u64 {
        let partial = now_ms.saturating_sub(self.epoch.saturating_mul(BUCKET_MS));
        let full = partial.saturating_add(BUCKET_MS * (BUCKETS as u64 - 1));
        full.min(now_ms.saturating_sub(self.first_ms))
            .max(SPAN_FLOOR_MS)
    }

    fn rate(&self, counts: &[u32; BUCKETS], now_ms: u64) -> u32 {
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        let rate = total
            .saturating_mul(1_000_000)
            .checked_div(self.span_ms(now_ms))
            .unwrap_or(u64::MAX);
        u32::try_from(rate).unwrap_or(u32::MAX)
    }

    /// Whether bucket `epoch` is one this window keeps.
    fn keeps(&self, epoch: u64) -> bool {
        self.started && epoch <= self.epoch && self.epoch - epoch < BUCKETS as u64
    }

    /// This window's count of bucket `epoch` in `counts`, 0 if the bucket is not kept.
    fn count(&self, counts: &[u32; BUCKETS], epoch: u64) -> u32 {
        match self.keeps(epoch) {
            true => counts.get(self.slot(epoch)).copied().unwrap_or(0),
            false => 0,
        }
    }

    /// Adds the counts `alone` has beyond `since` (the same window earlier), bucket by bucket,
    /// to the buckets this window keeps; the caller first rolls this window to `alone`'s epoch.
    pub(crate) fn add_beyond(&mut self, since: &Window, alone: &Window) {
        for back in 0..BUCKETS as u64 {
            let Some(epoch) = alone.epoch.checked_sub(back) else {
                break;
            };
            if !self.keeps(epoch) {
                continue;
            }
            let beyond = |counts: fn(&Window) -> &[u32; BUCKETS]| {
                alone
                    .count(counts(alone), epoch)
                    .saturating_sub(since.count(counts(since), epoch))
            };
            let (sent, accepted) = (beyond(|w| &w.sent), beyond(|w| &w.accepted));
            let slot = self.slot(epoch);
            if let Some(c) = self.sent.get_mut(slot) {
                *c = c.saturating_add(sent);
            }
            if let Some(c) = self.accepted.get_mut(slot) {
                *c = c.saturating_add(accepted);
            }
        }
    }

    /// Accepted answers per second over the window, in thousandths.
    pub(crate) fn accepted_rate(&self, now_ms: u64) -> u32 {
        self.rate(&self.accepted, now_ms)
    }

    /// Attempts sent per second over the window, in thousandths.
    pub(crate) fn sent_rate(&self, now_ms: u64) -> u32 {
        self.rate(&self.sent, now_ms)
    }
}
