//! [`icount`](icount.rs) for the two-call-site program: runs N iterations of
//! `core_run_two_sites` (Google) for instruction counting under valgrind. A separate binary,
//! because inlining is decided per program and this one must call `next_delay` from exactly two
//! places.
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/icount_two_sites 100000
//! ```

use std::hint::black_box;

use seeded_backoff_bench as sb;

fn main() {
    let n: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: icount_two_sites <iterations>");
            std::process::exit(2);
        }
    };
    let policy = sb::core_policy(sb::STRATEGIES[1].1);
    let mut acc = 0u64;
    for seed in 0..n {
        acc = acc.wrapping_add(sb::core_run_two_sites(black_box(&policy), black_box(seed)) as u64);
    }
    println!("{acc}");
}
