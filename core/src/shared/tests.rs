//! The stored value's encoding against bytes written out by hand (the fingerprints are zlib's
//! CRC-32 of the configuration words, computed apart), and the link's protocol against a store
//! kept in a variable: conflicts, the retry limit, falling back, rejoining, a lost key.

extern crate std;

use std::vec::Vec;

use super::*;
use crate::bindings::SEND_RATE_WORDS;
use crate::send_rate::SendRateConfig;
use crate::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    pacer::Pacer,
    send_rate::{Answer, Pace, SendRate},
    FailureKind,
};

#[test]
fn a_budget_value_is_the_header_and_its_tokens() {
    let budget = RetryBudget::aws_default();
    assert!(budget.try_acquire(FailureKind::Error));
    // "sb", version 1, kind 1, CRC-32 of [2, 500000, 5000, 10000, 1000] (0xfea37312), 495000.
    let mut want = Vec::from(*b"sb\x01\x01");
    want.extend_from_slice(&0xfea3_7312u32.to_le_bytes());
    want.extend_from_slice(&495_000u32.to_le_bytes());
    assert_eq!(budget.encode().as_slice(), want.as_slice());
    assert_eq!(
        RetryBudget::aws_default()
            .decode(&want)
            .map(|b| b.tokens_milli()),
        Ok(495_000)
    );
    let grpc = RetryBudget::grpc(10, 500).unwrap();
    assert_eq!(grpc.fingerprint(), 0x9e17_57fe);
}

#[test]
fn a_send_rate_and_a_pacer_carry_their_words_little_endian() {
    let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    rate.on_answer(10, Answer::Throttled { hint_ms: 0 });
    let value = rate.encode();
    assert_eq!(value.len(), 8 + 8 * SEND_RATE_WORDS);
    assert_eq!(&value[..8], b"sb\x01\x03\x48\x79\x4e\x20");
    assert_eq!(&value[8..16], &u64::from(rate.rate_milli()).to_le_bytes());
    assert_eq!(rate.decode(&value), Ok(rate));

    let mut pacer = Pacer::new(100, 100, 60, 7).unwrap();
    pacer.assign(5_000);
    let value = pacer.encode();
    assert_eq!(&value[..8], b"sb\x01\x02\x0f\x39\x9a\x2e");
    // latest_ms 5000, tail_s 6, reserve_s 6; then the generator; rate 90, 60 s, 1 in tail, 100.
    assert_eq!(&value[8..16], &5_000u64.to_le_bytes());
    assert_eq!(&value[16..24], &6u64.to_le_bytes());
    assert_eq!(&value[24..32], &6u64.to_le_bytes());
    assert_eq!(
        &value[48..64],
        &[90, 0, 0, 0, 60, 0, 0, 0, 1, 0, 0, 0, 100, 0, 0, 0]
    );
    assert_eq!(pacer.decode(&value), Ok(pacer.clone()));
}

#[test]
fn a_value_of_another_format_kind_configuration_or_state_is_refused_by_name() {
    let rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    let value = rate.encode();
    let other = SendRate::new(SendRateConfig {
        burst: 3,
        ..SendRateConfig::DEFAULT
    })
    .unwrap();
    assert_eq!(other.decode(&value), Err(StoreError::Config));
    assert_eq!(rate.decode(&value[..100]), Err(StoreError::Format));
    assert_eq!(rate.decode(b""), Err(StoreError::Format));
    let mut v2 = value;
    v2[2] = 2;
    assert_eq!(rate.decode(&v2), Err(StoreError::Format));
    assert_eq!(
        rate.decode(&RetryBudget::aws_default().encode()),
        Err(StoreError::Kind)
    );
    let mut bad = value;
    bad[8 + 5 * 8] = 2; // `decreased`, a flag, is 2
    assert_eq!(rate.decode(&bad), Err(StoreError::State));
    let budget = RetryBudget::grpc(10, 500).unwrap();
    let mut over = budget.encode();
    over[8..12].copy_from_slice(&10_001u32.to_le_bytes());
    assert_eq!(budget.decode(&over), Err(StoreError::State));
    assert_eq!(StoreError::Config.name(), "config");
}

/// A store in a variable: runs each step of one exchange against it until done, with the answer
/// of `op`; `down` makes every round trip fail.
struct Mem {
    value: Option<Vec<u8>>,
    time_ms: u64,
    down: bool,
    writes: u32,
}

impl Mem {
    fn run<P: SharedPart, T>(
        &mut self,
        link: &mut StoreLink<P>,
        now: u64,
        mut op: impl FnMut(&mut P, u64) -> T,
    ) -> (T, bool) {
        let mut ex = Exchange::default();
        let mut step = ex.begin(link, now);
        let mut out = None;
        loop {
            step = match step {
                Step::Done { stored } => return (out.unwrap(), stored),
                Step::Decide { mut state, now_ms } => {
                    out = Some(op(&mut state, now_ms));
                    ex.decided(link, state)
                }
                _ if self.down => ex.failed(link),
                Step::Read => ex.replied(
                    link,
                    Reply::Value {
                        value: self.value.as_deref(),
                        time_ms: self.time_ms,
                    },
                ),
                Step::CompareAndSet { expected, new } => {
                    if self.value.as_deref() == expected.as_ref().map(|v| v.as_ref()) {
                        self.value = Some(new.as_ref().to_vec());
                        self.writes += 1;
                        ex.replied(
                            link,
                            Reply::Set {
                                time_ms: self.time_ms,
                            },
                        )
                    } else {
                        ex.replied(
                            link,
                            Reply::Conflict {
                                value: self.value.as_deref(),
                                time_ms: self.time_ms,
                            },
                        )
                    }
                }
            };
        }
    }
}

fn mem() -> Mem {
    Mem {
        value: None,
        time_ms: 0,
        down: false,
        writes: 0,
    }
}

#[test]
fn two_links_on_one_key_spend_one_budget() {
    let config = BudgetConfig::aws_quota(10, 5, 10, 1).unwrap();
    let (mut a, mut b) = (
        StoreLink::new(RetryBudget::new(config), FleetClock::Caller),
        StoreLink::new(RetryBudget::new(config), FleetClock::Caller),
    );
    let mut store = mem();
    let acquire = |bud: &mut RetryBudget, _| bud.try_acquire(FailureKind::Error);
    // 10 tokens, 5 a retry: two retries in the fleet, whichever process asks.
    assert_eq!(store.run(&mut a, 0, acquire), (true, true));
    assert_eq!(store.run(&mut b, 0, acquire), (true, true));
    assert_eq!(store.run(&mut a, 0, acquire), (false, true));
    assert_eq!(store.run(&mut b, 0, acquire), (false, true));
    assert_eq!(a.state(), LinkState::Joined);
}

#[test]
fn the_store_clock_is_the_fleets_and_the_caller_clock_moves_onto_it() {
    let config = SendRateConfig {
        min_rate_milli: 10_000,
        max_rate_milli: 10_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let mut link = StoreLink::new(SendRate::new(config).unwrap(), FleetClock::Store);
    let mut store = mem();
    store.time_ms = 1_000_000;
    store.run(&mut link, 5, |r, now| {
        r.on_answer(now, Answer::Throttled { hint_ms: 0 })
    });
    // Decided at the store's 1_000_000; the caller's 5 is that instant.
    assert_eq!(link.fleet_ms(5), 1_000_000);
    assert_eq!(link.fleet_ms(105), 1_000_100);
    assert_eq!(
        store.run(&mut link, 5, |r, now| r.before_attempt(now)).0,
        Pace::Send
    );
    assert_eq!(
        store.run(&mut link, 5, |r, now| r.before_attempt(now)).0,
        Pace::Wait { ms: 100 }
    );
}

#[test]
fn a_store_that_is_down_leaves_the_process_deciding_alone_until_it_rejoins() {
    let mut link = StoreLink::new(RetryBudget::grpc(10, 1000).unwrap(), FleetClock::Caller);
    let mut store = mem();
    let fail = |b: &mut RetryBudget, _| b.record_failure(FailureKind::Error);
    store.run(&mut link, 0, fail);
    store.down = true;
    // Alone: decided at once from its own copy.
    assert_eq!(store.run(&mut link, 10, fail), ((), false));
    assert_eq!(link.state(), LinkState::Local);
    store.down = false;
    // Before REJOIN_MS the store is not asked even though it is back.
    assert!(!store.run(&mut link, 10 + u64::from(REJOIN_MS) - 1, fail).1);
    assert_eq!(link.local().tokens_milli(), 7_000);
    // At REJOIN_MS it reads the store and adopts the fleet's state (9 tokens) with the 2 it
    // spent alone carried in (SPEC.md §19.6), then decides this failure: 6, stored.
    store.run(&mut link, 10 + u64::from(REJOIN_MS), fail);
    assert_eq!(link.state(), LinkState::Joined);
    assert_eq!(link.local().tokens_milli(), 6_000);
    let stored = RetryBudget::grpc(10, 1000).unwrap();
    let stored = stored.decode(store.value.as_deref().unwrap()).unwrap();
    assert_eq!(stored.tokens_milli(), 6_000);
}

#[test]
fn a_rejoining_process_publishes_its_state_where_the_key_is_gone_and_a_joined_one_starts_cold() {
    let mut link = StoreLink::new(RetryBudget::grpc(10, 1000).unwrap(), FleetClock::Caller);
    let mut store = mem();
    let fail = |b: &mut RetryBudget, _| b.record_failure(FailureKind::Error);
    store.run(&mut link, 0, fail);
    store.run(&mut link, 0, fail);
    // The key is lost under a joined process (a flush, a failover): a cold start, full tokens.
    store.value = None;
    store.run(&mut link, 0, fail);
    assert_eq!(link.local().tokens_milli(), 9_000);
    // Down, then back with no key: the rejoining process publishes its own copy.
    store.down = true;
    store.run(&mut link, 1, fail);
    store.value = None;
    store.down = false;
    store.run(&mut link, 1 + u64::from(REJOIN_MS), fail);
    assert_eq!(link.local().tokens_milli(), 7_000);
    let stored = RetryBudget::grpc(10, 1000).unwrap();
    assert_eq!(
        stored
            .decode(store.value.as_deref().unwrap())
            .unwrap()
            .tokens_milli(),
        7_000
    );
}

#[test]
fn a_value_of_another_configuration_is_never_overwritten() {
    let mut store = mem();
    let mut theirs = StoreLink::new(RetryBudget::grpc(10, 1000).unwrap(), FleetClock::Caller);
    store.run(&mut theirs, 0, |b, _| b.record_failure(FailureKind::Error));
    let before = store.value.clone();
    let mut mine = StoreLink::new(RetryBudget::grpc(20, 1000).unwrap(), FleetClock::Caller);
    let (_, stored) = store.run(&mut mine, 0, |b, _| b.record_failure(FailureKind::Error));
    assert!(!stored);
    assert_eq!(mine.error(), Some(StoreError::Config));
    assert_eq!(mine.state(), LinkState::Local);
    assert_eq!(store.value, before);
}

#[test]
fn conflicts_are_decided_again_up_to_the_limit() {
    // A store whose value changes before every compare-and-set: each try conflicts.
    let mut link = StoreLink::new(RetryBudget::grpc(10, 1000).unwrap(), FleetClock::Caller);
    let mut ex = Exchange::default();
    let budget = RetryBudget::grpc(10, 1000).unwrap();
    let mut step = ex.begin(&mut link, 0);
    let mut tries = 0;
    loop {
        step = match step {
            Step::Read => ex.replied(
                &mut link,
                Reply::Value {
                    value: None,
                    time_ms: 0,
                },
            ),
            Step::Decide { state, .. } => {
                state.record_failure(FailureKind::Error);
                ex.decided(&mut link, state)
            }
            Step::CompareAndSet { .. } => {
                tries += 1;
                budget.record_success(None);
                budget.record_failure(FailureKind::Error);
                let value = budget.encode();
                ex.replied(
                    &mut link,
                    Reply::Conflict {
                        value: Some(&value),
                        time_ms: 0,
                    },
                )
            }
            Step::Done { stored } => {
                assert!(!stored);
                break;
            }
        };
    }
    assert_eq!(tries, MAX_TRIES);
}

#[test]
fn a_late_reply_costs_its_decision_only_and_late_limit_in_a_row_fall_back() {
    let mut link = StoreLink::new(RetryBudget::grpc(10, 1000).unwrap(), FleetClock::Caller);
    let mut store = mem();
    store.run(&mut link, 0, |b, _| b.record_failure(FailureKind::Error));
    let late = |link: &mut StoreLink<RetryBudget>| {
        let mut ex = Exchange::default();
        let Step::Decide { state, .. } = ex.begin(link, 5) else {
            panic!("a joined link decides at once")
        };
        assert!(matches!(
            ex.decided(link, state),
            Step::CompareAndSet { .. }
        ));
        // No reply within the bound: decided alone.
        let Step::Decide { state, .. } = ex.timed_out(link) else {
            panic!("decided alone")
        };
        ex.decided(link, state)
    };
    assert_eq!(late(&mut link), Step::Done { stored: false });
    assert_eq!(link.state(), LinkState::Joined);
    // A reply in between resets the count: LATE_LIMIT - 1 late replies in a row leave the link
    // joined, one more makes it local.
    store.run(&mut link, 5, |b, _| b.record_failure(FailureKind::Error));
    for _ in 1..LATE_LIMIT {
        late(&mut link);
        assert_eq!(link.state(), LinkState::Joined);
    }
    late(&mut link);
    assert_eq!(link.state(), LinkState::Local);
    assert_eq!(LATE_LIMIT, 3);
}
