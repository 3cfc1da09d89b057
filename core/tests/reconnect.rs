//! SPEC.md §12.3 against tests/vectors/reconnect/reconnect.json (checked against the independent Python
//! model by tests/model/check_vectors.py), and the jitter-free cases written out by hand.

use seeded_backoff::bindings::RawReconnect;
use seeded_backoff::{
    reconnect::{Reconnect, ReconnectError, RETRY_FOREVER},
    snapshot::SnapshotError,
    GiveUpReason, Jitter, Policy, Step,
};
use serde_json::Value;

fn policy(p: &Value) -> Policy {
    let n = |k: &str| u32::try_from(p[k].as_u64().unwrap()).unwrap();
    let jitter = match p["jitter"].as_str().unwrap() {
        "none" => Jitter::None,
        "google" => Jitter::Google {
            jitter_ms: n("jitter_ms"),
        },
        "full" => Jitter::Full,
        "equal" => Jitter::Equal,
        "decorrelated" => Jitter::Decorrelated,
        "proportional" => Jitter::Proportional {
            spread_per_mille: n("spread_per_mille"),
        },
        other => panic!("jitter {other}"),
    };
    Policy::builder()
        .initial_ms(n("initial_ms"))
        .multiplier(n("multiplier_num"), n("multiplier_den"))
        .max_backoff_ms(n("max_backoff_ms"))
        .max_retries(n("max_retries"))
        .jitter(jitter)
        .max_hint_ms(n("max_hint_ms"))
        .max_elapsed_ms(n("max_elapsed_ms"))
        .build()
        .unwrap()
}

fn op(r: &mut Reconnect, p: &Policy, op: &str) -> Value {
    match op {
        "n" => match r.next_delay(p) {
            Step::Retry { delay_ms, .. } => delay_ms.into(),
            Step::GiveUp(reason) => reason.name().into(),
        },
        "r" => {
            r.reset(p);
            Value::Null
        }
        f => {
            r.fast_forward(p, f[1..].parse().unwrap());
            Value::Null
        }
    }
}

#[test]
fn every_vector_replays() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/reconnect/reconnect.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 8);
    for case in cases {
        let (name, p) = (&case["name"], policy(&case["policy"]));
        let seed: u64 = case["seed"].as_str().unwrap().parse().unwrap();
        let mut r = match Reconnect::new(&p, seed) {
            Ok(r) => r,
            Err(e) => {
                assert_eq!(case["error"], e.error.name(), "{name}");
                continue;
            }
        };
        let ops = case["ops"].as_array().unwrap();
        for (i, o) in ops.iter().enumerate() {
            assert_eq!(
                op(&mut r, &p, o.as_str().unwrap()),
                case["expect"][i],
                "{name} op {i}"
            );
            assert_eq!(
                r.retries(),
                case["expect_retries"][i],
                "{name} op {i}: retries"
            );
        }
    }
}

fn none_8s(max_retries: u32) -> Policy {
    Policy::builder()
        .max_backoff_ms(8_000)
        .jitter(Jitter::None)
        .max_retries(max_retries)
        .build()
        .unwrap()
}

fn delay(step: Step) -> u32 {
    step.delay_ms().expect("a retry")
}

#[test]
fn retry_forever_never_gives_up_and_the_count_stops_by_hand() {
    // 1 s, x2, an 8 s cap, no jitter: the delays are the bases, 1000, 2000, 4000, 8000, 8000, ...
    let p = none_8s(RETRY_FOREVER);
    let mut r = Reconnect::new(&p, 0).unwrap();
    for want in [1000, 2000, 4000, 8000, 8000] {
        assert_eq!(delay(r.next_delay(&p)), want);
    }
    r.fast_forward(&p, u32::MAX - 1);
    assert_eq!(
        r.next_delay(&p),
        Step::Retry {
            delay_ms: 8000,
            retry: u32::MAX - 1
        }
    );
    for _ in 0..3 {
        assert_eq!(
            r.next_delay(&p),
            Step::Retry {
                delay_ms: 8000,
                retry: u32::MAX
            }
        );
        assert_eq!(r.retries(), u32::MAX);
    }
    r.reset(&p);
    assert_eq!((delay(r.next_delay(&p)), r.retries()), (1000, 1));
}

#[test]
fn a_finite_count_gives_up_changing_nothing_by_hand() {
    let p = none_8s(2);
    let mut r = Reconnect::new(&p, 0).unwrap();
    assert_eq!(delay(r.next_delay(&p)), 1000);
    assert_eq!(delay(r.next_delay(&p)), 2000);
    for _ in 0..2 {
        assert_eq!(r.next_delay(&p), Step::GiveUp(GiveUpReason::MaxRetries));
        assert_eq!(r.retries(), 2);
    }
    r.reset(&p);
    assert_eq!(delay(r.next_delay(&p)), 1000);
}

#[test]
fn a_time_budget_and_corrupt_raw_states_are_refused() {
    let timed = Policy::builder().max_elapsed_ms(1).build().unwrap();
    let err = Reconnect::new(&timed, 1).unwrap_err();
    assert_eq!(err.error, ReconnectError::TimeBudget);
    assert_eq!(err.got, 1); // the policy's max_elapsed_ms
    let p = none_8s(5);
    let raw = Reconnect::new(&p, 1).unwrap().to_raw();
    assert_eq!(Reconnect::from_raw(&p, raw).unwrap().to_raw(), raw);
    let bad = |f: fn(&mut RawReconnect)| {
        let mut r = raw;
        f(&mut r);
        Reconnect::from_raw(&p, r)
    };
    assert_eq!(bad(|r| r.rng = [0; 4]), Err(SnapshotError::ZeroRngState));
    assert_eq!(bad(|r| r.retries = 6), Err(SnapshotError::InvalidState));
    assert_eq!(bad(|r| r.level = 999), Err(SnapshotError::InvalidState));
    assert_eq!(bad(|r| r.level = 8001), Err(SnapshotError::InvalidState));
    assert!(bad(|r| r.retries = 5).is_ok());
    assert_eq!(
        Reconnect::from_raw(&timed, raw),
        Err(SnapshotError::InvalidState)
    );
}
