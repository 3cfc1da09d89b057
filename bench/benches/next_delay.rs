//! `cargo bench -p seeded-backoff-bench`: ns per delay for the core's six strategies and the four
//! peers in one run, then the `size_of` table and the ratio to the fastest peer.
//!
//! One iteration is one request's whole schedule (fresh state plus Google's ten delays), so the
//! peers' construction costs count the same way as the core's; the summary divides by ten.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use seeded_backoff_bench as sb;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group(sb::GROUP);
    group.throughput(Throughput::Elements(sb::DELAYS_PER_SCHEDULE as u64));

    for (name, jitter) in sb::STRATEGIES {
        let policy = sb::core_policy(jitter);
        group.bench_function(format!("seeded-backoff/{name}"), |b| {
            let mut seed = 0u64;
            b.iter(|| {
                seed = seed.wrapping_add(1);
                sb::core_run(black_box(&policy), black_box(seed))
            })
        });
    }
    let google = sb::core_policy(sb::STRATEGIES[1].1);
    group.bench_function(sb::FLOOR, |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sb::floor_run(black_box(&google), black_box(seed))
        })
    });
    group.bench_function(sb::PEERS[0], |b| {
        let config = sb::exponential_backoff_crate();
        b.iter(|| sb::exponential_backoff_run(black_box(&config)))
    });
    group.bench_function(sb::PEERS[1], |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sb::backon_run(black_box(seed))
        })
    });
    group.bench_function(sb::PEERS[2], |b| {
        let config = sb::backoff_crate();
        b.iter(|| sb::backoff_run(black_box(&config)))
    });
    group.bench_function(sb::PEERS[3], |b| {
        let policy = sb::retry_policies_crate();
        let start = std::time::SystemTime::now();
        b.iter(|| sb::retry_policies_run(black_box(&policy), start))
    });
    group.finish();
}

fn print_sizes() {
    println!("\nsize_of the per-request state (goal: <= 32 B)");
    println!("{:<50} {:>6}", "type", "bytes");
    for (what, bytes) in sb::size_table() {
        println!("{what:<50} {bytes:>6}");
    }
}

/// Prints ns per delay and the ratio to the fastest peer from what criterion just saved. Runs
/// that measure nothing (`--test`, `--list`, a filter) print what they have.
fn print_summary(dir: &std::path::Path, since: std::time::SystemTime) -> Result<(), String> {
    let mut measured = Vec::new();
    let mut missing = Vec::new();
    let ids = sb::STRATEGIES
        .iter()
        .map(|(name, _)| format!("seeded-backoff/{name}"))
        .chain(std::iter::once(sb::FLOOR.to_string()))
        .chain(sb::PEERS.iter().map(|p| p.to_string()));
    for id in ids {
        match sb::schedule_ns(dir, &id, since) {
            Ok(ns) => measured.push((id, ns)),
            Err(e) => missing.push(e),
        }
    }
    let Some(rows) = sb::summarize(&measured) else {
        return Err(format!(
            "no peer estimates to compare with ({} missing)",
            missing.len()
        ));
    };
    println!(
        "\nns per delay (criterion's estimate per schedule / {} delays)",
        sb::DELAYS_PER_SCHEDULE
    );
    println!(
        "{:<34} {:>12} {:>22}",
        "implementation", "ns/delay", "x fastest peer"
    );
    for row in &rows {
        println!(
            "{:<34} {:>12.2} {:>21.1}x",
            row.id, row.ns_per_delay, row.speedup_vs_fastest_peer
        );
    }
    let core_worst = rows
        .iter()
        .filter(|r| r.id.starts_with("seeded-backoff/"))
        .map(|r| r.ns_per_delay)
        .fold(0.0f64, f64::max);
    let core_worst_ratio = rows
        .iter()
        .filter(|r| r.id.starts_with("seeded-backoff/"))
        .map(|r| r.speedup_vs_fastest_peer)
        .fold(f64::INFINITY, f64::min);
    println!(
        "slowest core strategy: {core_worst:.2} ns/delay (goal <= 3), {core_worst_ratio:.1}x the fastest peer (goal >= 10x)"
    );
    if let Some(floor) = rows.iter().find(|r| r.id == sb::FLOOR) {
        println!(
            "floor (SPEC.md's Google step inline, nothing else): {:.2} ns/delay, {:.1}x the fastest peer",
            floor.ns_per_delay, floor.speedup_vs_fastest_peer
        );
    }
    for e in missing {
        println!("not measured in this run: {e}");
    }
    Ok(())
}

fn main() {
    let started = std::time::SystemTime::now();
    // `cargo bench` passes --bench; `cargo test --benches` does not, and criterion then runs each
    // benchmark once without measuring.
    let measuring = std::env::args().any(|a| a == "--bench");
    let dir = sb::criterion_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    print_sizes();
    if !measuring {
        println!("\n(test mode: nothing measured, no ns/delay summary)");
    } else if let Err(e) = print_summary(&dir, started) {
        println!("\nno summary: {e}");
    }
}
