//! SPEC.md §12 against tests/vectors/fleet/fleet.json, which the independent Python model
//! (tests/model/fleet_model.py) writes.

use seeded_backoff::{
    fleet::{seed_from_device, startup_delay_ms, FleetError},
    policy::MAX_DELAY_MS,
};
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fleet/fleet.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("fleet.json")).expect("JSON")
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn seeds_match_the_model() {
    let doc = vectors();
    let cases = doc["seeds"].as_array().expect("seeds");
    assert!(cases.len() >= 20);
    for (i, c) in cases.iter().enumerate() {
        let id = hex(c["id_hex"].as_str().unwrap());
        let counter = u32::try_from(c["boot_counter"].as_u64().unwrap()).unwrap();
        let want: u64 = c["seed"].as_str().unwrap().parse().unwrap();
        assert_eq!(seed_from_device(&id, counter), want, "seeds #{i}");
    }
}

#[test]
fn startup_delays_match_the_model() {
    let doc = vectors();
    let cases = doc["startup_delays"].as_array().expect("startup_delays");
    assert!(cases.len() >= 20);
    for (i, c) in cases.iter().enumerate() {
        let seed: u64 = c["seed"].as_str().unwrap().parse().unwrap();
        let window = u32::try_from(c["window_ms"].as_u64().unwrap()).unwrap();
        let got = startup_delay_ms(seed, window);
        match c.get("expect_ms") {
            Some(ms) => assert_eq!(
                got,
                Ok(u32::try_from(ms.as_u64().unwrap()).unwrap()),
                "#{i}"
            ),
            None => {
                assert_eq!(c["error"], "window_ms", "#{i}");
                assert_eq!(got.unwrap_err().error, FleetError::WindowMs, "#{i}");
            }
        }
    }
}

#[test]
fn one_device_never_repeats_a_seed_across_boots() {
    let id = *b"\x00\x1b\x63\x84\x45\xe6";
    let mut seen = std::collections::HashSet::new();
    // Fewer under Miri, which interprets every step and has nothing to add to safe code.
    for counter in 0..if cfg!(miri) { 1_000 } else { 100_000 } {
        assert!(
            seen.insert(seed_from_device(&id, counter)),
            "boot {counter}"
        );
    }
}

// Bulk statistics: far too slow interpreted, and Miri has nothing to add to safe code.
#[cfg_attr(miri, ignore)]
#[test]
fn a_fleet_spreads_over_the_window() {
    // 10 000 devices, a 60 s window cut in 10 slots: each slot gets 1 000 ± 15 %.
    let mut slots = [0u32; 10];
    for device in 0u32..10_000 {
        let seed = seed_from_device(&device.to_le_bytes(), 0);
        let ms = startup_delay_ms(seed, 59_999).unwrap();
        slots[(ms / 6_000) as usize] += 1;
    }
    assert!(
        slots.iter().all(|&n| (850..=1150).contains(&n)),
        "{slots:?}"
    );
    let err = startup_delay_ms(0, MAX_DELAY_MS + 1).unwrap_err();
    assert_eq!(err.error, FleetError::WindowMs);
    assert_eq!(err.got, 2_147_483_648);
}
