//! A reference model of SPEC.md §3–§5, §9 and §10, and in `run`, `pacer` and `send_rate` of
//! §13 and §15–§17, written from the text alone: it shares no code with the core (no
//! `rand_xoshiro`, no core helper), only the policy's field values.
//! Arithmetic is done in u64 wherever the spec writes a sum or product, so any saturation the core
//! needs but lacks shows up as a disagreement.

use seeded_backoff::policy::DeadlineMode;
use seeded_backoff::{Jitter, Policy};

pub const MAX_DELAY_MS: u32 = 2_147_483_647;

/// SPEC.md §2: the policy's fields as plain numbers.
#[derive(Clone, Copy, Debug)]
pub struct ModelPolicy {
    pub initial: u32,
    pub num: u32,
    pub den: u32,
    pub cap: u32,
    pub max_retries: u32,
    pub jitter_code: u8,
    pub param: u32,
    pub max_hint: u32,
    pub max_elapsed: u32,
    pub clamp: bool,
}

impl ModelPolicy {
    pub fn of(p: &Policy) -> ModelPolicy {
        let (num, den) = p.multiplier();
        let (jitter_code, param) = match p.jitter() {
            Jitter::None => (0, 0),
            Jitter::Google { jitter_ms } => (1, jitter_ms),
            Jitter::Full => (2, 0),
            Jitter::Equal => (3, 0),
            Jitter::Decorrelated => (4, 0),
            Jitter::Proportional { spread_per_mille } => (5, spread_per_mille),
        };
        ModelPolicy {
            initial: p.initial_ms(),
            num,
            den,
            cap: p.max_backoff_ms(),
            max_retries: p.max_retries(),
            jitter_code,
            param,
            max_hint: p.max_hint_ms(),
            max_elapsed: p.max_elapsed_ms(),
            clamp: p.deadline() == DeadlineMode::Clamp,
        }
    }

    /// §4.2 `grow`.
    pub fn grow(&self, level: u32) -> u32 {
        (level as u64 * self.num as u64 / self.den as u64).min(self.cap as u64) as u32
    }

    /// §4.3 `base_n`, iterating to the fixpoint.
    pub fn base(&self, n: u32) -> u32 {
        let mut level = self.initial;
        let mut i = 0u32;
        while i < n {
            let next = self.grow(level);
            if next == level {
                break;
            }
            level = next;
            i += 1;
        }
        level
    }

    /// §9: the 34-byte canonical encoding's CRC.
    pub fn fingerprint(&self) -> u32 {
        let mut enc = Vec::with_capacity(34);
        for w in [
            self.initial,
            self.num,
            self.den,
            self.cap,
            self.max_retries,
            self.param,
            self.max_hint,
            self.max_elapsed,
        ] {
            enc.extend_from_slice(&w.to_le_bytes());
        }
        enc.push(self.jitter_code);
        enc.push(self.clamp as u8);
        crc32(&enc)
    }
}

/// CRC-32 (IEEE, reflected), table-driven here so it is not the core's bitwise loop.
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *slot = c;
    }
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc = table[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc ^ 0xFFFF_FFFF
}

/// §3: xoshiro128++ seeded by SplitMix64, and Lemire's bounded draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelRng(pub [u32; 4]);

impl ModelRng {
    pub fn from_seed(seed: u64) -> ModelRng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let a = next();
        let b = next();
        let s = [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
        if s == [0; 4] {
            return ModelRng::from_seed(0);
        }
        ModelRng(s)
    }

    pub fn next_u32(&mut self) -> u32 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(7).wrapping_add(s[0]);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }

    pub fn uniform(&mut self, n: u32) -> u32 {
        if n == u32::MAX {
            return self.next_u32();
        }
        let s = n as u64 + 1;
        let mut m = self.next_u32() as u64 * s;
        if m % (1 << 32) < s {
            let t = ((1u64 << 32) - s) % s;
            while m % (1 << 32) < t {
                m = self.next_u32() as u64 * s;
            }
        }
        (m >> 32) as u32
    }
}

mod budget;
pub mod pacer;
pub mod run;
pub mod send_rate;
pub use budget::ModelBudget;

/// §5's result: a retry `(delay, index)` or a give-up code 1–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelStep {
    Retry(u32, u32),
    GiveUp(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelHint {
    RetryAfter(u32),
    /// §5 step 6's rate-limit reset: one more draw, upward.
    RateLimit(u32),
    DoNotRetry,
}

/// §4.1's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelBackoff {
    pub rng: ModelRng,
    pub retries: u32,
    pub level: u32,
    pub elapsed: u32,
    pub gave_up: u8,
}

fn sat32(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

impl ModelBackoff {
    pub fn new(p: &ModelPolicy, seed: u64) -> ModelBackoff {
        ModelBackoff {
            rng: ModelRng::from_seed(seed),
            retries: 0,
            level: p.initial,
            elapsed: 0,
            gave_up: 0,
        }
    }

    /// §4.2 on a copy of the generator: `(delay, next level, generator after)`.
    fn compute(&self, p: &ModelPolicy) -> (u32, u32, ModelRng) {
        let mut rng = self.rng;
        let l = self.level as u64;
        let cap = p.cap as u64;
        let grown = p.grow(self.level);
        let (d, next) = match p.jitter_code {
            0 => (l, grown),
            1 => ((l + rng.uniform(p.param) as u64).min(cap), grown),
            2 => (rng.uniform(self.level) as u64, grown),
            3 => (l / 2 + rng.uniform((l - l / 2) as u32) as u64, grown),
            5 => {
                let s = l * p.param as u64 / 1000;
                ((l - s + rng.uniform((2 * s) as u32) as u64).min(cap), grown)
            }
            _ => {
                let init = p.initial as u64;
                let hi = init.max(sat32(3 * l) as u64);
                let d = cap.min(init + rng.uniform((hi - init) as u32) as u64);
                (d, d as u32)
            }
        };
        assert!(d <= u32::MAX as u64, "model delay {d} left u32");
        (d as u32, next, rng)
    }

    /// §5, step by step. `budget` carries the model budget and whether the failure was a timeout.
    pub fn step(
        &mut self,
        p: &ModelPolicy,
        hint: Option<ModelHint>,
        elapsed: Option<u64>,
        budget: Option<(&mut ModelBudget, bool)>,
    ) -> ModelStep {
        if self.gave_up != 0 {
            return ModelStep::GiveUp(self.gave_up);
        }
        let mut budget = budget;
        if let Some((b, _)) = budget.as_mut() {
            b.record_failure();
        }
        if hint == Some(ModelHint::DoNotRetry) {
            self.gave_up = 4;
            return ModelStep::GiveUp(4);
        }
        if self.retries >= p.max_retries {
            self.gave_up = 1;
            return ModelStep::GiveUp(1);
        }
        if let Some(ModelHint::RetryAfter(h) | ModelHint::RateLimit(h)) = hint {
            if h > p.max_hint {
                self.gave_up = 5;
                return ModelStep::GiveUp(5);
            }
        }
        let (mut d, next_level, mut rng) = self.compute(p);
        match hint {
            Some(ModelHint::RetryAfter(h)) => d = d.max(h),
            Some(ModelHint::RateLimit(h)) => {
                let x = rng.uniform(1000 + h / 10);
                d = d.max((h as u64 + x as u64).min(MAX_DELAY_MS as u64) as u32);
            }
            _ => {}
        }
        let e = match elapsed {
            Some(ms) => sat32(ms),
            None => self.elapsed,
        };
        if p.max_elapsed > 0 {
            let remaining = (p.max_elapsed as u64).saturating_sub(e as u64) as u32;
            if !p.clamp && d > remaining {
                self.gave_up = 2;
                return ModelStep::GiveUp(2);
            }
            if p.clamp {
                if remaining == 0 {
                    self.gave_up = 2;
                    return ModelStep::GiveUp(2);
                }
                d = d.min(remaining);
            }
        }
        if let Some((b, timeout)) = budget {
            if !b.try_acquire(timeout) {
                self.gave_up = 3;
                return ModelStep::GiveUp(3);
            }
        }
        self.rng = rng;
        self.level = next_level;
        self.elapsed = sat32(e as u64 + d as u64);
        let retry = self.retries;
        self.retries += 1;
        ModelStep::Retry(d, retry)
    }

    pub fn reset(&mut self, p: &ModelPolicy) {
        self.retries = 0;
        self.level = p.initial;
        self.elapsed = 0;
        self.gave_up = 0;
    }

    /// §4.3.
    pub fn fast_forward(&mut self, p: &ModelPolicy, n: u32) {
        let n = n.min(p.max_retries);
        self.retries = n;
        self.level = p.base(n);
    }

    /// §9's 40 bytes.
    pub fn snapshot(&self, p: &ModelPolicy) -> [u8; 40] {
        let mut out = [0u8; 40];
        out[0] = 1;
        out[1] = self.gave_up;
        for (i, w) in self.rng.0.iter().enumerate() {
            out[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        out[20..24].copy_from_slice(&self.retries.to_le_bytes());
        out[24..28].copy_from_slice(&self.level.to_le_bytes());
        out[28..32].copy_from_slice(&self.elapsed.to_le_bytes());
        out[32..36].copy_from_slice(&p.fingerprint().to_le_bytes());
        let crc = crc32(&out[..36]);
        out[36..40].copy_from_slice(&crc.to_le_bytes());
        out
    }

    /// §9 `restore`: the checks in order, each failure by its SPEC name.
    pub fn restore(p: &ModelPolicy, bytes: &[u8]) -> Result<ModelBackoff, &'static str> {
        if bytes.len() != 40 {
            return Err("wrong_length");
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if bytes[0] != 1 {
            return Err("unknown_version");
        }
        if crc32(&bytes[..36]) != word(36) {
            return Err("bad_checksum");
        }
        if word(32) != p.fingerprint() {
            return Err("policy_mismatch");
        }
        let rng = [word(4), word(8), word(12), word(16)];
        if rng == [0; 4] {
            return Err("zero_rng_state");
        }
        let (retries, level) = (word(20), word(24));
        if bytes[2] != 0
            || bytes[3] != 0
            || bytes[1] > 5
            || retries > p.max_retries
            || level < p.initial
            || level > p.cap
        {
            return Err("invalid_state");
        }
        Ok(ModelBackoff {
            rng: ModelRng(rng),
            retries,
            level,
            elapsed: word(28),
            gave_up: bytes[1],
        })
    }
}
