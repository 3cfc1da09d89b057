#!/usr/bin/env bash
# The lab: every experiment and figure of the project, beside the gate (./test.sh), never in it.
#
#   bash lab/run.sh                 every experiment, one after the other
#   bash lab/run.sh NAME...         the named ones (lab/NAME.sh)
#   bash lab/run.sh --list          their names and first comment lines
#
# Each experiment is a standalone script lab/NAME.sh. It builds what it needs, prints its figures,
# and prints one line per goal: `goal: met: ...` or `goal: missed: ...`. A missed goal is a
# finding, not a failure: this script fails only when an experiment cannot run (its exit status
# is not 0). At the end it lists every goal line, by experiment, and which experiments failed.
# It installs the lab's extra tools first (scripts/setup.sh lab).
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

experiments() { ls lab/*.sh | sed 's|lab/||; s|\.sh$||' | grep -vxE 'run|benchmarks'; }

if [ "${1:-}" = --list ]; then
  for name in $(experiments); do
    printf '%-16s %s\n' "$name" "$(sed -n '2s/^# *//p' "lab/$name.sh")"
  done
  exit 0
fi
names=("$@")
[ "${#names[@]}" -gt 0 ] || mapfile -t names < <(experiments)
for name in "${names[@]}"; do
  [ -f "lab/$name.sh" ] || { echo "lab: no experiment '$name' (bash lab/run.sh --list)" >&2; exit 2; }
done

bash scripts/setup.sh lab || { echo "lab: setup failed"; exit 1; }

logs=$(mktemp -d)
failed=()
for name in "${names[@]}"; do
  echo
  echo "=== lab: $name"
  start=$SECONDS
  bash "lab/$name.sh" 2>&1 | tee "$logs/$name.log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then
    echo "--- lab: $name ran ($((SECONDS - start)) s)"
  else
    failed+=("$name")
    echo "--- lab: $name could not run: exit $rc ($((SECONDS - start)) s)"
  fi
done

echo
echo "=== lab: goals"
met=0 missed=0
for name in "${names[@]}"; do
  lines=$(grep -E '^goal: (met|missed): ' "$logs/$name.log")
  [ -n "$lines" ] || continue
  echo "$name:"
  sed 's/^/  /' <<<"$lines"
  met=$((met + $(grep -c '^goal: met: ' <<<"$lines")))
  missed=$((missed + $(grep -c '^goal: missed: ' <<<"$lines")))
done
rm -rf "$logs"
echo "lab: $met goals met, $missed missed; ${#names[@]} experiments, ${#failed[@]} could not run${failed[*]:+: ${failed[*]}}"
[ "${#failed[@]}" -eq 0 ]
