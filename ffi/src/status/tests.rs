//! Unit tests of `status.rs`.

use super::*;
use core::ffi::CStr;

#[test]
fn every_code_is_listed_once_and_has_its_own_message() {
    let mut seen = std::collections::BTreeSet::new();
    let mut messages = std::collections::BTreeSet::new();
    for s in ALL.iter() {
        assert!(seen.insert(*s as i32), "{s:?} listed twice");
        if !in_build(*s as u8) {
            assert_eq!(text(*s), LEFT_OUT.to_str().unwrap(), "{s:?}");
            continue;
        }
        // SAFETY: `sb_strerror` returns a pointer to a static NUL-terminated string.
        let text = unsafe { CStr::from_ptr(sb_strerror(*s as i32)) }
            .to_str()
            .unwrap();
        assert!(!text.is_empty() && text != "unknown status code", "{s:?}");
        assert!(messages.insert(text), "{s:?} shares its message");
    }
}

#[test]
fn unknown_codes_have_a_message_too() {
    for code in [-1, 4, 10, 17, 99, 109, 145, 200, i32::MIN, i32::MAX] {
        // SAFETY: as above.
        let text = unsafe { CStr::from_ptr(sb_strerror(code)) }
            .to_str()
            .unwrap();
        assert_eq!(text, "unknown status code", "code {code}");
    }
}

fn text(status: sb_status) -> &'static str {
    // SAFETY: as above.
    unsafe { CStr::from_ptr(sb_strerror(status as i32)) }
        .to_str()
        .unwrap()
}

#[test]
fn a_give_up_says_so_once() {
    use sb_status::*;
    for s in [
        SB_GIVE_UP_MAX_RETRIES,
        SB_GIVE_UP_DEADLINE,
        SB_GIVE_UP_BUDGET,
        SB_GIVE_UP_SERVER_STOP,
        SB_GIVE_UP_HINT_EXCEEDS_MAX,
    ] {
        let t = text(s).to_ascii_lowercase();
        let count = t.matches("give up").count() + t.matches("gave up").count();
        assert!(count <= 1, "{s:?}: {t}");
    }
}

#[test]
fn core_errors_map_to_their_rows() {
    assert_eq!(
        sb_status::from(PolicyError::MaxHintMs),
        sb_status::SB_ERR_POLICY_MAX_HINT_MS
    );
    assert_eq!(
        sb_status::from(GiveUpReason::ServerStop),
        sb_status::SB_GIVE_UP_SERVER_STOP
    );
    assert_eq!(
        sb_status::from(BudgetError::NoRetryIncrement),
        sb_status::SB_ERR_BUDGET_NO_RETRY_INCREMENT
    );
}

#[cfg(not(feature = "long-messages"))]
#[test]
fn short_messages_are_the_names() {
    assert_eq!(
        text(sb_status::SB_ERR_POLICY_INITIAL_MS),
        "SB_ERR_POLICY_INITIAL_MS"
    );
    assert_eq!(text(sb_status::SB_OK), "SB_OK");
}

#[cfg(feature = "long-messages")]
#[test]
fn policy_messages_are_the_cores() {
    // SAFETY: as above.
    let text = unsafe { CStr::from_ptr(sb_strerror(sb_status::SB_ERR_POLICY_INITIAL_MS as i32)) };
    assert_eq!(text.to_str().unwrap(), PolicyError::InitialMs.message());
}
