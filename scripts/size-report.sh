#!/usr/bin/env bash
# Size report (issue 7): thumbv6m .text of the core (Google-only use and every API), the npm
# package's gzip size, and a retry() usage of seeded-backoff and of the npm peers bundled the same
# way (esbuild --bundle --minify, then gzip -9).
#
# Needs: the thumbv6m-none-eabi Rust target, arm-none-eabi-size (binutils-arm-none-eabi), node, and
# `npm ci` in scripts/size-report. The wasm lines need wasm/dist (built by the wasm package's
# `npm run build`); without it they are skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
report=$root/scripts/size-report
fail() { echo "size-report: $*" >&2; exit 1; }

command -v arm-none-eabi-size >/dev/null || fail "arm-none-eabi-size not found (apt-get install binutils-arm-none-eabi)"
[ -x "$report/node_modules/.bin/esbuild" ] || fail "run 'npm ci' in scripts/size-report first"

# Section size in bytes from `size -A` (SysV format), 0 when the section is absent.
section() { arm-none-eabi-size -A "$1" | awk -v s="$2" '$1 == s { print $2; found = 1 } END { if (!found) print 0 }'; }
gz() { gzip -9 -n -c "$1" | wc -c | tr -d ' '; }

echo "== thumbv6m-none-eabi (opt-level s, LTO, panic=abort; linked from one entry with --gc-sections)"
# The firmware crate is its own workspace (bare-metal only); its build goes under the repo's target/.
(cd "$report/firmware" && cargo build -q --release --target-dir "$root/target/size-report")
bin=$root/target/size-report/thumbv6m-none-eabi/release
printf '%-44s %8s %8s\n' "program" ".text" ".rodata"
for prog in google google_two_sites all; do
  case $prog in
    google) what="Google-only (Policy::google + next_delay)" ;;
    google_two_sites) what="Google-only, next_delay called from 2 places" ;;
    all) what="whole core (every public API)" ;;
  esac
  text=$(section "$bin/$prog" .text)
  rodata=$(section "$bin/$prog" .rodata)
  [ "$text" -gt 0 ] || fail "$prog: no .text"
  printf '%-44s %8s %8s\n' "$what" "$text" "$rodata"
done

echo
echo "== npm: a retry() usage bundled by esbuild --bundle --minify --format=esm, gzip -9 bytes"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
esbuild=$report/node_modules/.bin/esbuild
version() { node -p "require('$report/node_modules/$1/package.json').version"; }
printf '%-34s %10s %10s %10s\n' "library" "min bytes" "gzip" "+ wasm gz"
for peer in p-retry cockatiel exponential-backoff; do
  "$esbuild" "$report/entries/$peer.mjs" --bundle --minify --format=esm --platform=browser \
    --log-level=warning --outfile="$out/$peer.js"
  printf '%-34s %10s %10s %10s\n' "$peer $(version "$peer")" "$(wc -c <"$out/$peer.js" | tr -d ' ')" "$(gz "$out/$peer.js")" "-"
done
dist=$root/wasm/dist
if [ -f "$dist/index.js" ] && [ -f "$dist/seeded_backoff_bg.wasm" ]; then
  "$esbuild" "$report/entries/seeded-backoff.mjs" --bundle --minify --format=esm --platform=browser \
    --alias:seeded-backoff="$dist/index.js" --log-level=warning --outfile="$out/seeded-backoff.js"
  js_gz=$(gz "$out/seeded-backoff.js")
  wasm_gz=$(gz "$dist/seeded_backoff_bg.wasm")
  printf '%-34s %10s %10s %10s\n' "seeded-backoff (wasm/dist)" "$(wc -c <"$out/seeded-backoff.js" | tr -d ' ')" "$js_gz" "$((js_gz + wasm_gz))"
  echo
  echo "== npm package seeded-backoff (wasm/dist), gzip -9 bytes"
  # The whole browser API: everything dist/index.js exports, bundled and minified the same way.
  echo "export * from '$dist/index.js';" >"$out/all-entry.mjs"
  "$esbuild" "$out/all-entry.mjs" --bundle --minify --format=esm --platform=browser \
    --log-level=warning --outfile="$out/all.js"
  all_gz=$(gz "$out/all.js")
  printf '%-34s %10s %10s\n' "part" "bytes" "gzip"
  printf '%-34s %10s %10s\n' "seeded_backoff_bg.wasm" "$(wc -c <"$dist/seeded_backoff_bg.wasm" | tr -d ' ')" "$wasm_gz"
  printf '%-34s %10s %10s\n' "JS, whole API (index.js, bundled)" "$(wc -c <"$out/all.js" | tr -d ' ')" "$all_gz"
  printf '%-34s %10s %10s\n' "package total (browser)" "-" "$((wasm_gz + all_gz))"
else
  echo "seeded-backoff: SKIPPED, wasm/dist is absent (build it: cd wasm && npm ci && npm run build)"
fi
