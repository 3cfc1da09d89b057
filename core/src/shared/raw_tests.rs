//! A link and an exchange kept as their raw fields between steps (`to_raw`, `from_raw`), as the
//! C ABI and the npm package's store part keep them.

extern crate std;

use std::vec::Vec;

use super::*;
use crate::budget::{BudgetConfig, RetryBudget, RetryGate};
use crate::FailureKind;

/// A link and an exchange given back from their raw fields at every step, as a binding that keeps
/// them in memory of its own does, answer as the ones kept whole: a conflict decided again, then
/// a failure, then the rejoin.
#[test]
fn a_link_and_an_exchange_kept_raw_between_steps_decide_as_kept_whole() {
    let config = BudgetConfig::aws_quota(100, 5, 10, 1).unwrap();
    let drive = |raw: bool| {
        let mut link = StoreLink::new(RetryBudget::new(config), FleetClock::Store);
        let mut other = RetryBudget::new(config);
        let mut trace = Vec::new();
        for (now, reply) in [(10, 0), (20, 1), (30, 2), (1500, 0)] {
            let mut ex = Exchange::default();
            let mut step = ex.begin(&mut link, now);
            loop {
                if raw {
                    link = StoreLink::from_raw(link.into_raw());
                    ex = Exchange::from_raw(ex.into_raw());
                }
                step = match step {
                    Step::Done { stored } => {
                        trace.push((stored, link.local().tokens_milli(), ex.conflicts()));
                        break;
                    }
                    Step::Decide { state, now_ms } => {
                        trace.push((false, now_ms as u32, 0));
                        state.try_acquire(FailureKind::Error);
                        ex.decided(&mut link, state)
                    }
                    // Another process spent a retry before this one's first write: a conflict.
                    Step::CompareAndSet { .. } if reply == 1 && ex.conflicts() == 0 => {
                        other.try_acquire(FailureKind::Timeout);
                        let value = other.encode();
                        ex.replied(
                            &mut link,
                            Reply::Conflict {
                                value: Some(value.as_ref()),
                                time_ms: 5000,
                            },
                        )
                    }
                    _ if reply == 2 => ex.failed(&mut link),
                    Step::Read => ex.replied(
                        &mut link,
                        Reply::Value {
                            value: None,
                            time_ms: 4000,
                        },
                    ),
                    Step::CompareAndSet { new, .. } => {
                        other = other.decode(new.as_ref()).unwrap();
                        ex.replied(
                            &mut link,
                            Reply::Set {
                                time_ms: 4000 + now,
                            },
                        )
                    }
                };
            }
        }
        (trace, link.state())
    };
    let (raw, state) = drive(true);
    assert_eq!((raw.clone(), state), drive(false));
    // By hand (SPEC.md §19.3 to §19.6): the join reads at 4000 and publishes 95000, set at 4010;
    // the joined decision at caller 20 decides at 4020, conflicts with 85000 (another process's
    // timeout) and decides again at the conflict's 5000; the next, at caller 30 (4030), fails and
    // is decided alone at the same reading on the process's own 80000; REJOIN_MS after the fall the
    // rejoin reads an absent key and publishes its own state.
    assert_eq!(
        raw,
        [
            (false, 4000, 0),
            (true, 95_000, 0),
            (false, 4020, 0),
            (false, 5000, 0),
            (true, 80_000, 1),
            (false, 4030, 0),
            (false, 4030, 0),
            (false, 75_000, 0),
            (false, 4000, 0),
            (true, 70_000, 0),
        ]
    );
    assert_eq!(state, LinkState::Joined);
}
