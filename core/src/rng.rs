//! The specified random source: xoshiro128++ seeded by SplitMix64, and Lemire's bounded draw.
//!
//! References: D. Blackman and S. Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS
//! 2021 (xoshiro128++); D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 2019.
//! SPEC.md §3 restates both precisely enough to port.

/// The generator behind every jitter draw: xoshiro128++'s four state words, stepped exactly as the
/// reference (`rand_xoshiro::Xoshiro128PlusPlus`, which the tests compare against).
///
/// Written out rather than wrapping `rand_xoshiro`: its constructor reads the seed from bytes
/// through `rand_core`'s slice helpers, whose length checks LLVM does not always fold at
/// `opt-level = "s"`, and an unfolded check links `core::fmt` into a wasm or firmware build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpecRng([u32; 4]);

/// SplitMix64's increment (the golden ratio in 64 bits).
pub(crate) const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output (S. Vigna, <https://prng.di.unimi.it/splitmix64.c>) that follows state
/// `x`: the next state is `x + GOLDEN_GAMMA`. A bijection of `x` (SPEC.md §3.1); the fleet seeder
/// uses it as a hash step too.
///
/// Out of line on bare metal: the seeders call it three times and a firmware seeds once, so one
/// copy of its two 64-bit multiplies serves them all (thumbv7m: a device's seed and init take 486 B
/// instead of 674 B). Inlined elsewhere, where a server seeds per request (1.3 instructions per
/// delay in the bench's Google schedule).
#[cfg_attr(target_os = "none", inline(never))]
#[cfg_attr(not(target_os = "none"), inline)]
pub(crate) const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SpecRng {
    /// `rand_xoshiro`'s `seed_from_u64`: two SplitMix64 outputs, little-endian, as the four words
    /// (test `seeding_is_rand_xoshiro_seed_from_u64`).
    #[inline]
    pub(crate) fn from_seed_u64(seed: u64) -> Self {
        // On bare metal `splitmix64` is out of line, so two calls are the least code (thumbv7m:
        // a device's init 24 B smaller than a loop over the outputs, whose array lives on the
        // stack). Elsewhere it is inlined, and a loop over the two outputs keeps one copy of its
        // two 64-bit multiplies.
        let [a, b] = if cfg!(target_os = "none") {
            [
                splitmix64(seed),
                splitmix64(seed.wrapping_add(GOLDEN_GAMMA)),
            ]
        } else {
            let (mut outputs, mut x) = ([0u64; 2], seed);
            for out in &mut outputs {
                *out = splitmix64(x);
                x = x.wrapping_add(GOLDEN_GAMMA);
            }
            outputs
        };
        // Never all zero: SplitMix64's output is a bijection of its counter, so two consecutive
        // outputs differ and at most one of them is zero.
        SpecRng([a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32])
    }

    /// The four state words, little-endian.
    pub(crate) fn state(&self) -> [u8; 16] {
        let [a, b, c, d] = self.0.map(u128::from);
        (d << 96 | c << 64 | b << 32 | a).to_le_bytes()
    }

    /// A generator from the words `s0..s3` (the C ABI's and `RawBackoff`'s form); `None` for the
    /// all-zero state, which xoshiro cannot leave.
    pub(crate) fn from_words(words: [u32; 4]) -> Option<Self> {
        // One OR of the words, not an array comparison: on Cortex-M that is a `memcmp` call
        // against a 16-byte constant, with the words stored to the stack to pass them.
        let [a, b, c, d] = words;
        (a | b | c | d != 0).then_some(SpecRng(words))
    }

    /// The state words `s0..s3`.
    pub(crate) fn words(&self) -> [u32; 4] {
        self.0
    }

    /// One raw 32-bit output: xoshiro128++ (Blackman and Vigna).
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
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

    /// A uniform integer in `[0, n]`, both ends included, without bias (SPEC.md §3.3).
    ///
    /// One generator step and one multiply per draw; a product whose low half is below `s = n + 1`
    /// (probability below `s / 2^32`) is checked against the exact threshold `(2^32 − s) mod s`
    /// and drawn again below it. The loop draws at one site, so the inlined draw carries one
    /// generator step; the threshold's division is on the rare path, and with a constant `n` (a
    /// preset's jitter) it folds to a constant. `s` is 32 bits wide, and `n = u32::MAX` (s = 2^32)
    /// is the raw output, as SPEC.md §3.3 writes it: a test that a caller's loop hoists, where a
    /// 64-bit `s` costs a wider compare on every draw (x86-64: 42.2 to 40.7 instructions per
    /// Google delay) and, on a 32-bit core, a second multiply and two registers across the loop.
    #[inline]
    pub(crate) fn uniform(&mut self, n: u32) -> u32 {
        match n.checked_add(1) {
            Some(s) => self.uniform_below(s),
            None => self.next_u32(),
        }
    }

    /// `uniform(s − 1)` for `s ≥ 1` (SPEC.md §3.3's `s = n + 1`), for a caller that knows `n` is
    /// below `u32::MAX`: the Google step, whose `jitter_ms` is at most the cap. The test for
    /// `n = u32::MAX` is then not made on every draw (a caller's loop does not hoist it: 2
    /// instructions per Google delay in the two-call-site program). `s = 0` draws as `s = 1`.
    #[inline]
    pub(crate) fn uniform_below(&mut self, s: u32) -> u32 {
        let s = s.max(1);
        let mut bound = s;
        loop {
            let m = u64::from(self.next_u32()) * u64::from(s);
            let low = m as u32;
            if low >= bound {
                return (m >> 32) as u32;
            }
            // (2^32 − s) mod s, the count of low products that would bias the result.
            let threshold = s.wrapping_neg() % s;
            if low >= threshold {
                return (m >> 32) as u32;
            }
            bound = threshold;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro128PlusPlus;

    #[test]
    fn seeding_matches_splitmix64_split_into_words() {
        // SPEC.md §3.1, derived by hand from the SplitMix64 definition.
        fn splitmix(x: &mut u64) -> u64 {
            *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = *x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        for seed in [0u64, 1, 42, 1 << 32, u64::MAX] {
            let mut x = seed;
            let a = splitmix(&mut x);
            let b = splitmix(&mut x);
            let mut expected = [0u8; 16];
            expected[..8].copy_from_slice(&a.to_le_bytes());
            expected[8..].copy_from_slice(&b.to_le_bytes());
            assert_eq!(
                SpecRng::from_seed_u64(seed).state(),
                expected,
                "seed {seed}"
            );
        }
        // The published first SplitMix64 output for seed 0.
        assert_eq!(splitmix(&mut 0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn outputs_are_rand_xoshiro_xoshiro128_plus_plus() {
        use rand_core::Rng;
        for seed in [0u64, 1, 7, 0x5eed, u64::MAX] {
            let mut ours = SpecRng::from_seed_u64(seed);
            let mut reference = Xoshiro128PlusPlus::seed_from_u64(seed);
            for i in 0..1000 {
                assert_eq!(
                    ours.next_u32(),
                    reference.next_u32(),
                    "seed {seed}, output {i}"
                );
            }
            assert_eq!(ours.state(), reference.state());
        }
    }

    #[test]
    fn seeding_is_rand_xoshiro_seed_from_u64() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for seed in [0u64, 1, 7, u64::MAX, u64::MAX - 0x9E37_79B9_7F4A_7C15]
            .into_iter()
            .chain((0..1000).map(|_| {
                x = x.wrapping_add(GOLDEN_GAMMA);
                splitmix64(x)
            }))
        {
            assert_eq!(
                SpecRng::from_seed_u64(seed).state(),
                Xoshiro128PlusPlus::seed_from_u64(seed).state(),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn next_u32_is_xoshiro128_plus_plus() {
        let mut rng = SpecRng::from_seed_u64(7);
        let st = rng.state();
        let mut s = [0u32; 4];
        for (i, w) in s.iter_mut().enumerate() {
            *w = u32::from_le_bytes([st[4 * i], st[4 * i + 1], st[4 * i + 2], st[4 * i + 3]]);
        }
        for _ in 0..100 {
            let expected = s[0].wrapping_add(s[3]).rotate_left(7).wrapping_add(s[0]);
            let t = s[1] << 9;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = s[3].rotate_left(11);
            assert_eq!(rng.next_u32(), expected);
        }
    }

    #[test]
    fn words_are_the_little_endian_state() {
        let rng = SpecRng::from_seed_u64(11);
        let st = rng.state();
        let words = rng.words();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(w.to_le_bytes(), st[4 * i..4 * i + 4], "word {i}");
        }
        assert_eq!(SpecRng::from_words(words), Some(rng));
        assert_eq!(SpecRng::from_words([0; 4]), None);
        assert!(SpecRng::from_words([0, 0, 0, 1]).is_some());
    }

    #[test]
    fn uniform_zero_consumes_one_draw() {
        let mut a = SpecRng::from_seed_u64(1);
        let mut b = a.clone();
        assert_eq!(a.uniform(0), 0);
        b.next_u32();
        assert_eq!(a, b);
    }

    #[test]
    fn uniform_full_range_is_raw_output() {
        let mut a = SpecRng::from_seed_u64(3);
        let mut b = a.clone();
        assert_eq!(a.uniform(u32::MAX), b.next_u32());
    }

    /// SPEC.md §3.3's draw with `s = n + 1` in 64 bits, where `n = u32::MAX` needs no case of its
    /// own: the reference `uniform` is checked against.
    fn uniform_wide(rng: &mut SpecRng, n: u32) -> u32 {
        let s = u64::from(n) + 1;
        let threshold = ((1u64 << 32) - s) % s;
        loop {
            let m = u64::from(rng.next_u32()) * s;
            if m & 0xFFFF_FFFF >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    #[test]
    fn uniform_is_the_64_bit_draw() {
        // Edge ranges (0, 1, the rejection-heavy 2^31, the largest, 2^32 − 2) and a spread of
        // others, each drawn 200 times from one seed by both forms, which must also consume the
        // same draws.
        let mut ns = [
            0u32,
            1,
            2,
            3,
            999,
            1000,
            64_000,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX - 1,
            u32::MAX,
        ]
        .to_vec();
        ns.extend((0..64).map(|i: u32| i.wrapping_mul(0x9E37_79B9) >> (i % 32)));
        for (i, &n) in ns.iter().enumerate() {
            let mut got = SpecRng::from_seed_u64(i as u64);
            let mut reference = got.clone();
            for _ in 0..200 {
                assert_eq!(got.uniform(n), uniform_wide(&mut reference, n), "n = {n}");
            }
            assert_eq!(
                got, reference,
                "n = {n}: the forms consumed different draws"
            );
        }
    }

    #[test]
    fn uniform_rejects_biased_low_products() {
        // With s = 2^31 + 1 the threshold is 2^31 − 1: roughly half the outputs are rejected, so the
        // rejection path runs many times within a few hundred draws. Each result must stay in range
        // and equal the spec's loop written out independently.
        let n = 1u32 << 31;
        let mut rng = SpecRng::from_seed_u64(99);
        let mut reference = rng.clone();
        for _ in 0..500 {
            let got = rng.uniform(n);
            let s = n as u64 + 1;
            let t = ((1u64 << 32) - s) % s;
            let mut m = reference.next_u32() as u64 * s;
            while (m & 0xFFFF_FFFF) < t {
                m = reference.next_u32() as u64 * s;
            }
            assert_eq!(got as u64, m >> 32);
            assert!(got <= n);
        }
        assert_eq!(rng, reference);
    }
}
