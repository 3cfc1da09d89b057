#!/usr/bin/env bash
# Mutation check of the core's rules (cargo-mutants): each mutant of the rule files is built and
# run against the core's rule tests as ./test.sh runs them (all features): the unit tests and the
# integration tests of rules (RULE_TESTS below). Left out, to keep a mutant near 10 s: the doctests,
# the retry loops' tests (retry_async, tower, faults), the long-running steps and the README check.
# Not part of ./test.sh: about 2 h on 2 shared cores (-j 2 and PROPTEST_CASES=64 shorten it).
# Results in target/mutants.out/ (missed.txt: the surviving mutants); lab/RESULTS.md has the score.
#   bash lab/mutants.sh                                # every rule file
#   bash lab/mutants.sh --file core/src/hint.rs        # one file (replaces the list)
#   bash lab/mutants.sh --file core/src/httpdate.rs --shuffle --output target/httpdate
#   TESTS="pacer vectors" bash lab/mutants.sh --file core/src/pacer.rs   # fewer tests, faster
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || cargo install cargo-mutants --locked --version 27.1.0

files=()
if [[ " $* " != *" --file "* ]]; then
  for f in backoff jitter hint classify snapshot fleet budget rate_limit policy httpdate run pacer send_rate; do
    files+=(--file "core/src/$f.rs")
  done
  # The run's and the send rate's parts (raw form, window, configuration, shared form).
  files+=(--file "core/src/run/*.rs" --file "core/src/send_rate/*.rs")
fi
output=()
[[ " $* " == *" --output "* ]] || output=(--output target)
# The rule tests (core/tests/<name>.rs); ./test.sh checks that each one exists. TESTS="a b" runs
# only those, for a bounded run of a few files (fewer tests catch no more: its score is a floor).
RULE_TESTS="bad_input budget_transitions extreme_values fleet from_rng hand_derived pacer properties rate_limit raw_words retry_after rule_boundaries run_rules send_rate spec_tables tables vectors"
tests=(--lib)
for t in ${TESTS:-$RULE_TESTS}; do
  tests+=(--test "$t")
done
# Without debug info a mutant links in seconds rather than tens of seconds.
export CARGO_PROFILE_DEV_DEBUG=0
exec cargo mutants -p seeded-backoff "${output[@]}" --timeout "${TIMEOUT:-60}" --build-timeout 600 \
  "${files[@]}" "$@" -- --all-features "${tests[@]}"
