//! Snapshot bytes from anywhere: arbitrary bytes, or well-formed snapshots with arbitrary fields
//! (so the fuzzer gets past the CRC), possibly damaged afterwards. Every input is either rejected
//! with the error SPEC.md §9 names, or restores to a state that re-encodes to the same bytes and
//! runs within bounds. Snapshots of live states round-trip exactly.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::policy::MAX_DELAY_MS;
use seeded_backoff::{Backoff, Policy, Step};
use seeded_backoff_fuzz::inputs::PolicyFields;
use seeded_backoff_fuzz::model::{crc32, ModelBackoff, ModelPolicy};

#[derive(Arbitrary, Debug)]
enum Bytes {
    /// Whatever the fuzzer made.
    Raw(Vec<u8>),
    /// A well-formed snapshot around arbitrary fields, under this policy or a foreign fingerprint.
    Fields {
        version: u8,
        gave_up: u8,
        reserved: [u8; 2],
        rng: [u32; 4],
        retries: u32,
        level: u32,
        elapsed: u32,
        foreign_fingerprint: Option<u32>,
        /// Flip one bit (index mod 320) after the CRC was computed.
        flip: Option<u16>,
        /// Keep only the first n bytes (or append one).
        truncate: Option<u8>,
    },
    /// The snapshot of a live state after some steps.
    Live {
        seed: u64,
        steps: u8,
        fast_forward: u32,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: PolicyFields,
    preset: u8,
    bytes: Bytes,
}

fn policy_of(input: &Input) -> Policy {
    match input.preset % 6 {
        0 => Policy::google(),
        1 => Policy::aws_standard(),
        2 => Policy::grpc(),
        3 => Policy::google_64s(),
        4 => Policy::mobile(),
        _ => input.policy.valid(),
    }
}

fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

fn encode(mp: &ModelPolicy, bytes: &Bytes) -> Vec<u8> {
    let Bytes::Fields {
        version,
        gave_up,
        reserved,
        rng,
        retries,
        level,
        elapsed,
        foreign_fingerprint,
        flip,
        truncate,
    } = *bytes
    else {
        unreachable!()
    };
    // Pull the numbers toward the policy's valid ranges half the time, so some restores succeed.
    let (retries, level, gave_up, version, reserved) = if version & 0x80 == 0 {
        (
            retries % mp.max_retries.saturating_add(1),
            seeded_backoff_fuzz::inputs::fit(level, mp.initial, mp.cap),
            gave_up % 5,
            1,
            [0, 0],
        )
    } else {
        (retries, level, gave_up, version & 0x7f, reserved)
    };
    let mut out = vec![version, gave_up, reserved[0], reserved[1]];
    for w in rng {
        out.extend_from_slice(&le(w));
    }
    for w in [
        retries,
        level,
        elapsed,
        foreign_fingerprint.unwrap_or(mp.fingerprint()),
    ] {
        out.extend_from_slice(&le(w));
    }
    let crc = crc32(&out);
    out.extend_from_slice(&le(crc));
    if let Some(bit) = flip {
        let bit = bit as usize % 320;
        out[bit / 8] ^= 1 << (bit % 8);
    }
    if let Some(n) = truncate {
        if n as usize >= out.len() {
            out.push(n);
        } else {
            out.truncate(n as usize);
        }
    }
    out
}

fn run_within_bounds(policy: &Policy, mut b: Backoff) {
    let cap = policy.max_backoff_ms();
    let given_up = b.gave_up();
    for _ in 0..50 {
        let before = b.retries();
        match b.next_delay(policy) {
            Step::Retry { delay_ms, retry } => {
                assert!(given_up.is_none(), "a restored give-up must stay given up");
                assert_eq!(retry, before);
                assert!(delay_ms <= cap && cap <= MAX_DELAY_MS);
            }
            Step::GiveUp(r) => {
                if let Some(g) = given_up {
                    assert_eq!(r, g);
                }
                break;
            }
        }
        assert!(b.retries() <= policy.max_retries());
        let level = b.to_raw().level;
        assert!((policy.initial_ms()..=cap).contains(&level));
    }
}

fuzz_target!(|input: Input| {
    let policy = policy_of(&input);
    let mp = ModelPolicy::of(&policy);
    let bytes = match &input.bytes {
        Bytes::Raw(v) => v.clone(),
        f @ Bytes::Fields { .. } => encode(&mp, f),
        Bytes::Live {
            seed,
            steps,
            fast_forward,
        } => {
            let mut live = Backoff::new(&policy, *seed);
            live.fast_forward(&policy, *fast_forward);
            for _ in 0..*steps % 64 {
                live.next_delay(&policy);
            }
            let snap = live.snapshot(&policy);
            let back = Backoff::restore(&policy, &snap).expect("a live snapshot must restore");
            assert_eq!(back, live, "round trip changed the state");
            let (mut a, mut b) = (live.clone(), back);
            for _ in 0..20 {
                assert_eq!(a.next_delay(&policy), b.next_delay(&policy));
            }
            snap.to_vec()
        }
    };
    let got = Backoff::restore(&policy, &bytes);
    let expected = ModelBackoff::restore(&mp, &bytes);
    match (&got, &expected) {
        (Err(e), Err(name)) => {
            assert_eq!(e.name(), *name, "wrong rejection for {bytes:02x?}");
            assert!(!e.message().is_empty());
        }
        (Ok(b), Ok(m)) => {
            let raw = b.to_raw();
            assert_eq!(raw.rng, m.rng.0);
            assert_eq!(
                (raw.retries, raw.level, raw.elapsed_ms, raw.gave_up),
                (m.retries, m.level, m.elapsed, m.gave_up as u32)
            );
            assert_eq!(
                &b.snapshot(&policy)[..],
                &bytes[..],
                "valid snapshot must round-trip"
            );
            // RawBackoff agrees with the snapshot path.
            assert_eq!(Backoff::from_raw(&policy, raw).as_ref(), Ok(b));
            run_within_bounds(&policy, b.clone());
        }
        _ => panic!("restore gave {got:?}, SPEC §9 expects {expected:?} for {bytes:02x?}"),
    }
});
