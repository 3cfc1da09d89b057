//! §17 of the model: the adaptive send rate, written from the text alone (the Python reading in
//! tests/model/send_rate_model.py, ported). Arithmetic is exact (u128), and a value is brought to
//! its type's maximum only where the spec stores it ("every sum and product saturates"); the window
//! is kept by bucket index, as the text defines it, not as a ring.

const U32: u128 = u32::MAX as u128;
const U64: u128 = u64::MAX as u128;

/// §17.1's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelSendConfig {
    pub max_rate_milli: u32,
    pub min_rate_milli: u32,
    pub margin_permille: u32,
    pub probe_ms: u32,
    pub probe_first_permille: u32,
    pub probe_max_permille: u32,
    pub guard_ms: u32,
    pub burst: u32,
    pub max_hold_ms: u32,
    pub fail_fast: bool,
}

impl ModelSendConfig {
    /// §17.1: the name of the first field out of range, in the order the text lists them.
    pub fn error(&self) -> Option<&'static str> {
        let c = self;
        let checks: [(&'static str, bool); 9] = [
            (
                "max_rate_milli",
                (1..=1_000_000_000).contains(&c.max_rate_milli),
            ),
            (
                "min_rate_milli",
                (1..=c.max_rate_milli).contains(&c.min_rate_milli),
            ),
            ("margin_permille", (1..=500).contains(&c.margin_permille)),
            ("probe_ms", (10..=60_000).contains(&c.probe_ms)),
            (
                "probe_first_permille",
                (1..=c.probe_max_permille).contains(&c.probe_first_permille),
            ),
            (
                "probe_max_permille",
                (1..=1000).contains(&c.probe_max_permille),
            ),
            ("guard_ms", c.guard_ms <= 60_000),
            ("burst", (1..=1000).contains(&c.burst)),
            ("max_hold_ms", c.max_hold_ms <= 3_600_000),
        ];
        checks.iter().find(|(_, ok)| !ok).map(|(name, _)| *name)
    }
}

/// §17.2: `(bucket index, sent, accepted)` of the kept buckets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ModelWindow {
    first: Option<u64>,
    epoch: u64,
    buckets: Vec<(u64, u128, u128)>,
}

impl ModelWindow {
    fn roll(&mut self, now: u64) {
        if self.first.is_none() {
            self.first = Some(now);
        }
        self.epoch = self.epoch.max(now / 250);
        let e = self.epoch;
        self.buckets.retain(|&(k, _, _)| k + 4 >= e && k <= e);
    }

    fn bucket(&mut self) -> &mut (u64, u128, u128) {
        let e = self.epoch;
        if let Some(at) = self.buckets.iter().position(|b| b.0 == e) {
            return &mut self.buckets[at];
        }
        self.buckets.push((e, 0, 0));
        self.buckets.last_mut().unwrap()
    }

    fn add_sent(&mut self) {
        let b = self.bucket();
        b.1 = (b.1 + 1).min(U32);
    }

    fn add_accepted(&mut self) {
        let b = self.bucket();
        b.2 = (b.2 + 1).min(U32);
    }

    fn rate(&self, sum: u128, now: u64) -> u128 {
        let first = self.first.expect("a rate before any reading");
        let a = now as u128 - 250 * self.epoch as u128 + 1000;
        // §17.2's floor: a span under 100 ms reads as 100 ms.
        let span = a.min((now - first) as u128).max(100);
        (sum * 1_000_000 / span).min(U32)
    }

    fn sent_rate(&self, now: u64) -> u128 {
        self.rate(self.buckets.iter().map(|b| b.1).sum(), now)
    }

    fn accepted_rate(&self, now: u64) -> u128 {
        self.rate(self.buckets.iter().map(|b| b.2).sum(), now)
    }
}

/// §17.4's answer: `None` for send, else `(refuse, ms)`.
pub type ModelPace = Option<(bool, u32)>;

/// §17.3's answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelAnswerKind {
    Accepted,
    Throttled(u32),
    NoAnswer,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelSendRate {
    pub c: ModelSendConfig,
    pub rate: u128,
    pub next_us: u128,
    pub hold_us: u128,
    pub last_probe: u128,
    pub step: u128,
    pub last_decrease: Option<u64>,
    pub now: u64,
    window: ModelWindow,
}

impl ModelSendRate {
    pub fn new(c: ModelSendConfig) -> ModelSendRate {
        ModelSendRate {
            c,
            rate: 0,
            next_us: 0,
            hold_us: 0,
            last_probe: 0,
            step: c.probe_first_permille as u128,
            last_decrease: None,
            now: 0,
            window: ModelWindow::default(),
        }
    }

    pub fn rate_milli(&self) -> u32 {
        u32::try_from(self.rate).expect("rate beyond u32")
    }

    fn tick(&mut self, now: u64) -> u64 {
        self.now = self.now.max(now);
        self.window.roll(self.now);
        self.now
    }

    /// §17.5 step P.
    fn probe(&mut self, now: u64) {
        // A sum saturates at the time type's maximum (§17), so at u64::MAX every probe interval has
        // passed.
        if self.rate == 0 || (now as u128) < (self.last_probe + self.c.probe_ms as u128).min(U64) {
            return;
        }
        self.last_probe = now as u128;
        if self.window.sent_rate(now) < self.rate / 2 {
            return;
        }
        let grow = (self.rate * self.step / 1000).max(1);
        self.rate = (self.rate + grow).min(self.c.max_rate_milli as u128);
        self.step = (2 * self.step).min(self.c.probe_max_permille as u128);
    }

    /// §17.4.
    pub fn ask(&mut self, now: u64) -> ModelPace {
        let now = self.tick(now);
        self.probe(now);
        let now_us = (now as u128 * 1000).min(U64);
        // Step 2: the server's hint holds every attempt, before the burst is looked at.
        let wait = if now_us < self.hold_us {
            self.hold_us - now_us
        } else {
            // `interval = 0` while off (rate 0), else 10^9 ÷ rate.
            let interval = 1_000_000_000u128.checked_div(self.rate).unwrap_or(0);
            let tolerance = interval * (self.c.burst as u128 - 1);
            let allowed = self.next_us.saturating_sub(tolerance);
            if now_us >= allowed {
                self.next_us = (self.next_us.max(now_us) + interval).min(U64);
                self.window.add_sent();
                return None;
            }
            allowed - now_us
        };
        let ms = wait.div_ceil(1000).min(U32) as u32;
        Some((self.c.fail_fast, ms))
    }

    /// §17.5: the answer at `now` to an attempt sent at `sent` (none: sent now).
    pub fn answer(&mut self, now: u64, sent: Option<u64>, a: ModelAnswerKind) {
        let now = self.tick(now);
        let sent = sent.unwrap_or(now);
        match a {
            ModelAnswerKind::Accepted => {
                self.window.add_accepted();
                self.probe(now);
            }
            ModelAnswerKind::Throttled(h) => {
                let hold = h.min(self.c.max_hold_ms) as u128;
                if hold > 0 {
                    self.hold_us = self.hold_us.max(((now as u128 + hold) * 1000).min(U64));
                }
                if let Some(d) = self.last_decrease {
                    // Sent before the last decrease: the old rate's answer, no cut.
                    if sent < d || (now as u128) < (d as u128 + self.c.guard_ms as u128).min(U64) {
                        return;
                    }
                }
                let accepted = self.window.accepted_rate(now);
                let current = if self.rate > 0 {
                    self.rate
                } else {
                    self.window.sent_rate(now).max(accepted)
                };
                let base = current.min(accepted).max(current / 2);
                let cut = base * (1000 - self.c.margin_permille as u128) / 1000;
                self.rate = cut
                    .max(self.c.min_rate_milli as u128)
                    .min(self.c.max_rate_milli as u128);
                self.step = self.c.probe_first_permille as u128;
                self.last_probe = now as u128;
                self.last_decrease = Some(now);
            }
            ModelAnswerKind::NoAnswer => {}
        }
    }
}
