# Shared by the lab's experiments (sourced, not run): `checked CMD...` runs an experiment whose
# own checks end it with exit status 1 and `FAIL` lines, and turns those checks into the lab's
# goal lines, so that a missed goal reads as a finding and only a run that could not happen
# (another status, or no output) fails the experiment.

# checked LABEL CMD...: runs CMD, prints its output, then `goal: met: LABEL: every check held` or
# one `goal: missed: LABEL: ...` line per failed check. Lines that CMD prints as
# "... goals (...) met" or "... NOT met" become goal lines too.
checked() {
  local label=$1 out rc
  shift
  out=$(mktemp)
  # The status is read, not acted on: the callers run under `set -e`.
  case $- in *e*) set +e; "$@" 2>&1 | tee "$out"; rc=${PIPESTATUS[0]}; set -e ;;
    *) "$@" 2>&1 | tee "$out"; rc=${PIPESTATUS[0]} ;; esac
  # (No such line is no failure, under the callers' `set -e -o pipefail` too.)
  { grep -E 'goals? .*\b(met|NOT met)\b' "$out" || true; } | { grep -v '^goal: ' || true; } | while read -r line; do
    if grep -q 'NOT met' <<<"$line"; then echo "goal: missed: $label: $line"; else echo "goal: met: $label: $line"; fi
  done
  case $rc in
    0) echo "goal: met: $label: every check held" ;;
    1)
      # Failed checks: "FAIL...: what" lines, and the indented lines under "...: FAILED".
      if ! grep -qE '^FAIL|: FAILED$' "$out"; then rm -f "$out"; return 1; fi
      awk '/^FAIL/ { sub(/^FAIL[^:]*: */, ""); print; next }
           /: FAILED$/ { under = 1; next }
           under && /^  / { sub(/^ +/, ""); print; next }
           { under = 0 }' "$out" | sed "s|^|goal: missed: $label: |"
      rc=0
      ;;
  esac
  rm -f "$out"
  return "$rc"
}
