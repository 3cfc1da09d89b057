//! Benchmarks (issue 7): filled in by the performance work.
