#!/usr/bin/env bash
# The npm tarball installed into a new Node project in DIR, used as a user's code uses it: ESM
# import and CJS require (each prints the Google preset's delays for seed 42, compared with
# EXPECTED), the TypeScript types under module "nodenext" (ESM and CJS files, the repository's
# typescript), and an esbuild bundle loaded in headless Chromium with nothing copied next to it
# (the engine is inside the bundle). Part of scripts/test.d/80-dist.sh.
# usage: scripts/release/test-npm.sh TARBALL DIR EXPECTED
set -euo pipefail
tgz=${1:?usage: test-npm.sh TARBALL DIR EXPECTED}
dir=${2:?}
expected=${3:?}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/wasm/node_modules/.bin
fail() { echo "FAIL (dist npm): $*" >&2; exit 1; }
mkdir -p "$dir/app"
cd "$dir/app"
npm init -y >/dev/null
# The package has no dependencies: installing the tarball needs no registry.
npm install --no-audit --no-fund --offline "$tgz" >/dev/null
pkg=node_modules/seeded-backoff
for f in LICENSE-MIT LICENSE-APACHE README.md; do [ -f "$pkg/$f" ] || fail "the package has no $f"; done
node -e '
const p = require("seeded-backoff/package.json");
if (p.license !== "MIT OR Apache-2.0") throw new Error(`license ${p.license}`);
if (p.scripts || p.devDependencies) throw new Error("the package.json keeps build scripts or devDependencies");
console.log(`installed ${p.name}@${p.version} (${p.license}, ${p.files.length} entries in files)`);'
# The README a user reads in node_modules: no links into the repository, no build steps.
if grep -nE '\]\((\.|[a-z]+/|[A-Z]+\.md)|npm --prefix|scripts/|wasm/' "$pkg/README.md"; then
  fail "the package README points into the repository"
fi

cat >esm.mjs <<'JS'
import { Backoff } from 'seeded-backoff';
console.log([...new Backoff({ preset: 'google', seed: 42 })].join(' '));
JS
cat >cjs.cjs <<'JS'
const { Backoff } = require('seeded-backoff');
console.log([...new Backoff({ preset: 'google', seed: 42 })].join(' '));
JS
for f in esm.mjs cjs.cjs; do
  out=$(node "$f")
  [ "$out" = "$expected" ] || fail "$f printed '$out', the model $expected"
  echo "node $f: $out"
done

cat >tsconfig.json <<'JSON'
{
  "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "lib": ["es2022", "dom"],
    "module": "nodenext", "moduleResolution": "nodenext", "types": [] },
  "files": ["esm.mts", "cjs.cts"]
}
JSON
cat >esm.mts <<'TS'
import { Backoff, Policy, RetryError, retry } from 'seeded-backoff';
import { parseRetryAfter } from 'seeded-backoff/retry-after';
const policy = new Policy({ preset: 'google' });
const delay: number | null = new Backoff(policy, 42).nextDelay();
const hint: number | null = parseRetryAfter('120');
const done: Promise<string> = retry(async () => 'ok', { policy });
console.log(delay, hint, done, RetryError);
// @ts-expect-error an unknown preset is a type error
new Policy({ preset: 'azure' });
TS
cat >cjs.cts <<'TS'
import sb = require('seeded-backoff');
const d: number | null = new sb.Backoff(new sb.Policy({ preset: 'grpc' }), 1).nextDelay();
console.log(d);
TS
"$bin/tsc" -p . || fail "tsc (nodenext) rejects the package's types"
echo "tsc --module nodenext: esm.mts and cjs.cts type-check"

mkdir -p page
cat >page.js <<'JS'
import { Backoff } from 'seeded-backoff';
try {
  window.result = [...new Backoff({ preset: 'google', seed: 42 })].join(' ');
} catch (e) {
  window.error = String(e);
}
JS
"$bin/esbuild" page.js --bundle --format=esm --platform=browser --log-level=warning --outfile=page/app.js
echo '<!doctype html><title>seeded-backoff</title><script type="module" src="app.js"></script>' >page/index.html
out=$(node "$root/scripts/release/browser-smoke.mjs" page)
node -e '
const [out, expected] = process.argv.slice(1);
const { result, fetched } = JSON.parse(out);
if (result !== expected) throw new Error(`the page computed ${result}, the model ${expected}`);
if (fetched.some((p) => p.endsWith(".wasm"))) throw new Error(`the page fetched ${fetched}`);
console.log(`chromium: an esbuild bundle of the package computed ${result}, fetching ${fetched.join(" ")}`);' "$out" "$expected"
