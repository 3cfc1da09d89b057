#!/usr/bin/env bash
# Size report: thumbv6m .text of the core (Google-only use and every API), and the npm package's
# usages beside the npm peers (wasm/scripts/size.mjs: esbuild --bundle --minify, then gzip -9).
#
# Needs: the thumbv6m-none-eabi Rust target, arm-none-eabi-size (binutils-arm-none-eabi), node, and
# `npm ci` in lab/size-report. The wasm lines need wasm/dist (built by the wasm package's
# `npm run build`); without it they are skipped with a message.
# --table: only the thumbv6m figures, as the markdown table and goals lab/RESULTS.md holds.
set -euo pipefail
table=${1-}
cd "$(dirname "$0")/.."
root=$PWD
report=$root/lab/size-report
fail() { echo "size-report: $*" >&2; exit 1; }

command -v arm-none-eabi-size >/dev/null || fail "arm-none-eabi-size not found (apt-get install binutils-arm-none-eabi)"
[ -x "$report/node_modules/.bin/esbuild" ] || fail "run 'npm ci' in lab/size-report first"

# Section size in bytes from `size -A` (SysV format), 0 when the section is absent.
section() { arm-none-eabi-size -A "$1" | awk -v s="$2" '$1 == s { print $2; found = 1 } END { if (!found) print 0 }'; }
gz() { gzip -9 -n -c "$1" | wc -c | tr -d ' '; }

[ "$table" = --table ] || echo "== thumbv6m-none-eabi (opt-level s, LTO, panic=abort; linked from one entry with --gc-sections)"
# The firmware crate is its own workspace (bare-metal only); its build goes under the repo's target/.
(cd "$report/firmware" && cargo build -q --release --target-dir "$root/target/size-report")
bin=$root/target/size-report/thumbv6m-none-eabi/release
if [ "$table" = --table ]; then
  echo "| program (thumbv6m-none-eabi) | .text | .rodata | goal (.text) |"
  echo "|---|---:|---:|---|"
else
  printf '%-44s %8s %8s\n' "program" ".text" ".rodata"
fi
for prog in google google_two_sites all; do
  case $prog in
    google) what="Google-only (Policy::google + next_delay)" goal=1024 ;;
    google_two_sites) what="Google-only, next_delay called from 2 places" goal=1024 ;;
    all) what="whole core (every public API)" goal=2048 ;;
  esac
  text=$(section "$bin/$prog" .text)
  rodata=$(section "$bin/$prog" .rodata)
  [ "$text" -gt 0 ] || fail "$prog: no .text"
  if [ "$table" = --table ]; then
    met=$([ "$text" -le "$goal" ] && echo met || echo "**not met**")
    echo "| $what | $text B | $rodata B | <= $goal B, $met |"
  else
    printf '%-44s %8s %8s\n' "$what" "$text" "$rodata"
    echo "goal: $([ "$text" -le "$goal" ] && echo met || echo missed): thumbv6m .text, $what: $text B (goal <= $goal B)"
  fi
done
[ "$table" != --table ] || exit 0

echo
echo "== npm: usages bundled by esbuild --bundle --minify --format=esm, gzip -9, beside the peers"
if [ -f wasm/dist/index.js ] && [ -f wasm/dist/main-part.js ]; then
  node wasm/scripts/size.mjs --lab
else
  echo "seeded-backoff: SKIPPED, wasm/dist is absent (build it: npm --prefix wasm ci && npm --prefix wasm run build)"
fi
