//! `cargo bench -p seeded-backoff-bench --bench two_call_sites`: the Google step in a program that
//! calls `next_delay` from two places, timed in one run beside the floor and backon (the fastest
//! peer). The `next_delay` bench is the one-call-site program; inlining is decided per program, so
//! the two are separate binaries.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use seeded_backoff_bench as sb;

const CORE: &str = "two-sites/seeded-backoff/google";
const FLOOR: &str = "two-sites/reference/floor-google";
const BACKON: &str = "two-sites/peer/backon";

fn main() {
    let started = std::time::SystemTime::now();
    let measuring = std::env::args().any(|a| a == "--bench");
    let dir = sb::criterion_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut group = c.benchmark_group(sb::GROUP);
    group.throughput(Throughput::Elements(sb::DELAYS_PER_SCHEDULE as u64));
    let google = sb::core_policy(sb::STRATEGIES[1].1);
    group.bench_function(CORE, |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sb::core_run_two_sites(black_box(&google), black_box(seed))
        })
    });
    group.bench_function(FLOOR, |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sb::floor_run(black_box(&google), black_box(seed))
        })
    });
    group.bench_function(BACKON, |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sb::backon_run(black_box(seed))
        })
    });
    group.finish();
    c.final_summary();
    if !measuring {
        println!("\n(test mode: nothing measured, no ns/delay summary)");
        return;
    }
    let ns = |id: &str| sb::schedule_ns(&dir, id, started);
    match (ns(CORE), ns(FLOOR), ns(BACKON)) {
        (Ok(core), Ok(floor), Ok(backon)) => {
            let per = sb::DELAYS_PER_SCHEDULE as f64;
            println!("\ntwo call sites of next_delay (ns per delay)");
            println!("{:<34} {:>10.2}", "seeded-backoff, google", core / per);
            println!("{:<34} {:>10.2}", "reference: the floor", floor / per);
            println!("{:<34} {:>10.2}", "backon (fastest peer)", backon / per);
            println!(
                "core: {:.1}x backon (goal >= 8x), {:.2}x the floor (goal <= 1.5x)",
                backon / core,
                core / floor
            );
        }
        (a, b, c) => println!("\nno summary: {a:?} {b:?} {c:?}"),
    }
}
