// npm run size: what a browser fetches for a program, side by side with the npm peers in one run.
// Each usage is bundled by esbuild (--bundle --minify --format=esm) twice, and gzipped (-9):
//   one file   esbuild's default: no code splitting, so every dynamic import (the date part) is
//              inside the one bundle;
//   split      with code splitting, as Vite, webpack and Rollup do by default: "first attempt" is
//              the entry and the chunks it imports statically, what a page fetches before its first
//              request (the engine is among them: a call made offline has it in hand); "+ date"
//              what an HTTP-date or a 429's rate-limit header loads.
// The engine's bytes are inside the JS (inlined WebAssembly), so the JS is everything. The peers'
// usage entries (the same job: retry a call with Google's shape) and their packages are in
// lab/size-report/. Bytes are deterministic (pinned esbuild, the built package): exits non-zero
// if a figure grows past its regression limit. With --lab (lab/web-size.sh; npm run size), the
// peers too, and each goal as a `goal: met: ...` or `goal: missed: ...` line (no failure).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const LAB = process.argv.includes('--lab');
const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(wasmDir, 'dist');
const peers = join(wasmDir, '..', 'lab', 'size-report');
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const common = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false,
  logLevel: 'error', alias: { 'seeded-backoff': dist } };

/** One file: the gzip bytes of the whole bundle. */
async function oneFile(contents, resolveDir = wasmDir) {
  const out = await esbuild.build({ ...common, stdin: { contents, resolveDir, sourcefile: 'usage.js' } });
  return gz(out.outputFiles[0].contents);
}

/** Split: gzip bytes before the first request, and for the date part. */
async function split(contents) {
  const out = await esbuild.build({ ...common, stdin: { contents, resolveDir: wasmDir, sourcefile: 'usage.js' },
    splitting: true, outdir: '/out', metafile: true });
  const base = (path) => path.split('/').pop();
  const size = Object.fromEntries(out.outputFiles.map((f) => [base(f.path), gz(f.contents)]));
  const outputs = out.metafile.outputs;
  // The files `file` needs at once (static imports), and those it may load later (dynamic).
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') closure(i.path, seen);
    return seen;
  };
  // The usage's own output: every dynamic import is an entry point too, in no fixed order.
  const entry = Object.keys(outputs).find((f) => outputs[f].entryPoint?.endsWith('usage.js'));
  const first = closure(entry);
  // Everything the page may load later, through dynamic imports at any depth.
  const later = new Set();
  const reach = (files) => {
    for (const f of files) {
      for (const i of outputs[f].imports) {
        if (i.kind !== 'dynamic-import' || later.has(i.path)) continue;
        const more = [...closure(i.path)].filter((x) => !first.has(x) && !later.has(x));
        more.forEach((x) => later.add(x));
        reach(more);
      }
    }
  };
  reach(first);
  const sum = (files) => [...files].reduce((n, f) => n + size[base(f)], 0);
  // The only dynamic import is the date part's (with what it alone needs).
  return { first: sum(first), date: sum(later) };
}

// Every export of every entry point the package's parts serve.
const EVERY_ENTRY = ['', '/retry-after', '/snapshot', '/budget', '/fleet', '/pacer', '/send-rate']
  .map((e) => `export * from 'seeded-backoff${e}';`).join('\n');

const usages = [
  ['retry() call site', "import { retry } from 'seeded-backoff';\nexport const run = (fn) => retry(fn);"],
  ['fetchWithBackoff() call site', "import { fetchWithBackoff } from 'seeded-backoff';\nexport const get = () => fetchWithBackoff('/api/items');"],
  ['new Backoff() + nextDelay()', "import { Backoff } from 'seeded-backoff';\nexport const d = new Backoff({ preset: 'google' }).nextDelay();"],
  ['parseRetryAfter()', "import { parseRetryAfter } from 'seeded-backoff/retry-after';\nexport const ms = parseRetryAfter('120');"],
  ['snapshot() + restore()', "import { Backoff } from 'seeded-backoff';\nimport { snapshot, restore } from 'seeded-backoff/snapshot';\nexport const b = restore({}, snapshot(new Backoff()));"],
  ['RetryBudget + retry()', "import { retry } from 'seeded-backoff';\nimport { RetryBudget } from 'seeded-backoff/budget';\nconst budget = new RetryBudget();\nexport const run = (fn) => retry(fn, { budget });"],
  ['seedFromDevice() + startupDelay()', "import { seedFromDevice, startupDelay } from 'seeded-backoff/fleet';\nexport const ms = startupDelay(seedFromDevice('dev-1', 1), 60000);"],
  ['Pacer + pace() (server)', "import { pace, Pacer } from 'seeded-backoff/pacer';\nexport const p = (res) => pace(res, new Pacer({ capacityPerS: 100 }));"],
  ['SendRate', "import { SendRate } from 'seeded-backoff/send-rate';\nconst rate = new SendRate();\nexport const go = async () => (await rate.waitTurn()).kind;"],
  ['devicePreset() + retry() (seeded-backoff/device)', "import { retry } from 'seeded-backoff';\nimport { devicePreset } from './dist/device.js';\nexport const run = (fn) => retry(fn, { preset: devicePreset() });"],
  ['Outbox (seeded-backoff/outbox)', "import { Outbox } from './dist/outbox/index.js';\nexport const o = new Outbox();"],
  ['Backoff alone (the adapters\' base)', "import { Backoff } from 'seeded-backoff';\nexport const b = (s) => new Backoff({}, s);"],
  ['seeded-backoff/ky', "import { kyRetry } from './dist/adapters/ky.js';\nexport const r = kyRetry;"],
  ['seeded-backoff/axios-retry', "import { axiosRetryOptions } from './dist/adapters/axios-retry.js';\nexport const r = axiosRetryOptions;"],
  ['seeded-backoff/got', "import { gotRetry } from './dist/adapters/got.js';\nexport const r = gotRetry;"],
  ['retry() under a strict CSP (seeded-backoff/csp)', "import './dist/csp.js';\nimport { retry } from 'seeded-backoff';\nexport const run = (fn) => retry(fn);"],
  ['every part under a strict CSP (seeded-backoff/csp/full)', `import './dist/csp-full.js';\n${EVERY_ENTRY}`],
  ['whole package (every export, every part)', EVERY_ENTRY],
];

const rows = [];
for (const [name, code] of usages) rows.push([`seeded-backoff: ${name}`, await oneFile(code), await split(code)]);
for (const peer of LAB ? ['p-retry', 'cockatiel', 'exponential-backoff', 'ky'] : []) {
  const version = JSON.parse(readFileSync(join(peers, 'node_modules', peer, 'package.json'), 'utf8')).version;
  const code = readFileSync(join(peers, 'entries', `${peer}.mjs`), 'utf8');
  const bytes = await oneFile(code, join(peers, 'entries'));
  rows.push([`${peer} ${version}: retry usage`, bytes, { first: bytes, date: 0 }]);
}

const pad = (v, n = 7) => String(v).padStart(n);
console.log('what a browser fetches, gzip -9 bytes (esbuild --bundle --minify --format=esm; the engine is inside):');
console.log(`  ${'usage'.padEnd(56)} ${pad('one file', 9)} ${pad('split: first attempt', 21)} ${pad('+ date')}`);
for (const [name, one, s] of rows) {
  console.log(`  ${name.padEnd(56)} ${pad(one, 9)} ${pad(s.first, 21)} ${pad(s.date || '-')}`);
}
const row = (name) => rows.find((r) => r[0] === `seeded-backoff: ${name}`);
const retryFirst = row('retry() call site')[2].first;
const base = row("Backoff alone (the adapters' base)")[2].first;
if (LAB) {
  const pRetry = rows.find((r) => r[0].startsWith('p-retry'))[1];
  console.log(`  retry() call site / p-retry: ${(retryFirst / pRetry).toFixed(2)}x (split, first attempt), ${(row('retry() call site')[1] / pRetry).toFixed(2)}x (one file)`);
  const backoff = row('new Backoff() + nextDelay()');
  const goals = [
    ['retry() call site, split (what Vite, webpack and Rollup pages fetch)', retryFirst, 8000, ' (stretch 6500 B)'],
    ['retry() call site, one file (esbuild default)', row('retry() call site')[1], 10000, ' (stretch 8000 B)'],
    ['new Backoff() + nextDelay(), split', backoff[2].first, 4000, ''],
    ['new Backoff() + nextDelay(), one file', backoff[1], 4000, ''],
    ['whole package, split, first attempt', row('whole package (every export, every part)')[2].first, 20000, ''],
    ['the date part', row('retry() call site')[2].date, 2000, ''],
    ...['ky', 'axios-retry', 'got'].map((a) => [`seeded-backoff/${a} over Backoff alone`, row(`seeded-backoff/${a}`)[2].first - base, 1000, '']),
  ];
  for (const [what, got, goal, more] of goals) console.log(`goal: ${got <= goal ? 'met' : 'missed'}: ${what}: ${got} B, goal <= ${goal} B${more}`);
  // The floor (lab/size-report/wasm-floor): the core's run alone at opt-level "z", no
  // marshalling, inlined as the package inlines its parts (hex, gzip -9), beside the main part.
  const floor = (features) => {
    const dir = join(peers, 'wasm-floor');
    const target = join(wasmDir, '..', 'target', 'wasm-floor');
    execFileSync('cargo', ['build', '-q', '--release', '--target', 'wasm32-unknown-unknown', ...features], { cwd: dir, env: { ...process.env, CARGO_TARGET_DIR: target } });
    const out = join(target, 'floor.wasm');
    execFileSync(join(wasmDir, 'node_modules', '.bin', 'wasm-opt'), ['-Oz', '--enable-bulk-memory', '--enable-sign-ext', '--enable-mutable-globals',
      '--strip-debug', '--strip-producers', join(target, 'wasm32-unknown-unknown', 'release', 'seeded_backoff_wasm_floor.wasm'), '-o', out]);
    return gz(Buffer.from(readFileSync(out).toString('hex')));
  };
  const inlined = (part) => gz(Buffer.from(readFileSync(join(wasmDir, 'pkg', `${part}.wasm`)).toString('hex')));
  console.log(`floor (WebAssembly inlined as hex, gzip -9): the run alone under Google's preset ${floor([])} B; under any policy from the core's options ${floor(['--features', 'options'])} B; the package's main part ${inlined('main')} B, its date part ${inlined('date')} B`);
}
// Regression limits: today's figures plus a margin, so that growth is noticed.
const limits = [
  // The engine in the static imports of every call site (a call made offline has it in hand), the
  // option checks that name the option meant and the brand read across module formats: the retry()
  // call site 5494 + 8663 (engine chunk) B before, 14354 B with them (one file 35897 -> 18426 B,
  // no JS build of the engine inlined); the one driver of a run, which the Google Cloud
  // integration shares (its host hooks), 14546 B (one file 18619 B); the hook a shared budget or
  // send rate plugs into (seeded-backoff/shared), 14740 B (18818 B).
  ['retry() call site, split', retryFirst, 14800],
  ['retry() call site, one file', row('retry() call site')[1], 18900],
  // An adapter brings the run and the hint beside Backoff, never the HTTP-date parser (which made
  // it 20,279 B when its status classes came through the retry-after entry).
  ['seeded-backoff/ky, split', row('seeded-backoff/ky')[2].first, 16200],
  ['new Backoff() + nextDelay(), one file', row('new Backoff() + nextDelay()')[1], 12000],
  // A budget's refusal that names the values given (40937 -> 41082 B), and the local parts' hooks
  // for a shared one (their words read and set, a run's events through a store:
  // seeded-backoff/shared, whose own code and store part are outside this figure).
  ['whole package, split', row('whole package (every export, every part)')[2].first, 41700],
  ['Outbox, split', row('Outbox (seeded-backoff/outbox)')[2].first, 23500],
];
// (In the lab, a figure past its limit is printed, not failed: the gate fails it.)
let failed = false;
for (const [name, got, limit] of limits) {
  if (got > limit) {
    console.error(`${LAB ? 'over' : 'FAIL'}: ${name} is ${got} B, above its regression limit of ${limit} B`);
    failed = true;
  }
}
process.exit(failed && !LAB ? 1 : 0);
