//! The only `unsafe` of the binding: the memory shared with JS, and the no-std panic handler of
//! the npm build.
//!
//! The module is single-threaded wasm (no `atomics` target feature) and no export calls another
//! export, so at most one `&mut` to each static exists at a time: each access below is a short
//! closure that cannot re-enter. Host builds (tests) use thread-locals instead, except under Miri,
//! which runs the host tests on one thread over the statics, so that the npm build's accesses are
//! the ones it checks (scripts/miri.sh wasm).

use seeded_backoff::bindings::RawBackoff;
use seeded_backoff::policy::PolicyError;
use seeded_backoff::Policy;

/// The longest header value the parts read (SPEC.md §8): a longer one is too long for every binding.
pub const MAX_HEADER_VALUE: usize = seeded_backoff::http::MAX_HEADER_VALUE_LEN;

/// How many header values a call can pass at once: `Retry-After` and the rate-limit headers.
pub const HEADER_VALUES: usize = 1 + seeded_backoff::http::RATE_LIMIT_HEADERS.len();

/// The option words: a word of presence bits, then one word per core `PolicyOption`.
pub const OPTION_WORDS: usize = 1 + seeded_backoff::bindings::PolicyOption::NAMES.len();

/// The words of a run ([`seeded_backoff::bindings::RawRun::to_words`]).
pub const RUN_WORDS: usize = 22;

/// The words before the bytes: the fields of [`Io`] up to `bytes`, rounded up.
pub const WORDS: usize = 64;

/// Numbers and bytes JS writes before a call and reads after it: 64 words, then the bytes. Its
/// offsets reach JS through the generated tables (`examples/gen_js_tables.rs`), not a copy. Every
/// call reads the policy, state, run or budget it works on from here and writes it back: the JS
/// objects own their words, and no export keeps any between calls.
#[repr(C)]
pub struct Io {
    /// A policy's options: a word of presence bits, then one word per option (`io::option`).
    pub options: [u32; OPTION_WORDS],
    /// A `Backoff`'s state.
    pub state: RawBackoff,
    /// A budget: kind (0 gRFC A6, 1 AWS), four config values and the tokens, in thousandths.
    pub budget: [u32; 6],
    /// The lengths of the header values in `bytes`, one after another: `Retry-After`, then the
    /// rate-limit headers in the core's order; `u32::MAX` for a header the response lacks.
    pub lens: [u32; HEADER_VALUES],
    /// A run's state; in the pacer part, a pacer's words (`crate::pacer`).
    pub run: [u32; RUN_WORDS],
    /// A run's answer: action code, attempt, delay in ms, and the give-up reason code (0 for a
    /// permanent error) or the most a pause lasts (`u32::MAX`: no limit).
    pub action: [u32; 4],
    /// Unused: the bytes start at a round offset.
    pub pad: [u32; WORDS - OPTION_WORDS - 8 - 6 - HEADER_VALUES - RUN_WORDS - 4],
    /// Header values, a snapshot or a device id.
    pub bytes: [u8; HEADER_VALUES * MAX_HEADER_VALUE],
}

const IO_INIT: Io = Io {
    options: [0; OPTION_WORDS],
    state: RawBackoff {
        rng: [0; 4],
        retries: 0,
        level: 0,
        elapsed_ms: 0,
        gave_up: 0,
    },
    budget: [0; 6],
    lens: [0; HEADER_VALUES],
    run: [0; RUN_WORDS],
    action: [0; 4],
    pad: [0; WORDS - OPTION_WORDS - 8 - 6 - HEADER_VALUES - RUN_WORDS - 4],
    bytes: [0; HEADER_VALUES * MAX_HEADER_VALUE],
};

#[cfg(any(target_arch = "wasm32", miri))]
static mut IO: Io = IO_INIT;

/// Runs `f` on the shared numbers and bytes.
#[cfg(any(target_arch = "wasm32", miri))]
pub fn io<R>(f: impl FnOnce(&mut Io) -> R) -> R {
    // SAFETY: single-threaded, and no `f` in this crate calls `io` again, so this is the only
    // reference to IO while it lives.
    f(unsafe { &mut *(&raw mut IO) })
}

/// The address JS reads and writes `Io` at: every part exports it as `io`.
#[cfg(target_arch = "wasm32")]
#[export_name = "io"]
pub extern "C" fn io_address() -> u32 {
    (&raw const IO) as usize as u32
}

// On a host (the tests), where threads exist, each thread has its own area.
#[cfg(not(any(target_arch = "wasm32", miri)))]
std::thread_local! {
    static IO: core::cell::RefCell<Io> = const { core::cell::RefCell::new(IO_INIT) };
}

/// Runs `f` on the shared numbers and bytes.
#[cfg(not(any(target_arch = "wasm32", miri)))]
pub fn io<R>(f: impl FnOnce(&mut Io) -> R) -> R {
    IO.with_borrow_mut(f)
}

/// On a host there is no linear memory for JS to address.
#[cfg(not(target_arch = "wasm32"))]
pub fn io_address() -> u32 {
    0
}

/// The option words last resolved and the core's answer for them.
type Memo = Option<([u32; OPTION_WORDS], Result<Policy, PolicyError>)>;

#[cfg(any(target_arch = "wasm32", miri))]
static mut MEMO: Memo = None;

/// `resolve(words)`, remembered for the last `words`: resolving is a pure function of the words,
/// so the answer for the same words is the same.
#[cfg(any(target_arch = "wasm32", miri))]
pub fn memo(
    words: &[u32; OPTION_WORDS],
    resolve: fn(&[u32; OPTION_WORDS]) -> Result<Policy, PolicyError>,
) -> Result<Policy, PolicyError> {
    // SAFETY: as for `io`: single-threaded, and `resolve` (the core's policy resolution) never
    // calls `memo`, so this is the only reference to MEMO while it lives.
    lookup(unsafe { &mut *(&raw mut MEMO) }, words, resolve)
}

#[cfg(not(any(target_arch = "wasm32", miri)))]
std::thread_local! {
    static MEMO: core::cell::RefCell<Memo> = const { core::cell::RefCell::new(None) };
}

/// `resolve(words)`, remembered for the last `words` (per thread on a host).
#[cfg(not(any(target_arch = "wasm32", miri)))]
pub fn memo(
    words: &[u32; OPTION_WORDS],
    resolve: fn(&[u32; OPTION_WORDS]) -> Result<Policy, PolicyError>,
) -> Result<Policy, PolicyError> {
    MEMO.with_borrow_mut(|memo| lookup(memo, words, resolve))
}

fn lookup(
    memo: &mut Memo,
    words: &[u32; OPTION_WORDS],
    resolve: fn(&[u32; OPTION_WORDS]) -> Result<Policy, PolicyError>,
) -> Result<Policy, PolicyError> {
    // Word by word: `==` on the arrays would be a call to the byte-wise `memcmp` of no_std wasm.
    let same = |w: &[u32; OPTION_WORDS]| {
        let mut i = 0;
        while i < OPTION_WORDS {
            if w[i] != words[i] {
                return false;
            }
            i += 1;
        }
        true
    };
    match memo {
        Some((w, answer)) if same(w) => *answer,
        _ => {
            let answer = resolve(words);
            *memo = Some((*words, answer));
            answer
        }
    }
}

// The budget a step consults lives in JS (any object with a `RetryBudget`'s methods): the npm
// build asks it through one imported function, `env.gate(op, kind)` (ops in `crate::gate`).
// Elsewhere (host tests, wasm-bindgen tests) a test installs a stand-in.
#[cfg(all(feature = "rt", target_arch = "wasm32"))]
#[link(wasm_import_module = "env")]
extern "C" {
    #[link_name = "gate"]
    fn js_gate(op: u32, kind: u32) -> u32;
}

/// Asks the JS budget of the call in progress.
#[cfg(all(feature = "rt", target_arch = "wasm32"))]
pub fn gate(op: u32, kind: u32) -> u32 {
    // SAFETY: an imported JS function of two numbers; it touches no memory of this module.
    unsafe { js_gate(op, kind) }
}

#[cfg(not(all(feature = "rt", target_arch = "wasm32")))]
std::thread_local! {
    static GATE: core::cell::Cell<fn(u32, u32) -> u32> = const { core::cell::Cell::new(|_, _| 1) };
}

/// Asks the budget a test installed with [`set_gate`] (by default: always yes).
#[cfg(not(all(feature = "rt", target_arch = "wasm32")))]
pub fn gate(op: u32, kind: u32) -> u32 {
    GATE.get()(op, kind)
}

/// Installs the stand-in for JS's `gate` (tests).
#[cfg(not(all(feature = "rt", target_arch = "wasm32")))]
pub fn set_gate(f: fn(u32, u32) -> u32) {
    GATE.set(f);
}

#[cfg(all(feature = "rt", target_arch = "wasm32"))]
mod no_std_runtime {
    // The core has no panicking path (its build proofs); this is for the binding's own code.
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}
