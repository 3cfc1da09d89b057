//! A firmware image that calls every public API of the core on inputs the optimizer cannot see
//! (`black_box`), built for thumbv6m-none-eabi by `scripts/build-proofs.sh`:
//!
//! - **no panic**: the panic handler calls a symbol that exists nowhere. Linking succeeds only if
//!   no panic path survives optimization anywhere in the core.
//! - **no alloc**: there is no global allocator and no `alloc` crate in the image.
//! - **no float**: the script checks the linked image for soft-float helpers.
//!
//! Each proof has a negative twin (`--cfg sb_proof_panic`, `sb_proof_float`, `sb_proof_alloc`)
//! that adds one offending line here, so the script can show the proof would catch it.
#![no_std]
#![no_main]

#[cfg(sb_proof_alloc)]
extern crate alloc;

use core::fmt::{self, Write};
use core::hint::black_box;

use seeded_backoff::bindings::{crc32, BudgetMode, BudgetOption, PolicyOptions, RawBackoff};
use seeded_backoff::budget::{BudgetConfig, RetryBudget, RetryGate};
use seeded_backoff::http::{classify_grpc, is_idempotent_method, is_retryable_http, parse_grpc_pushback, parse_rate_limit, request_may_retry, RateLimitHeader};
use seeded_backoff::policy::{jitter_bounds, DeadlineMode};
use seeded_backoff::snapshot::SnapshotError;
use seeded_backoff::{classify_http, parse_retry_after, Backoff, Classification, FailureKind, GiveUpReason, Jitter, Policy, Retry, RetryEvent, Schedule, ServerHint, Step, StepInput, Verdict};

/// A `fmt::Write` that keeps only a checksum, so `Display` impls run without a buffer.
struct Sink(u32);

impl Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = self.0.wrapping_add(crc32(s.as_bytes()));
        Ok(())
    }
}

fn u32_in() -> u32 {
    black_box(0x1234_5678)
}

fn u64_in() -> u64 {
    black_box(0x0123_4567_89ab_cdef)
}

fn sink(x: impl Sized) {
    black_box(x);
}

fn step_out(s: Step) {
    sink(s.delay_ms());
    if let Step::GiveUp(r) = s {
        sink((r.code(), r.name(), GiveUpReason::from_code(r.code())));
    }
}

fn policies() -> Option<Policy> {
    for p in [
        Policy::google(),
        Policy::google_64s(),
        Policy::aws_standard(),
        Policy::grpc(),
        Policy::mobile(),
        Policy::default(),
    ] {
        sink(p);
    }
    let jitter = Jitter::from_code(black_box(5), u32_in())?;
    sink((
        jitter.code(),
        jitter.name(),
        jitter.param(),
        Jitter::from_name("full", 0),
    ));
    let options = PolicyOptions {
        jitter: Some(black_box(3)),
        multiplier: Some((u32_in(), u32_in())),
        max_backoff_ms: Some(u32_in()),
        ..PolicyOptions::default()
    };
    sink(options.build());
    let mode = DeadlineMode::from_code(black_box(1)).unwrap_or_default();
    sink((mode.code(), mode.name()));
    let built = Policy::builder()
        .initial_ms(u32_in())
        .multiplier(u32_in(), u32_in())
        .max_backoff_ms(u32_in())
        .max_retries(u32_in())
        .jitter(jitter)
        .max_hint_ms(u32_in())
        .max_elapsed_ms(u32_in())
        .deadline(mode)
        .build();
    let policy = match built {
        Ok(p) => p,
        Err(e) => {
            sink((e.error.field(), e.error.message(), e.error.name(), e.got, e.den));
            let mut s = Sink(0);
            let _ = write!(s, "{e}");
            sink(s.0);
            Policy::google().to_builder().build().ok()?
        }
    };
    sink(options.apply_to(&policy));
    sink((
        policy.initial_ms(),
        policy.multiplier(),
        policy.max_backoff_ms(),
        policy.max_retries(),
        policy.jitter(),
        policy.max_hint_ms(),
        policy.max_elapsed_ms(),
        policy.deadline(),
    ));
    sink(policy.base_delay_ms(u32_in()));
    sink(policy.canonical_bytes());
    sink(policy.fingerprint());
    sink(jitter_bounds(&policy, u32_in()));
    Some(policy)
}

fn backoffs(policy: &Policy) {
    let mut b = Backoff::new(policy, u64_in());
    step_out(b.next_delay(policy));
    step_out(b.next_delay_with(policy, StepInput::default().hint(ServerHint::RetryAfterMs(u32_in()))));
    step_out(b.next_delay_with(policy, StepInput::default().hint(ServerHint::DoNotRetry)));
    step_out(b.next_delay_with(policy, StepInput::default().hint(ServerHint::RateLimitResetMs(u32_in()))));
    step_out(b.next_delay_with(policy, StepInput::default().elapsed_ms(u64_in())));
    let budget = match BudgetConfig::grpc(u32_in(), u32_in()) {
        Ok(c) => RetryBudget::new(c),
        Err(e) => {
            sink(e.error.message());
            let mut s = Sink(0);
            let _ = write!(s, "{e}");
            sink(s.0);
            RetryBudget::aws_default()
        }
    };
    step_out(b.next_delay_with(policy, StepInput::default().budget(&budget, FailureKind::Timeout)));
    let gate: &dyn RetryGate = &budget;
    step_out(b.next_delay_with(
        policy,
        StepInput {
            hint: Some(ServerHint::from_grpc_pushback(black_box(b"250"))),
            elapsed_ms: Some(u64_in()),
            budget: Some((gate, FailureKind::Error)),
        },
    ));
    sink((b.retries(), b.gave_up(), b.elapsed_ms()));
    b.fast_forward(policy, u32_in());
    let mut total = 0u32;
    while let Some(d) = b.next_delay(policy).delay_ms() {
        total = total.wrapping_add(d);
    }
    sink(total);
    b.reset(policy);

    let snap = b.snapshot(policy);
    match Backoff::restore(policy, black_box(&snap[..])) {
        Ok(r) => sink(r),
        Err(e) => snapshot_error(e),
    }
    let raw: RawBackoff = b.to_raw();
    match Backoff::from_raw(policy, black_box(raw)) {
        Ok(r) => sink(r),
        Err(e) => snapshot_error(e),
    }

    let mut schedule = Schedule::new(policy, u64_in());
    sink(schedule.next().map(|d| d.as_millis() as u32));
    sink((schedule.backoff().retries(), schedule.policy().max_retries()));
    let mut s2 = Schedule::from_backoff(policy, b);
    sink(s2.next().map(|d| d.as_millis() as u32));
    sink(s2.count());
}

fn snapshot_error(e: SnapshotError) {
    sink((e.name(), e.message()));
}

/// A generator the optimizer cannot see through, as a HAL's hardware RNG would be.
struct Trng;

impl rand_core::TryRng for Trng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(u32_in())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(u64_in())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.fill(black_box(7));
        Ok(())
    }
}

fn seeded_from_rng(policy: &Policy) {
    sink(Backoff::from_rng(policy, black_box(&mut Trng)));
}

fn budgets() {
    for mode in BudgetMode::ALL {
        for option in mode.options() {
            sink((option.name(), option.default_value(), option.error(), option.mode().code()));
        }
    }
    sink(BudgetOption::from_name(black_box("capacity")));
    sink(BudgetConfig::aws_quota_or_default(Some(u32_in()), None, None, None));
    let config = match BudgetConfig::aws_quota(u32_in(), u32_in(), u32_in(), u32_in()) {
        Ok(c) => c,
        Err(_) => BudgetConfig::AWS_DEFAULT,
    };
    sink(config.max_milli());
    let budget = RetryBudget::new(config);
    budget.record_failure(FailureKind::Error);
    sink(budget.try_acquire(FailureKind::Timeout));
    budget.record_success(Some(FailureKind::Timeout));
    budget.record_success(None);
    sink(budget.set_tokens_milli(u32_in()));
    sink((budget.tokens_milli(), budget.config()));
    if let Ok(g) = RetryBudget::grpc(u32_in(), u32_in()) {
        sink(g.tokens_milli());
    }
}

fn send_rates() {
    let config = seeded_backoff::send_rate::SendRateConfig {
        burst: u32_in(),
        probe_ms: u32_in(),
        fail_fast: black_box(true),
        ..seeded_backoff::send_rate::SendRateConfig::DEFAULT
    };
    let config = config.check().unwrap_or(seeded_backoff::send_rate::SendRateConfig::DEFAULT);
    if let Ok(mut rate) = seeded_backoff::send_rate::SendRate::new(config) {
        sink(rate.before_attempt(u64_in()));
        rate.on_answer(u64_in(), seeded_backoff::send_rate::Answer::Accepted);
        rate.on_answer(u64_in(), seeded_backoff::send_rate::Answer::Throttled { hint_ms: u32_in() });
        rate.on_answer(u64_in(), seeded_backoff::send_rate::Answer::from_http(black_box(429), None));
        let thr = seeded_backoff::send_rate::Answer::Throttled { hint_ms: u32_in() };
        rate.on_answer_sent(u64_in(), u64_in(), thr);
        sink((rate.before_attempt(u64_in()), rate.rate_milli(), rate.config()));
    }
    if let Err(e) = seeded_backoff::send_rate::SendRate::new(black_box(config)) {
        sink((e.error.name(), e.error.message(), e.got));
    }
}

fn hints_and_classes() {
    let header = black_box(b"Sun, 06 Nov 1994 08:49:37 GMT");
    match parse_retry_after(&header[..], u64_in()) {
        Ok(ms) => sink(ms),
        Err(e) => sink((e.name(), e.message())),
    }
    sink(parse_grpc_pushback(black_box(b" 1500 ")));
    // Slices of unknown length and content, and a header code from the input.
    let rate_limit = black_box(&br#""default";r=0;t=30, limit=1, reset=2"#[..]);
    if let Some(h) = RateLimitHeader::from_code(u32_in() as u8) {
        sink(parse_rate_limit(h, rate_limit, u64_in()));
        sink(h.name());
    }
    sink(parse_rate_limit(
        RateLimitHeader::XRateLimitReset,
        black_box(&b" 1700000000.25 "[..]),
        u64_in(),
    ));
    sink(ServerHint::from_http_headers(
        u32_in() as u16,
        Some(black_box(&b"soon"[..])),
        |h| (h.code() == black_box(1)).then_some(rate_limit),
        u64_in(),
    ));
    let status = u32_in();
    let class = classify_http(status as u16);
    sink((
        class,
        class.name(),
        class.code(),
        Classification::from_code(black_box(2)),
        is_retryable_http(status as u16),
        classify_grpc(status),
    ));
    let method = black_box(&b"DELETE"[..]);
    sink((is_idempotent_method(method), request_may_retry(method, black_box(false))));
    sink(crc32(black_box(b"123456789")));
    sink(seeded_backoff::VERSION);
    let seed = seeded_backoff::fleet::seed_from_device(black_box(&b"device-0042"[..]), u32_in());
    sink(seeded_backoff::call_seed(seed, u64_in()));
    match seeded_backoff::fleet::startup_delay_ms(seed, u32_in()) {
        Ok(ms) => sink(ms),
        Err(e) => sink((e.error.name(), e.error.message(), e.got)),
    }
}

/// The server's pacer (SPEC.md §16): construction, its errors, assignment and the header text.
fn pacer() {
    match seeded_backoff::pacer::Pacer::new(u32_in(), u32_in() % 1000, u32_in(), u64_in()) {
        Ok(mut pacer) => {
            let slot = pacer.assign(u64_in());
            let mut buf = [0u8; 12];
            sink((slot, pacer.pending(u64_in()), pacer.retry_rate()));
            sink(slot.reset_seconds(&mut buf).len());
        }
        Err(e) => sink((e.error.name(), e.error.message(), e.got)),
    }
}

/// The retry loop (blocking form: the async one is the same future, polled once) with a budget
/// and a clock, and the errors' `Display`.
fn retry_loop(policy: &Policy) {
    let budget = RetryBudget::grpc(10, 100).ok();
    let now = core::cell::Cell::new(u64_in());
    let retry = Retry::new(policy, u64_in()).clock(|| black_box(now.get()));
    let result = match &budget {
        Some(budget) => retry
            .budget(budget)
            .on_retry(|e: RetryEvent<'_, u32>| sink((e.attempt, e.delay_ms, *e.error)))
            .run_blocking(
            |d| now.set(now.get().wrapping_add(d.as_millis() as u64)),
            |attempt| if attempt < u32_in() { Err(attempt) } else { Ok(attempt) },
            |e| match *e % 3 {
                0 => Verdict::with_hint(ServerHint::RetryAfterMs(*e)),
                1 => Verdict::throttled(Some(ServerHint::RateLimitResetMs(*e))),
                _ => Verdict::from_status(black_box(*e as u16), None),
            },
        ),
        None => retry.run_blocking(|_| {}, |a| Err(a), |_| true),
    };
    if let Err(e) = result {
        let mut out = Sink(0);
        let _ = write!(out, "{e}");
        sink((out.0, e.attempts, e.reason));
    }
    paced_loop(policy);
}

/// An attempt's error in a paced loop, made from `NotSent` when the rate stops it first.
struct Failed(u32);

impl From<seeded_backoff::send_rate::NotSent> for Failed {
    fn from(_: seeded_backoff::send_rate::NotSent) -> Self {
        Failed(0)
    }
}

/// The retry loop behind a send rate: every attempt asks it, and the verdict's answer is told.
fn paced_loop(policy: &Policy) {
    let Ok(rate) = seeded_backoff::send_rate::SendRate::new(seeded_backoff::send_rate::SendRateConfig::DEFAULT) else {
        return;
    };
    let rate = core::cell::Cell::new(rate);
    let now = core::cell::Cell::new(u64_in());
    let result = Retry::new(policy, u64_in())
        .clock(|| black_box(now.get()))
        .send_rate(&rate)
        .run_blocking(
            |d| now.set(now.get().wrapping_add(d.as_millis() as u64)),
            |attempt| if attempt < u32_in() { Err(Failed(attempt)) } else { Ok(attempt) },
            |e: &Failed| Verdict::from_status(black_box(e.0 as u16), None),
        );
    sink((result.is_ok(), rate.get().rate_milli()));
}

#[cfg(sb_proof_panic)]
fn negative() {
    // A reachable panic: an index the optimizer cannot prove in bounds.
    let table = [1u32, 2, 3];
    sink(table[black_box(7usize)]);
}

#[cfg(sb_proof_float)]
fn negative() {
    // Soft-float arithmetic on thumbv6m, which has no FPU.
    sink(black_box(1.5f32) * black_box(u32_in() as f32));
}

#[cfg(sb_proof_alloc)]
fn negative() {
    sink(alloc::boxed::Box::new(u32_in()));
}

#[cfg(not(any(sb_proof_panic, sb_proof_float, sb_proof_alloc)))]
fn negative() {}

/// The entry point the linker keeps; everything reachable from it is linked.
#[no_mangle]
pub extern "C" fn _start() -> ! {
    loop {
        if let Some(policy) = policies() {
            backoffs(&policy);
            retry_loop(&policy);
            seeded_from_rng(&policy);
        }
        budgets();
        hints_and_classes();
        send_rates();
        pacer();
        negative();
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    extern "C" {
        /// Defined nowhere: any reachable panic makes the link fail with this name.
        fn seeded_backoff_core_has_a_reachable_panic() -> !;
    }
    // SAFETY: never called in a successful link; the symbol exists only as a link-time trap.
    unsafe { seeded_backoff_core_has_a_reachable_panic() }
}
