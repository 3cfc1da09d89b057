//! A pacer (SPEC.md §16) from arbitrary or folded configuration fields, fed arrivals and queue
//! reads at clock readings that stand still, creep, jump, go backwards or sit near 2^63 and
//! u64::MAX. Every answer equals the reference model in `src/model/pacer.rs`; beyond the model,
//! §16.3's bounds: 1 ≤ retry_after_s ≤ max_wait_s, 1 ≤ reset_ms ≤ max_wait_s · 1000 + 999, the
//! reset and the whole-second wait land in one second of the pacer's clock, at most `rate` unfull
//! returns per second, seconds filled in order, and `pending` changes nothing.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::pacer::{Pacer, MAX_PACER_CAPACITY, MAX_PACER_WAIT_S};
use seeded_backoff_fuzz::inputs::{fit, spread};
use seeded_backoff_fuzz::model::pacer::ModelPacer;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Clock {
    Same,
    Forward(u32),
    Back(u32),
    At(u64),
    /// Near the 2^63 ms bound of §16.2 (offset either side) or near u64::MAX.
    Far(u16, bool),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Assign(Clock),
    /// A burst of `n` (up to 256) arrivals at one reading.
    Burst(u16, Clock),
    Pending(Clock),
}

#[derive(Arbitrary, Debug)]
struct Input {
    capacity_per_s: u32,
    reserve_per_mille: u32,
    max_wait_s: u32,
    seed: u64,
    /// Take the fields as they are (then most are refused) or folded into their ranges.
    raw: bool,
    wall: u64,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let (cap, reserve, wait) = if input.raw {
        (
            spread(input.capacity_per_s),
            spread(input.reserve_per_mille),
            spread(input.max_wait_s),
        )
    } else {
        (
            fit(spread(input.capacity_per_s), 1, MAX_PACER_CAPACITY),
            fit(spread(input.reserve_per_mille), 0, 999),
            fit(spread(input.max_wait_s), 1, MAX_PACER_WAIT_S),
        )
    };
    let core = Pacer::new(cap, reserve, wait, input.seed);
    let model = ModelPacer::new(cap, reserve, wait, input.seed);
    let (mut pacer, mut model) = match (core, model) {
        (Ok(p), Ok(m)) => (p, m),
        (Err(e), Err(name)) => {
            assert_eq!(e.error.name(), name, "config ({cap}, {reserve}, {wait})");
            return;
        }
        (core, model) => {
            panic!("config ({cap}, {reserve}, {wait}): core {core:?}, model {model:?}")
        }
    };
    assert_eq!(pacer.retry_rate() as u64, model.rate);
    let rate = model.rate;
    let max_wait = wait as u64;

    let mut wall = input.wall;
    let mut read = |c: Clock| -> u64 {
        match c {
            Clock::Same => {}
            Clock::Forward(d) => wall = wall.saturating_add(spread(d) as u64),
            Clock::Back(d) => wall = wall.saturating_sub(spread(d) as u64),
            Clock::At(t) => wall = t,
            Clock::Far(d, true) => wall = u64::MAX - d as u64,
            Clock::Far(d, false) => wall = (1u64 << 63) - 256 + d as u64,
        }
        wall
    };
    // Unfull returns fill the seconds in order, so the latest second and its count are all the
    // per-second bound needs.
    let (mut last_second, mut in_last) = (0u64, 0u64);
    let mut total = 0usize;

    for op in input.ops.iter().take(512) {
        let (now, n) = match *op {
            Op::Pending(c) => {
                let now = read(c);
                let before = pacer.clone();
                assert_eq!(pacer.pending(now), model.pending(now), "pending({now})");
                assert_eq!(pacer, before, "pending changed the pacer");
                continue;
            }
            Op::Assign(c) => (read(c), 1),
            Op::Burst(n, c) => (read(c), (n % 256) as usize + 1),
        };
        for _ in 0..n {
            total += 1;
            if total > 1024 {
                return;
            }
            let clock = now.max(model.latest).min(1 << 63);
            let slot = pacer.assign(now);
            let (ra, reset, full) = model.assign(now);
            assert_eq!(
                (slot.retry_after_s as u64, slot.reset_ms as u64, slot.full),
                (ra, reset, full),
                "assign({now})"
            );
            assert!((1..=max_wait).contains(&ra), "retry_after_s {ra}");
            assert!(
                (1..=max_wait * 1000 + 999).contains(&reset),
                "reset_ms {reset}"
            );
            let second = (clock + reset) / 1000;
            assert_eq!(
                (clock + ra * 1000) / 1000,
                second,
                "Retry-After and reset apart"
            );
            if !full {
                assert!(second >= last_second, "second {second} after {last_second}");
                if second > last_second {
                    (last_second, in_last) = (second, 0);
                }
                in_last += 1;
                // SPEC.md §16.3: the reserve second holds the rate, every other the capacity.
                let holds = if second == model.reserve_s { rate } else { model.capacity };
                assert!(in_last <= holds, "second {second} holds {in_last} > {holds}");
            }
        }
    }
});
