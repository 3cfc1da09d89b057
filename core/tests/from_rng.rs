//! `Backoff::from_rng` (feature `rand_core`): a state seeded from any generator is the state of
//! the seed it drew, and it draws exactly one `u64`.
#![cfg(feature = "rand_core")]

use core::convert::Infallible;

use rand_core::{Rng, SeedableRng, TryRng};
use rand_xoshiro::Xoshiro128PlusPlus;
use seeded_backoff::{Backoff, Policy};

/// Counts each kind of call and answers a fixed sequence, like a HAL's hardware generator would
/// answer fresh numbers.
#[derive(Default)]
struct Counting {
    u32s: u32,
    u64s: u32,
    fills: u32,
}

impl TryRng for Counting {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.u32s += 1;
        Ok(0xDEAD_BEEF)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.u64s += 1;
        Ok(0x5eed_0000_0000_0000 + u64::from(self.u64s))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.fills += 1;
        dst.fill(0xAB);
        Ok(())
    }
}

#[test]
fn draws_exactly_one_u64_and_seeds_with_it() {
    let policy = Policy::google();
    let mut rng = Counting::default();
    let first = Backoff::from_rng(&policy, &mut rng);
    assert_eq!((rng.u32s, rng.u64s, rng.fills), (0, 1, 0));
    assert_eq!(first, Backoff::new(&policy, 0x5eed_0000_0000_0001));
    let second = Backoff::from_rng(&policy, &mut rng);
    assert_eq!((rng.u32s, rng.u64s, rng.fills), (0, 2, 0));
    assert_eq!(second, Backoff::new(&policy, 0x5eed_0000_0000_0002));
}

#[test]
fn a_xoshiro_generator_seeds_as_its_next_u64() {
    let policy = Policy::grpc();
    for seed in [0u64, 1, 42, u64::MAX] {
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
        let mut twin = rng.clone();
        let mut from_rng = Backoff::from_rng(&policy, &mut rng);
        let mut from_seed = Backoff::new(&policy, twin.next_u64());
        // The generator moved on by exactly that one draw.
        assert_eq!(rng.next_u64(), twin.next_u64(), "seed {seed}");
        for _ in 0..20 {
            assert_eq!(from_rng.next_delay(&policy), from_seed.next_delay(&policy));
        }
    }
}

#[test]
fn works_through_a_trait_object_and_a_reference() {
    let policy = Policy::google();
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(7);
    let mut twin = rng.clone();
    let dynamic: &mut dyn Rng = &mut rng;
    let a = Backoff::from_rng(&policy, dynamic);
    let b = Backoff::from_rng(&policy, &mut &mut twin);
    assert_eq!(a, b);
}
