//! The simulator's setup, estimate and dispatch.

use super::outage::outage;
use super::*;

fn setup(contention: bool, clients: u32, capacity: u32) -> Setup {
    Setup {
        strategies: ALL_STRATEGIES.to_vec(),
        contention,
        outage: !contention,
        shed: false,
        quota: false,
        contention_clients: clients,
        outage_clients: clients,
        runs: 1,
        seed: 1,
        outage_s: 120,
        capacity,
        base_ms: model::OUTAGE_BASE_MS,
        phones: None,
    }
}

// The estimate against the requests the simulation really makes, summed over the strategies.
#[test]
fn the_work_estimate_is_within_a_factor_of_3() {
    for clients in [100, 1000, 5000] {
        let real: u64 = ALL_STRATEGIES
            .iter()
            .map(|&s| contention(s, clients, 1, 1).calls_total)
            .sum();
        let guess = estimate(&setup(true, clients, 1));
        assert!(
            guess * 3 >= real && guess <= 3 * real,
            "contention {clients}: {guess} vs {real}"
        );
    }
    for (clients, capacity) in [(1000, 100), (3000, 300), (2000, 20)] {
        let real: u64 = ALL_STRATEGIES
            .iter()
            .map(|&s| outage(s, clients, 1, 1, 120, capacity).requests_per_run)
            .sum();
        let guess = estimate(&setup(false, clients, capacity));
        assert!(
            guess * 3 >= real && guess <= 3 * real,
            "outage {clients}/{capacity}: {guess} vs {real}"
        );
    }
}

#[test]
fn per_item_keeps_the_order() {
    let got = per_item(&ALL_STRATEGIES, |&s| s);
    assert_eq!(got, ALL_STRATEGIES.to_vec());
}
