//! A send rate (SPEC.md §17) from arbitrary or folded configuration fields, fed asks and answers
//! (accepted, throttled with any hint, no answer) at clock readings that stand still, creep, jump
//! or go backwards, and closed loops that wait as told and answer by a pattern. Every pace and the
//! rate after every answer equal the reference model in `src/model/send_rate.rs`, and
//! `AtomicSendRate` driven alike holds the same state; beyond the model: the rate is 0 (off) or
//! within `min_rate_milli ..= max_rate_milli` and never off again once on, a wait is at least
//! 1 ms, `refuse` comes exactly with `fail_fast`, an ask that does not send changes nothing but
//! the clock, and whatever the burst no attempt goes before a throttle's hold has passed.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::send_rate::{Answer, AtomicSendRate, Pace, SendRate, SendRateConfig};
use seeded_backoff_fuzz::inputs::{fit, spread};
use seeded_backoff_fuzz::model::send_rate::{
    ModelAnswerKind, ModelPace, ModelSendConfig, ModelSendRate,
};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Clock {
    Same,
    Forward(u16),
    Far(u32),
    Back(u32),
    At(u64),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Ask(Clock),
    Accepted(Clock),
    Throttled(u32, Clock),
    /// A throttle of an attempt sent `ago` ms before the answer's reading.
    ThrottledSent(u32, Clock, u16),
    NoAnswer(Clock),
    /// Up to 256 rounds of a loop: ask; on a wait, move the clock on by it; on a send, answer
    /// accepted or throttled (bit i of `pattern`), `latency` ms later.
    Loop {
        rounds: u8,
        pattern: u64,
        latency: u8,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    fields: [u32; 9],
    fail_fast: bool,
    raw: bool,
    wall: u64,
    ops: Vec<Op>,
}

fn configs(input: &Input) -> (SendRateConfig, ModelSendConfig) {
    let f = input.fields.map(spread);
    let c = if input.raw {
        ModelSendConfig {
            max_rate_milli: f[0],
            min_rate_milli: f[1],
            margin_permille: f[2],
            probe_ms: f[3],
            probe_first_permille: f[4],
            probe_max_permille: f[5],
            guard_ms: f[6],
            burst: f[7],
            max_hold_ms: f[8],
            fail_fast: input.fail_fast,
        }
    } else {
        let max_rate = fit(f[0], 1, 1_000_000_000);
        let probe_max = fit(f[5], 1, 1000);
        ModelSendConfig {
            max_rate_milli: max_rate,
            min_rate_milli: fit(f[1], 1, max_rate),
            margin_permille: fit(f[2], 1, 500),
            probe_ms: fit(f[3], 10, 60_000),
            probe_first_permille: fit(f[4], 1, probe_max),
            probe_max_permille: probe_max,
            guard_ms: fit(f[6], 0, 60_000),
            burst: fit(f[7], 1, 1000),
            max_hold_ms: fit(f[8], 0, 3_600_000),
            fail_fast: input.fail_fast,
        }
    };
    let core = SendRateConfig {
        min_rate_milli: c.min_rate_milli,
        max_rate_milli: c.max_rate_milli,
        margin_permille: c.margin_permille,
        probe_ms: c.probe_ms,
        probe_first_permille: c.probe_first_permille,
        probe_max_permille: c.probe_max_permille,
        guard_ms: c.guard_ms,
        burst: c.burst,
        max_hold_ms: c.max_hold_ms,
        fail_fast: c.fail_fast,
    };
    (core, c)
}

fn pace_of(p: Pace) -> ModelPace {
    match p {
        Pace::Send => None,
        Pace::Wait { ms } => Some((false, ms)),
        Pace::Refuse { ms } => Some((true, ms)),
    }
}

struct Harness {
    one: SendRate,
    shared: AtomicSendRate,
    model: ModelSendRate,
    config: ModelSendConfig,
    /// The latest end of a throttle's hold, in ms of the send rate's clock.
    hold_until: u64,
}

impl Harness {
    fn ask(&mut self, now: u64) -> ModelPace {
        let got = pace_of(self.one.before_attempt(now));
        assert_eq!(
            pace_of(self.shared.before_attempt(now)),
            got,
            "atomic ask({now})"
        );
        let clock = now.max(self.model.now);
        assert_eq!(got, self.model.ask(now), "ask({now})");
        match got {
            None => {
                // In µs a clock past u64::MAX / 1000 ms saturates (§17), and every hold with it.
                if self.hold_until <= u64::MAX / 1000 {
                    assert!(
                        clock >= self.hold_until,
                        "sent at {clock}, held to {}",
                        self.hold_until
                    );
                }
            }
            Some((refuse, ms)) => {
                assert_eq!(refuse, self.config.fail_fast);
                assert!(ms >= 1);
                // Nothing is reserved: asking again at once answers the same and changes nothing.
                let mut again = self.one;
                assert_eq!(pace_of(again.before_attempt(now)), got, "second ask({now})");
                assert_eq!(
                    again, self.one,
                    "an ask that did not send changed the state"
                );
            }
        }
        self.check();
        got
    }

    fn answer(&mut self, now: u64, sent: Option<u64>, a: ModelAnswerKind) {
        let answer = match a {
            ModelAnswerKind::Accepted => Answer::Accepted,
            ModelAnswerKind::Throttled(h) => Answer::Throttled { hint_ms: h },
            ModelAnswerKind::NoAnswer => Answer::NoAnswer,
        };
        let was_on = self.one.rate_milli() > 0;
        match sent {
            Some(sent) => {
                self.one.on_answer_sent(now, sent, answer);
                self.shared.on_answer_sent(now, sent, answer);
            }
            None => {
                self.one.on_answer(now, answer);
                self.shared.on_answer(now, answer);
            }
        }
        self.model.answer(now, sent, a);
        if let ModelAnswerKind::Throttled(h) = a {
            let clock = self.model.now;
            let hold = h.min(self.config.max_hold_ms) as u64;
            if hold > 0 {
                self.hold_until = self.hold_until.max(clock.saturating_add(hold));
            }
        }
        assert_eq!(
            self.one.rate_milli(),
            self.model.rate_milli(),
            "rate after {a:?} at {now}"
        );
        assert!(
            !was_on || self.one.rate_milli() > 0,
            "the rate went off again"
        );
        self.check();
    }

    fn check(&self) {
        assert_eq!(
            self.shared.load(),
            self.one,
            "atomic and single states differ"
        );
        let r = self.one.rate_milli();
        assert!(
            r == 0 || (self.config.min_rate_milli..=self.config.max_rate_milli).contains(&r),
            "rate {r} outside its range"
        );
    }
}

/// The reading an event carries, made from the harness's wall clock.
fn read(wall: &mut u64, c: Clock) -> u64 {
    match c {
        Clock::Same => {}
        Clock::Forward(d) => *wall = wall.saturating_add(d as u64),
        Clock::Far(d) => *wall = wall.saturating_add(spread(d) as u64),
        Clock::Back(d) => *wall = wall.saturating_sub(spread(d) as u64),
        Clock::At(t) => *wall = t,
    }
    *wall
}

fuzz_target!(|input: Input| {
    let (core_config, config) = configs(&input);
    let one = SendRate::new(core_config);
    let shared = AtomicSendRate::new(core_config);
    let expected = config.error();
    match (&one, &shared, expected) {
        (Ok(_), Ok(_), None) => {}
        (Err(a), Err(b), Some(name)) => {
            assert_eq!(a.error.name(), name, "{config:?}");
            assert_eq!(b.error.name(), name, "{config:?}");
            return;
        }
        _ => panic!(
            "{config:?}: core {one:?} / {:?}, model {expected:?}",
            shared.is_ok()
        ),
    }
    let (Ok(one), Ok(shared)) = (one, shared) else {
        return;
    };
    let mut h = Harness {
        one,
        shared,
        model: ModelSendRate::new(config),
        config,
        hold_until: 0,
    };
    let mut wall = input.wall;
    let mut budget = 1024usize;
    for op in input.ops.iter().take(512) {
        match *op {
            Op::Ask(c) => {
                h.ask(read(&mut wall, c));
            }
            Op::Accepted(c) => h.answer(read(&mut wall, c), None, ModelAnswerKind::Accepted),
            Op::Throttled(hint, c) => {
                h.answer(read(&mut wall, c), None, ModelAnswerKind::Throttled(spread(hint)))
            }
            Op::ThrottledSent(hint, c, ago) => {
                let now = read(&mut wall, c);
                let sent = Some(now.saturating_sub(u64::from(ago)));
                h.answer(now, sent, ModelAnswerKind::Throttled(spread(hint)))
            }
            Op::NoAnswer(c) => h.answer(read(&mut wall, c), None, ModelAnswerKind::NoAnswer),
            Op::Loop {
                rounds,
                pattern,
                latency,
            } => {
                let mut now = wall;
                for i in 0..rounds as u32 + 1 {
                    budget = match budget.checked_sub(1) {
                        Some(b) => b,
                        None => return,
                    };
                    match h.ask(now) {
                        None => {
                            let sent = now;
                            now = now.saturating_add(latency as u64);
                            let a = if pattern >> (i % 64) & 1 == 1 {
                                ModelAnswerKind::Accepted
                            } else {
                                ModelAnswerKind::Throttled(0)
                            };
                            h.answer(now, Some(sent), a);
                        }
                        Some((_, ms)) => now = now.saturating_add(ms as u64),
                    }
                }
                wall = wall.max(now);
            }
        }
    }
});
