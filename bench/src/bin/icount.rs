//! Runs N benchmark iterations of one implementation, for instruction counting under valgrind:
//! a figure that, unlike nanoseconds, does not depend on what else the machine is doing.
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/icount google 100000
//! ```
//! Run it with N and with 0 and divide the difference by 10 N: instructions per delay.

use std::hint::black_box;

use seeded_backoff_bench as sb;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let n: u64 = match args.next().map(|s| s.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: icount <strategy|peer> <iterations>; reference: floor; peers: backon backoff exponential-backoff retry-policies");
            std::process::exit(2);
        }
    };
    let mut acc = 0u64;
    if let Some((_, jitter)) = sb::STRATEGIES.iter().find(|(name, _)| *name == which) {
        let policy = sb::core_policy(*jitter);
        for seed in 0..n {
            acc = acc.wrapping_add(sb::core_run(black_box(&policy), black_box(seed)) as u64);
        }
    } else {
        match which.as_str() {
            "floor" => {
                let policy = sb::core_policy(sb::STRATEGIES[1].1);
                for seed in 0..n {
                    acc =
                        acc.wrapping_add(sb::floor_run(black_box(&policy), black_box(seed)) as u64);
                }
            }
            "backon" => {
                for seed in 0..n {
                    acc = acc.wrapping_add(sb::backon_run(black_box(seed)).as_millis() as u64);
                }
            }
            "backoff" => {
                let config = sb::backoff_crate();
                for _ in 0..n {
                    acc = acc.wrapping_add(sb::backoff_run(black_box(&config)).as_millis() as u64);
                }
            }
            "exponential-backoff" => {
                let config = sb::exponential_backoff_crate();
                for _ in 0..n {
                    acc = acc.wrapping_add(
                        sb::exponential_backoff_run(black_box(&config)).as_millis() as u64,
                    );
                }
            }
            "retry-policies" => {
                let policy = sb::retry_policies_crate();
                let start = std::time::SystemTime::now();
                for _ in 0..n {
                    let t = sb::retry_policies_run(black_box(&policy), start);
                    acc = acc
                        .wrapping_add(t.duration_since(start).map_or(0, |d| d.as_millis() as u64));
                }
            }
            other => {
                eprintln!("icount: unknown implementation '{other}'");
                std::process::exit(2);
            }
        }
    }
    println!("{which}: {n} schedules, checksum {acc}");
}
