//! §16 of the model: server pacing, written from the text alone (the Python reading in
//! tests/model/pacer_model.py, ported). Sums are u128 so that a u64 overflow the spec rules out
//! would show up as a disagreement instead of wrapping the same way the core might.

use super::ModelRng;

/// §16.1's domain: the ASCII bytes of `pacing!!`.
const DOMAIN: u64 = u64::from_be_bytes(*b"pacing!!");
const MAX_NOW: u64 = 1 << 63;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelPacer {
    /// The returns the reserve second holds.
    pub rate: u64,
    /// The returns every other second holds.
    pub capacity: u64,
    pub max_wait_s: u64,
    pub rng: ModelRng,
    pub latest: u64,
    pub tail_s: u64,
    pub tail_count: u64,
    /// The first second of the latest schedule that started empty: it keeps the reserve.
    pub reserve_s: u64,
}

/// `(retry_after_s, reset_ms, full)`.
pub type ModelSlot = (u64, u64, bool);

impl ModelPacer {
    /// §16.1: the configuration, or the name of the first field out of range.
    pub fn new(
        capacity_per_s: u32,
        reserve_per_mille: u32,
        max_wait_s: u32,
        seed: u64,
    ) -> Result<ModelPacer, &'static str> {
        if !(1..=1_000_000).contains(&capacity_per_s) {
            return Err("capacity_per_s");
        }
        if reserve_per_mille > 999 {
            return Err("reserve_per_mille");
        }
        if !(1..=86_400).contains(&max_wait_s) {
            return Err("max_wait_s");
        }
        let c = capacity_per_s as u128;
        let rate = c - c * reserve_per_mille as u128 / 1000;
        assert!(rate >= 1);
        Ok(ModelPacer {
            rate: rate as u64,
            capacity: capacity_per_s as u64,
            max_wait_s: max_wait_s as u64,
            rng: ModelRng::from_seed(seed ^ DOMAIN),
            latest: 0,
            tail_s: 0,
            tail_count: 0,
            reserve_s: 0,
        })
    }

    /// §16.2.
    pub fn assign(&mut self, now_ms: u64) -> ModelSlot {
        let now = now_ms.max(self.latest).min(MAX_NOW);
        self.latest = now;
        let now_s = now as u128 / 1000;
        let last_s = now_s + self.max_wait_s as u128;
        let mut s = (self.tail_s as u128).max(now_s + 1);
        let mut i = if s == self.tail_s as u128 {
            self.tail_count as u128
        } else {
            0
        };
        // A schedule that starts empty: its first second keeps the reserve.
        if s == now_s + 1 && i == 0 {
            self.reserve_s = u64::try_from(s).expect("reserve_s beyond u64");
        }
        let full = s > last_s;
        let h;
        if full {
            s = last_s;
            h = self.holds(s);
            i = h - 1;
        } else {
            h = self.holds(s);
            if i + 1 == h {
                self.tail_s = u64::try_from(s + 1).expect("tail_s beyond u64");
                self.tail_count = 0;
            } else {
                self.tail_s = u64::try_from(s).expect("tail_s beyond u64");
                self.tail_count = (i + 1) as u64;
            }
        }
        let w = 1000 / h;
        let x = self.rng.uniform(if w <= 1 { 0 } else { (w - 1) as u32 }) as u128;
        let at = s * 1000 + i * 1000 / h + x;
        (
            (s - now_s) as u64,
            u64::try_from(at - now as u128).expect("reset beyond u64"),
            full,
        )
    }

    /// The returns second `s` holds: the rate in the reserve second, the capacity in any other.
    pub fn holds(&self, s: u128) -> u128 {
        if s == self.reserve_s as u128 {
            self.rate as u128
        } else {
            self.capacity as u128
        }
    }

    /// §16.2 `pending`.
    pub fn pending(&self, now_ms: u64) -> u64 {
        let n = (now_ms.max(self.latest).min(MAX_NOW) / 1000 + 1) as u128;
        let tail = self.tail_s as u128;
        if tail < n {
            return 0;
        }
        let reserve = self.reserve_s as u128;
        let short = if n <= reserve && reserve < tail {
            (self.capacity - self.rate) as u128
        } else {
            0
        };
        u64::try_from((tail - n) * self.capacity as u128 + self.tail_count as u128 - short)
            .expect("pending beyond u64")
    }
}
