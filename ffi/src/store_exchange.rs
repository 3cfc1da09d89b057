//! The link's functions (SPEC.md sections 19.3 to 19.6): a binding begins a decision, performs
//! each step the core answers (a read, the part's own decision, a compare-and-set) and reports
//! what happened, until `SB_STORE_DONE`. The rules are the core's `StoreLink` and `Exchange`.

use crate::ptr;
use crate::status::{require_feature, sb_status};
use crate::store_link::{
    sb_store_exchange, sb_store_link, sb_store_part, sb_store_stats, sb_store_step,
    SB_STORE_VALUE_MAX,
};
use crate::store_steps::{check, dispatch, init, Op};

/// Runs `op` on `*link` and `*ex` (`ex` read unless `fresh_ex`), and writes the step to `*step`;
/// nothing is written unless every pointer is non-NULL and the call succeeds.
///
/// # Safety
/// `link` and `step` are NULL or valid for reads and writes; so is `ex`, and it is initialised
/// unless `fresh_ex`.
unsafe fn drive(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    step: *mut sb_store_step,
    fresh_ex: bool,
    op: Op<'_>,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        if ex.is_null() || step.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let mut c_link = unsafe { ptr::read(link) }?;
        let mut c_ex = if fresh_ex {
            let part = c_link.fresh;
            sb_store_exchange {
                part,
                expected: [0; SB_STORE_VALUE_MAX],
                value: [0; SB_STORE_VALUE_MAX],
                caller_ms: 0,
                kind: c_link.kind,
                phase: 0,
                tries: 0,
                replied: 0,
                expected_len: 0,
                value_len: 0,
            }
        } else {
            // SAFETY: as above.
            unsafe { ptr::read(ex) }?
        };
        let out = dispatch(&mut c_link, &mut c_ex, op)?;
        // SAFETY: as above; all three were checked non-NULL.
        unsafe {
            ptr::write(link, c_link)?;
            ptr::write(ex, c_ex)?;
            ptr::write(step, out)?;
        }
        Ok(sb_status::SB_OK)
    })())
}

/// Sets up `*link` for a part of `kind` (`SB_STORE_BUDGET`, `SB_STORE_PACER` or
/// `SB_STORE_SEND_RATE`) whose cold start is that member of `*fresh` (a full budget, an empty
/// pacer, a send rate that is off: SPEC.md section 19.4), its decisions reading `clock`
/// (`SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`). The link starts joining: its first
/// decision reads the store. `SB_ERR_STORE_PART_KIND`, `SB_ERR_STORE_CLOCK`, or
/// `SB_ERR_BAD_STATE` for a part no init function made. Every `sb_store_*` function returns
/// `SB_ERR_UNSUPPORTED` in a build without the `store` feature.
///
/// ```c
/// sb_store_part fresh = {0};
/// sb_store_link link;
/// sb_send_rate_init(&fresh.send_rate, &config);
/// sb_store_link_init(&link, SB_STORE_SEND_RATE, &fresh, SB_STORE_CLOCK_STORE);
/// ```
///
/// # Safety
/// `link` is NULL or valid for writes of an `sb_store_link`; `fresh` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_store_link_init(
    link: *mut sb_store_link,
    kind: u32,
    fresh: *const sb_store_part,
    clock: u32,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        if link.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let c = init(kind, unsafe { ptr::borrow(fresh) }?, clock)?;
        // SAFETY: as above.
        unsafe { ptr::write(link, c) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Begins a decision at the caller's clock reading `caller_ms` (ms, any origin): sets every field
/// of `*ex` and writes the first step to `*step` (`SB_STORE_READ` when the link is joining or its
/// rejoin is due, else `SB_STORE_DECIDE`). Then perform each step and report it until
/// `SB_STORE_DONE`, giving up on the store at the bound (`sb_store_timed_out`):
///
/// ```c
/// sb_store_begin(&link, &ex, now_ms, &step);
/// while (step.action != SB_STORE_DONE) {
///     if (step.action == SB_STORE_DECIDE) {
///         answer = sb_send_rate_ask(&ex.part.send_rate, step.now_ms, &wait_ms);
///         sb_store_decided(&link, &ex, &step);
///     } else if (eval_script(key, &step, &ex, &set, value, &len, &present, &time_ms) != 0) {
///         sb_store_failed(&link, &ex, &step);  // or sb_store_timed_out past the bound
///     } else {
///         uint32_t reply = step.action == SB_STORE_READ ? SB_STORE_REPLY_VALUE
///                          : set ? SB_STORE_REPLY_SET : SB_STORE_REPLY_CONFLICT;
///         sb_store_replied(&link, &ex, reply, value, len, present, time_ms, &step);
///     }
/// }
/// ```
///
/// # Safety
/// `link` is NULL or valid for reads and writes; `ex` and `step` are NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn sb_store_begin(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    caller_ms: u64,
    step: *mut sb_store_step,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, true, Op::Begin(caller_ms)) }
}

/// Begins a decision made from the process's own state at once, the link left as it stands: for
/// a decision that did not get its turn at the store within the bound (one decision per part and
/// process goes to the store at a time). The step is `SB_STORE_DECIDE`.
///
/// # Safety
/// As `sb_store_begin`.
#[no_mangle]
pub unsafe extern "C" fn sb_store_begin_alone(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    caller_ms: u64,
    step: *mut sb_store_step,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, true, Op::BeginAlone(caller_ms)) }
}

/// Reports that the part's operation was applied to `ex->part` (as `SB_STORE_DECIDE` asked), and
/// writes the next step: `SB_STORE_COMPARE_AND_SET` with `ex->expected` and `ex->value`, or
/// `SB_STORE_DONE`. `SB_ERR_BAD_STATE` if `ex->part` was corrupted.
///
/// # Safety
/// `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
#[no_mangle]
pub unsafe extern "C" fn sb_store_decided(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    step: *mut sb_store_step,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, false, Op::Decided) }
}

/// Reports the script's answer to the last `SB_STORE_READ` (`SB_STORE_REPLY_VALUE`) or
/// `SB_STORE_COMPARE_AND_SET` (`SB_STORE_REPLY_SET` or `SB_STORE_REPLY_CONFLICT`): the value
/// (`len` bytes at `value`, read only when `present`; `present` false: the key is absent) and
/// the store's time in ms. Writes the next step. A reply that answers no question of the
/// exchange makes the decision alone, as a failure does. `SB_ERR_STORE_REPLY` for another code.
///
/// # Safety
/// `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun); with `present`,
/// `value` is NULL or valid for reads of `len` bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sb_store_replied(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    reply: u32,
    value: *const u8,
    len: usize,
    present: bool,
    time_ms: u64,
    step: *mut sb_store_step,
) -> sb_status {
    require_feature!("store");
    let value = if present {
        // SAFETY: forwarded from this function's contract.
        match unsafe { ptr::bytes(value, len) } {
            Ok(bytes) => Some(bytes),
            Err(status) => return status,
        }
    } else {
        None
    };
    let op = Op::Replied {
        reply,
        value,
        time_ms,
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, false, op) }
}

/// Reports that the store failed (an error, a lost connection): the decision is made at once
/// from the process's own state (`SB_STORE_DECIDE`), and the link decides alone until it rejoins
/// `SB_STORE_REJOIN_MS` later (SPEC.md section 19.5).
///
/// # Safety
/// `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
#[no_mangle]
pub unsafe extern "C" fn sb_store_failed(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    step: *mut sb_store_step,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, false, Op::Failed) }
}

/// Reports that the store did not answer within `SB_STORE_BOUND_MS`: the decision is made at
/// once from the process's own state; after `SB_STORE_LATE_LIMIT` such decisions in a row the
/// link decides alone until it rejoins, as after a failure.
///
/// # Safety
/// `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
#[no_mangle]
pub unsafe extern "C" fn sb_store_timed_out(
    link: *mut sb_store_link,
    ex: *mut sb_store_exchange,
    step: *mut sb_store_step,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { drive(link, ex, step, false, Op::TimedOut) }
}

/// Writes where the link stands at the caller's reading `caller_ms`: its state
/// (`SB_STORE_JOINING`, `SB_STORE_JOINED` or `SB_STORE_LOCAL`) to `*state`, whether a decision
/// then goes to the store to `*needs_store` (not while the link is local and its rejoin is not
/// due: such a decision needs no turn at the store), and the reading on the fleet's clock
/// (SPEC.md section 19.3, as a send time is moved) to `*fleet_ms`.
///
/// # Safety
/// `link` is NULL or readable; `state`, `needs_store` and `fleet_ms` are NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn sb_store_link_state(
    link: *const sb_store_link,
    caller_ms: u64,
    state: *mut u32,
    needs_store: *mut bool,
    fleet_ms: *mut u64,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        if state.is_null() || needs_store.is_null() || fleet_ms.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let at = check(unsafe { ptr::borrow(link) }?, caller_ms)?;
        // SAFETY: as above; all three checked non-NULL.
        unsafe {
            ptr::write(state, at.state)?;
            ptr::write(needs_store, at.needs_store)?;
            ptr::write(fleet_ms, at.fleet_ms)?;
        }
        Ok(sb_status::SB_OK)
    })())
}

/// Writes the process's own state (the fleet's as last seen, with the decisions made alone
/// since) to the link's kind's member of `*part`, and the link's counts to `*stats`.
///
/// # Safety
/// `link` is NULL or readable; `part` and `stats` are NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_store_link_local(
    link: *const sb_store_link,
    part: *mut sb_store_part,
    stats: *mut sb_store_stats,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        if part.is_null() || stats.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let c = unsafe { ptr::borrow(link) }?;
        check(c, 0)?;
        // SAFETY: as above; both checked non-NULL.
        unsafe {
            ptr::write(part, c.local)?;
            ptr::write(stats, c.stats)?;
        }
        Ok(sb_status::SB_OK)
    })())
}
