//! Every public API of the core, so the linked .text is the whole library as a firmware uses it.
#![no_std]
#![no_main]

use seeded_backoff::bindings::RawBackoff;
use seeded_backoff::budget::{BudgetConfig, RetryBudget, RetryGate};
use seeded_backoff::http::{classify_grpc, parse_grpc_pushback};
use seeded_backoff::policy::{jitter_bounds, DeadlineMode};
use seeded_backoff::{classify_http, parse_retry_after, Backoff, FailureKind, Jitter, Policy, Schedule, ServerHint, StepInput};

/// The linker's entry (`--entry=entry`). Inputs come from the caller so nothing folds away.
#[no_mangle]
pub extern "C" fn entry(x: u32, seed: u64, header: &[u8; 32], out: &mut [u32; 16]) -> u32 {
    let jitter = Jitter::from_code((x % 6) as u8, x % 1000).unwrap_or(Jitter::Full);
    let Ok(policy) = Policy::builder()
        .initial_ms(x | 1)
        .multiplier(x % 7 + 8, 5)
        .max_backoff_ms(x.max(1000))
        .max_retries(x % 20)
        .jitter(jitter)
        .max_elapsed_ms(x)
        .deadline(DeadlineMode::from_code((x & 1) as u8).unwrap_or(DeadlineMode::GiveUp))
        .build()
    else {
        return 0;
    };
    let budget = match BudgetConfig::aws_quota(500, 5, 10, 1) {
        Ok(config) if x & 2 == 0 => RetryBudget::new(config),
        _ => RetryBudget::grpc(10, 100).unwrap_or(RetryBudget::aws_default()),
    };
    let mut backoff = Backoff::new(&policy, seed);
    let hint = match parse_retry_after(header, seed) {
        Ok(ms) => ServerHint::RetryAfterMs(ms),
        Err(_) => ServerHint::from_grpc_pushback(header),
    };
    out[0] = backoff
        .next_delay_with(&policy, StepInput::default().hint(hint))
        .delay_ms()
        .unwrap_or(0);
    out[1] = backoff
        .next_delay_with(&policy, StepInput::default().budget(&budget, FailureKind::Timeout))
        .delay_ms()
        .unwrap_or(0);
    out[2] = backoff
        .next_delay_with(
            &policy,
            StepInput {
                elapsed_ms: Some(seed),
                ..StepInput::default()
            },
        )
        .delay_ms()
        .unwrap_or(0);
    out[3] = backoff.next_delay_with(&policy, StepInput::default().elapsed_ms(seed)).delay_ms().unwrap_or(0);
    budget.record_success((x & 4 != 0).then_some(FailureKind::Error));
    out[4] = budget.tokens_milli();
    let bytes = backoff.snapshot(&policy);
    out[5] = match Backoff::restore(&policy, &bytes) {
        Ok(restored) => restored.retries(),
        Err(e) => e.message().len() as u32,
    };
    let raw: RawBackoff = backoff.to_raw();
    out[6] = Backoff::from_raw(&policy, raw).map_or(0, |b| b.elapsed_ms());
    backoff.fast_forward(&policy, x);
    backoff.reset(&policy);
    out[7] = jitter_bounds(&policy, x).1;
    out[8] = classify_http(x as u16) as u32 + classify_grpc(x) as u32;
    out[9] = parse_grpc_pushback(header).unwrap_or(0);
    out[10] = policy.fingerprint() ^ policy.base_delay_ms(x);
    let mut schedule = Schedule::new(&policy, seed);
    out[11] = schedule.next().map_or(0, |d| d.as_millis() as u32);
    out[12] = core::iter::from_fn(|| backoff.next_delay(&policy).delay_ms()).sum();
    out[13] = backoff.gave_up().map_or(0, |r| r.code() as u32);
    out[14] = Policy::grpc().base_delay_ms(x) ^ Policy::aws_standard().fingerprint();
    out[15] = Policy::google_64s().fingerprint();
    backoff.retries()
}

// The core never panics, but a no_std program must name a handler.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
