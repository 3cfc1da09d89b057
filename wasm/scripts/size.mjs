// npm run size: what a browser downloads, side by side with the npm peers in one run. Each usage is
// bundled by esbuild --bundle --minify --format=esm and gzipped (-9); for seeded-backoff the wasm
// parts the usage loads before its first retry are added. The peers' usage entries (the same job:
// retry a call with Google's shape) and their packages are in scripts/size-report/.
// Exits non-zero if a figure grows past its regression limit; the goals are printed as met
// or not met.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(wasmDir, 'dist');
const peers = join(wasmDir, '..', 'scripts', 'size-report');
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const wasmGz = (part) => gz(readFileSync(join(dist, `seeded_backoff_${part}.wasm`)));

async function bundle(contents, resolveDir = wasmDir) {
  const out = await esbuild.build({
    stdin: { contents, resolveDir, sourcefile: 'usage.js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false,
    logLevel: 'warning', alias: { 'seeded-backoff': join(dist, 'index.js') },
  });
  return out.outputFiles[0].contents;
}

const usages = [
  ['retry() call site', "import { retry } from 'seeded-backoff';\nexport const run = (fn) => retry(fn, { preset: 'google' });", ['main']],
  ['fetchWithBackoff() call site', "import { fetchWithBackoff } from 'seeded-backoff';\nexport const get = () => fetchWithBackoff('/api/items');", ['main']],
  ['new Backoff() + nextDelay()', "import { Backoff } from 'seeded-backoff';\nexport const d = new Backoff({ preset: 'google' }).nextDelay();", ['main']],
  ['parseRetryAfter()', "import { parseRetryAfter } from 'seeded-backoff';\nexport const ms = parseRetryAfter('120');", ['main', 'date']],
  ['snapshot() + restore()', "import { Backoff, snapshot, restore } from 'seeded-backoff';\nexport const b = restore({}, snapshot(new Backoff()));", ['main', 'snapshot']],
  ['RetryBudget + retry()', "import { retry, RetryBudget } from 'seeded-backoff';\nconst budget = new RetryBudget();\nexport const run = (fn) => retry(fn, { budget });", ['main', 'budget']],
  ['seedFromDevice() + startupDelay()', "import { seedFromDevice, startupDelay } from 'seeded-backoff';\nexport const ms = startupDelay(seedFromDevice('dev-1', 1), 60000);", ['fleet']],
  ['Outbox (seeded-backoff/outbox)', "import { Outbox } from './dist/outbox/index.js';\nexport const o = new Outbox();", ['main', 'date', 'snapshot', 'fleet']],
  ['whole package (every export, every part)', "export * from 'seeded-backoff';", ['main', 'date', 'snapshot', 'budget', 'fleet']],
];

const rows = [];
for (const [name, code, parts] of usages) {
  const js = gz(await bundle(code));
  const wasm = parts.reduce((sum, p) => sum + wasmGz(p), 0);
  rows.push([`seeded-backoff: ${name}`, js, wasm, parts.join('+')]);
}
for (const peer of ['p-retry', 'cockatiel', 'exponential-backoff', 'ky']) {
  const version = JSON.parse(readFileSync(join(peers, 'node_modules', peer, 'package.json'), 'utf8')).version;
  const code = readFileSync(join(peers, 'entries', `${peer}.mjs`), 'utf8');
  rows.push([`${peer} ${version}: retry usage`, gz(await bundle(code, join(peers, 'entries'))), 0, '-']);
}

console.log('bundle sizes, gzip -9 bytes (esbuild --bundle --minify --format=esm):');
console.log(`  ${'usage'.padEnd(58)} ${'JS'.padStart(6)} ${'wasm'.padStart(6)} ${'total'.padStart(6)}  parts`);
for (const [name, js, wasm, parts] of rows) {
  console.log(`  ${name.padEnd(58)} ${String(js).padStart(6)} ${String(wasm).padStart(6)} ${String(js + wasm).padStart(6)}  ${parts}`);
}
const total = (name) => rows.find((r) => r[0] === `seeded-backoff: ${name}`).slice(1, 3).reduce((a, b) => a + b);
const pRetry = rows.find((r) => r[0].startsWith('p-retry'))[1];
const retryTotal = total('retry() call site');
const whole = total('whole package (every export, every part)');
console.log(`  retry() call site / p-retry: ${(retryTotal / pRetry).toFixed(2)}x`);
const goals = [
  ['retry() call site, JS + wasm <= 4000 B (stretch 3000)', retryTotal, 4000],
  ['whole package, all JS + all wasm <= 10000 B', whole, 10000],
];
for (const [goal, got, limit] of goals) console.log(`goal: ${goal}: ${got} B, ${got <= limit ? 'met' : 'NOT met'}`);
// Regression limits: today's figures plus a margin, so that growth is noticed (BENCHMARKS.md says
// what retries that follow the page's life, timeouts, the idempotency rule and the rate-limit
// headers add).
const limits = [['retry() call site', retryTotal, 8000], ['whole package', whole, 20800],
  ['Outbox (seeded-backoff/outbox)', total('Outbox (seeded-backoff/outbox)'), 19500]];
let failed = false;
for (const [name, got, limit] of limits) {
  if (got > limit) {
    console.error(`FAIL: ${name} is ${got} B, above its regression limit of ${limit} B`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
