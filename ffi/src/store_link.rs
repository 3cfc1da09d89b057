//! A shared part's link to its key (SPEC.md sections 19.3 to 19.6) in caller-owned memory: the
//! core's `StoreLink` and one decision's `Exchange` kept as plain integers between calls, so a
//! binding over the C ABI (Python's) performs the store's I/O and the part's decision and leaves
//! every rule (when to read, compare-and-set, retry, fall back, rejoin, the fleet's clock) to
//! the core. The exported functions are in `store_exchange.rs`, the steps in
//! `store_steps.rs`.

use crate::budget::sb_budget;
use crate::pacer::sb_pacer;
use crate::send_rate::sb_send_rate;
use crate::store::{SB_BUDGET_VALUE_SIZE, SB_PACER_VALUE_SIZE, SB_SEND_RATE_VALUE_SIZE};

/// The longest stored value of any kind, in bytes: the room `sb_store_link` and
/// `sb_store_exchange` keep for one.
pub const SB_STORE_VALUE_MAX: usize = SB_SEND_RATE_VALUE_SIZE;

const _: () = {
    assert!(SB_STORE_VALUE_MAX >= SB_BUDGET_VALUE_SIZE);
    assert!(SB_STORE_VALUE_MAX >= SB_PACER_VALUE_SIZE);
};

/// `sb_store_link_init` kind: a retry budget (`sb_store_part.budget`), SPEC.md section 19.2's kind 1.
pub const SB_STORE_BUDGET: u32 = 1;
/// `sb_store_link_init` kind: a pacer (`sb_store_part.pacer`).
pub const SB_STORE_PACER: u32 = 2;
/// `sb_store_link_init` kind: a send rate (`sb_store_part.send_rate`).
pub const SB_STORE_SEND_RATE: u32 = 3;

/// `sb_store_link_init` clock: decisions read the store's `TIME`, the caller's readings moved
/// onto it by the offset seen at the latest reply (SPEC.md section 19.3).
pub const SB_STORE_CLOCK_STORE: u32 = 0;
/// `sb_store_link_init` clock: decisions read the caller's readings as given (a test's virtual
/// clock, or one the whole fleet shares).
pub const SB_STORE_CLOCK_CALLER: u32 = 1;

/// `sb_store_link_state`: not in step with the store; the next decision reads it.
pub const SB_STORE_JOINING: u32 = 0;
/// `sb_store_link_state`: deciding through the store.
pub const SB_STORE_JOINED: u32 = 1;
/// `sb_store_link_state`: deciding alone until the link asks the store again.
pub const SB_STORE_LOCAL: u32 = 2;

/// `sb_store_step.action`: run the script with no argument (a read), then `sb_store_replied`
/// with `SB_STORE_REPLY_VALUE`.
pub const SB_STORE_READ: u32 = 0;
/// `sb_store_step.action`: apply the part's operation to `sb_store_exchange.part` in place at
/// `now_ms` (its answer kept; a later decide of the same exchange replaces it), then
/// `sb_store_decided`.
pub const SB_STORE_DECIDE: u32 = 1;
/// `sb_store_step.action`: run the script with `expected` (`expected_len` 0: empty, for absent)
/// and `value`, then `sb_store_replied` with `SB_STORE_REPLY_SET` or `SB_STORE_REPLY_CONFLICT`.
pub const SB_STORE_COMPARE_AND_SET: u32 = 2;
/// `sb_store_step.action`: the last decision's answer stands (`stored`: the store holds it).
pub const SB_STORE_DONE: u32 = 3;

/// `sb_store_replied` reply: the answer to a read (its value or none, and the store's time).
pub const SB_STORE_REPLY_VALUE: u32 = 0;
/// `sb_store_replied` reply: the compare-and-set set the value (the script answered 1).
pub const SB_STORE_REPLY_SET: u32 = 1;
/// `sb_store_replied` reply: the compare-and-set found another value (the script answered 0).
pub const SB_STORE_REPLY_CONFLICT: u32 = 2;

/// One part of the kind its link names: only that member is read and written.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_store_part {
    /// `SB_STORE_BUDGET`'s part.
    pub budget: sb_budget,
    /// `SB_STORE_PACER`'s part.
    pub pacer: sb_pacer,
    /// `SB_STORE_SEND_RATE`'s part.
    pub send_rate: sb_send_rate,
}

/// What a link's decisions cost so far (`sb_store_link_stats`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_store_stats {
    /// Decisions made.
    pub decisions: u64,
    /// Of those, decisions made from the process's own state (the store failed, was slow, held a
    /// value of another configuration, or conflicted `SB_STORE_MAX_TRIES` times).
    pub alone: u64,
    /// Conflicts met, each one decision made again.
    pub conflicts: u64,
}

/// One part's link to its key (SPEC.md section 19): the process's own state, the value last
/// seen, where it stands with the store, its clock and counts. Set it up with
/// `sb_store_link_init` and treat the fields as private: every call validates them and returns
/// `SB_ERR_STORE_LINK` if they were corrupted. Not thread-safe: the caller holds its own lock
/// around each call that takes it (never across a round trip).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_store_link {
    /// The cold start: the part as given to `sb_store_link_init`.
    pub fresh: sb_store_part,
    /// The process's own state: the fleet's as last seen, with the decisions made alone since.
    pub local: sb_store_part,
    /// The fleet's state the decisions made alone since are counted from, if `has_since` is 1
    /// (SPEC.md section 19.6: they are carried into the fleet's state when the process is back in
    /// step).
    pub since: sb_store_part,
    /// The value last seen in the store, `seen_len` bytes (0: none).
    pub seen: [u8; SB_STORE_VALUE_MAX],
    /// The caller's reading at which a local link asks the store again.
    pub rejoin_at_ms: u64,
    /// The store's time at the latest reply.
    pub fleet_base_ms: u64,
    /// The caller's reading at the latest reply.
    pub caller_base_ms: u64,
    /// 1 if `since` holds a state, else 0 (a 64-bit word, so the struct has no padding).
    pub has_since: u64,
    /// The decisions' counts.
    pub stats: sb_store_stats,
    /// `SB_STORE_BUDGET`, `SB_STORE_PACER` or `SB_STORE_SEND_RATE`.
    pub kind: u32,
    /// `SB_STORE_JOINING`, `SB_STORE_JOINED` or `SB_STORE_LOCAL`.
    pub state: u32,
    /// `SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`.
    pub clock: u32,
    /// Decisions in a row that passed the bound.
    pub late: u32,
    /// Why the last value read could not be used (an `SB_ERR_STORE_*` code), else 0.
    pub error: u32,
    /// The length of `seen`: 0 or the kind's value size.
    pub seen_len: u32,
}

/// One decision's exchange with the store, begun by `sb_store_begin` or `sb_store_begin_alone`
/// (which set every field) and driven through the steps they and the calls after them answer.
/// Several exchanges may run at once over one link. `part` holds the state a `SB_STORE_DECIDE`
/// step asks to decide on; `expected` and `value` the bytes of a `SB_STORE_COMPARE_AND_SET`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_store_exchange {
    /// The state to decide on (its link's kind's member), decided in place.
    pub part: sb_store_part,
    /// The value the decision was made on, `expected_len` bytes (0: absent).
    pub expected: [u8; SB_STORE_VALUE_MAX],
    /// The value after the decision, `value_len` bytes.
    pub value: [u8; SB_STORE_VALUE_MAX],
    /// The caller's reading the decision began at.
    pub caller_ms: u64,
    /// Its link's kind.
    pub kind: u32,
    /// What the exchange waits for.
    pub phase: u32,
    /// Conflicts met.
    pub tries: u32,
    /// 1: `expected` came with a reply of this exchange.
    pub replied: u32,
    /// The length of `expected`: 0 or the kind's value size.
    pub expected_len: u32,
    /// The length of `value`: 0 or the kind's value size.
    pub value_len: u32,
}

/// What the caller does next for one decision.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_store_step {
    /// `SB_STORE_READ`, `SB_STORE_DECIDE`, `SB_STORE_COMPARE_AND_SET` or `SB_STORE_DONE`.
    pub action: u32,
    /// `SB_STORE_DONE`: 1 if the store holds the decision, 0 if it was made alone.
    pub stored: u32,
    /// `SB_STORE_DECIDE`: the fleet clock's reading to decide at, in ms.
    pub now_ms: u64,
}
