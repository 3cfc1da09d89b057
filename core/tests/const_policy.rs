//! `const_policy!`: a policy that fails its check stops a `const` with the check's message, which
//! names the field. The compile error itself is a `compile_fail,E0080` doc test of the macro;
//! here the same `panic!` runs outside a `const`, so its message can be read.

use seeded_backoff::policy::PolicyError;
use seeded_backoff::{const_policy, Jitter, Policy};

const GOOD: Policy = const_policy!(Policy::builder().initial_ms(250).jitter(Jitter::Full));

fn message_of(build: fn() -> Policy) -> String {
    let payload = std::panic::catch_unwind(build).unwrap_err();
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap()
}

#[test]
fn a_bad_field_is_named_in_the_message() {
    assert_eq!(GOOD.initial_ms(), 250);
    let cap =
        message_of(|| const_policy!(Policy::builder().initial_ms(5_000).max_backoff_ms(1_000)));
    assert_eq!(cap, PolicyError::MaxBackoffMs.message());
    assert!(cap.starts_with("max_backoff_ms must be in"), "{cap}");
    let hint = message_of(|| const_policy!(Policy::builder().max_hint_ms(u32::MAX)));
    assert!(hint.starts_with("max_hint_ms must be in 0..="), "{hint}");
    let jitter =
        message_of(
            || const_policy!(Policy::builder().jitter(Jitter::Google { jitter_ms: 40_000 })),
        );
    assert!(jitter.starts_with("jitter_ms"), "{jitter}");
}
