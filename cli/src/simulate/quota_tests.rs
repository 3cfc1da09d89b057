//! The quota scenario's goals and its parts, with values derived by hand.

use super::*;
use crate::simulate::quota_report::refused_after_first_s_permille;
use crate::simulate::strategy::ALL_STRATEGIES;

fn ours(quota: u32, seed: u64) -> QuotaRow {
    fleet_row(
        String::new(),
        0,
        Limiter::Ours(OURS),
        Fleet::ONE,
        quota,
        1000,
        seed,
    )
}

// The goals (SPEC.md §17's issue): goodput ≥ 97 % of the quota, refused ≤ 3 % of attempts,
// back within 5 % of a changed quota in ≤ 10 s; at the default quota and at 4× it, each seed.
#[test]
fn the_send_rate_meets_its_goals_in_the_quota_scenario() {
    for quota in [100, 400] {
        for seed in 1..=4 {
            let r = ours(quota, seed);
            let what = format!("quota {quota} seed {seed}: {r:?}");
            assert!(r.goodput_permille >= 970, "goodput {what}");
            assert!(r.refused_permille <= 30, "refused {what}");
            for settle in r.settle_ms {
                assert!(settle.is_some_and(|ms| ms <= 10_000), "settle {what}");
            }
            assert_eq!((r.run.failed, r.run.unfinished), (0, 0), "{what}");
        }
    }
}

// What the other rows show: without a limiter the quota is full but most attempts are refused
// (or, for api-core-default, most requests fail); AWS's model saws under the quota.
#[test]
fn no_limiter_fills_the_quota_by_refusals_and_aws_saws_below_it() {
    for s in ALL_STRATEGIES {
        let r = fleet_row(
            String::new(),
            0,
            Limiter::PerRequest(s),
            Fleet::ONE,
            100,
            1000,
            1,
        );
        assert!(r.goodput_permille >= 990, "{} {r:?}", s.name());
        assert!(r.refused_permille >= 600, "{} {r:?}", s.name());
        if !s.retries_429() {
            assert!(r.run.failed > r.run.requests / 2, "{r:?}");
        }
    }
    let aws = fleet_row(String::new(), 0, Limiter::Aws, Fleet::ONE, 100, 1000, 1);
    assert!(aws.goodput_permille < 900, "{aws:?}");
    assert!(aws.refused_permille <= 30, "{aws:?}");
}

#[test]
fn the_quota_is_halved_from_20_to_40_s() {
    assert_eq!(quota_at(100, 19_999), 100);
    assert_eq!(quota_at(100, 20_000), 50);
    assert_eq!(quota_at(100, 39_999), 50);
    assert_eq!(quota_at(100, 40_000), 100);
    assert_eq!(quota_total(100), 100 * 40 + 50 * 20);
    // The server's bucket: a tenth of a second's burst, then the quota per ms.
    let mut s = Bucket::server(100);
    assert_eq!((0..20).filter(|_| s.admit(0)).count(), 10);
    assert!(!s.admit(9));
    assert!(s.admit(10));
    // Over the halving: 10 ms at 100/s then 10 ms at 50/s fill 1.5 tokens.
    let mut s = Bucket::server(100);
    while s.admit(19_990) {}
    assert!(s.admit(20_010));
    assert!(!s.admit(20_010));
    assert!(s.admit(20_020));
    // A fixed bucket does not halve, and says when its next token is there: 100/s, 10 ms each.
    let mut f = Bucket::fixed(100);
    while f.take(20_000).is_ok() {}
    assert_eq!(f.take(20_000), Err(20_010));
    assert_eq!(f.take(20_010), Ok(()));
}

#[test]
fn settled_is_from_after_the_last_window_out_of_bounds() {
    // 100/s in 100 ms bins: 10 a bin, but 5 in bins 3 and 4.
    let mut bins = vec![10u32; 100];
    bins[3] = 5;
    bins[4] = 5;
    // The windows from bins 0..=4 hold 90 or 95 (in bounds at 95): the last one out is from
    // bin 3 (90), so settled from bin 4 (window 4..14 holds 95).
    assert_eq!(settle_ms(&bins, 100, 0, 10_000), Some(400));
    assert_eq!(settle_ms(&[10; 100], 100, 0, 10_000), Some(0));
    assert_eq!(settle_ms(&[10; 100], 100, 2000, 10_000), Some(0));
    // The last window out of bounds: never settled.
    let mut late = vec![10u32; 100];
    late[99] = 0;
    assert_eq!(settle_ms(&late, 100, 0, 10_000), None);
}

fn fleet(limiter: Limiter, shared: bool, seed: u64) -> QuotaRow {
    let fleet = Fleet {
        processes: FLEET_PROCESSES,
        shared,
    };
    fleet_row(String::new(), 0, limiter, fleet, 100, 1000, seed)
}

// One send rate shared by 50 processes through a store is one process's send rate (SPEC.md §19:
// every decision is the core's on the one state), the store's round trip aside: the same goodput
// and refusals within a point, nothing lost.
#[test]
fn a_shared_send_rate_makes_a_fleet_one_process() {
    for seed in 1..=4 {
        let one = ours(100, seed);
        let shared = fleet(Limiter::Ours(OURS), true, seed);
        let what = format!("seed {seed}: {one:?} / {shared:?}");
        assert!(
            shared.goodput_permille.abs_diff(one.goodput_permille) <= 15,
            "{what}"
        );
        assert!(refused_after_first_s_permille(&shared) <= 10, "{what}");
        assert_eq!((shared.run.failed, shared.run.unfinished), (0, 0), "{what}");
    }
}

// A rate set once to the quota and shared (Bottleneck's clustering) fills the quota but does not
// follow its change: while the server accepts 50/s for 20 s it still sends 100/s, and the other
// (100 − 50) · 20 = 1000 attempts are refused (give or take the burst of 10 and a second's edge).
#[test]
fn a_fixed_shared_rate_is_refused_for_the_halved_quota() {
    let fixed = fleet(Limiter::Fixed(100), true, 1);
    assert!((900..=1100).contains(&fixed.run.refused), "{fixed:?}");
    assert!(fixed.goodput_permille >= 995, "{fixed:?}");
    assert_eq!(
        (fixed.run.failed, fixed.run.unfinished),
        (0, 0),
        "{fixed:?}"
    );
}

// 50 processes each with its own send rate see a fiftieth of the 429s each: they keep being
// refused long after the first second, where one shared rate is not.
#[test]
fn a_send_rate_each_is_refused_more_than_one_shared() {
    for seed in 1..=2 {
        let own = fleet(Limiter::Ours(OURS), false, seed);
        let shared = fleet(Limiter::Ours(OURS), true, seed);
        assert!(
            refused_after_first_s_permille(&own) > 5 * refused_after_first_s_permille(&shared),
            "seed {seed}: {own:?} / {shared:?}"
        );
    }
}
