// npm run bench (a lab experiment: lab/web-speed.sh): the package's cost per request in Node,
// interleaved with plain JS in one process (best of several rounds: the machine is shared, so
// single runs are noisy). Prints a table:
//  1. a request's whole schedule from a shared Policy: new Backoff(policy, seed) + 10 nextDelay(),
//     against a plain JS loop of the same formula (level doubling to the cap, Math.random jitter);
//     goal: <= 3x;
//  2. the same with the options sugar, new Backoff({ preset, seed }) (a Policy per request);
//  3. a long-lived Backoff's nextDelay(), against a pure-JS implementation of the same strategy
//     (scripts/pure-js-google.mjs, checked first to give the same delays); goal: <= 2x.
// Each goal is a `goal: met: ...` or `goal: missed: ...` line; a missed goal is no failure. Exits
// non-zero only when the twin gives other delays (the comparison would be void).
import { Backoff, Policy } from 'seeded-backoff';
import { PureGoogleBackoff } from './pure-js-google.mjs';

const ROUNDS = 7;
const REQUESTS = 200_000;
const CALLS = 5_000_000;
let sink = 0;

function plainLoop() {
  let level = 1000;
  for (let i = 0; i < 10; i++) {
    sink += Math.min(level + Math.floor(Math.random() * 1001), 32000);
    level = Math.min(level * 2, 32000);
  }
}

const policy = new Policy({ preset: 'google' });
function sharedPolicy(seed) {
  const b = new Backoff(policy, seed);
  for (let i = 0; i < 10; i++) sink += b.nextDelay();
}
function optionsSugar(seed) {
  const b = new Backoff({ preset: 'google', seed });
  for (let i = 0; i < 10; i++) sink += b.nextDelay();
}

function timeRequests(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / REQUESTS;
}

function timeCalls(b) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink += b.nextDelay();
  return Number(process.hrtime.bigint() - t0) / CALLS;
}

// The same work: the package and the pure-JS twin give the same delays for the same seed.
const SEED = 0x5eedn;
const check = new Backoff({ preset: 'google', maxRetries: 4294967295, seed: SEED });
const twin = new PureGoogleBackoff(SEED);
for (let i = 0; i < 100_000; i++) {
  const a = check.nextDelay();
  const b = twin.nextDelay();
  if (a !== b) throw new Error(`call ${i}: package ${a}, pure JS ${b}: not the same strategy`);
}

const best = { plain: Infinity, shared: Infinity, sugar: Infinity, wasm: Infinity, pure: Infinity };
const unlimited = new Policy({ preset: 'google', maxRetries: 4294967295 });
for (let r = 0; r < ROUNDS; r++) {
  best.plain = Math.min(best.plain, timeRequests(plainLoop));
  best.shared = Math.min(best.shared, timeRequests(sharedPolicy));
  best.sugar = Math.min(best.sugar, timeRequests(optionsSugar));
  best.wasm = Math.min(best.wasm, timeCalls(new Backoff(unlimited, SEED)));
  best.pure = Math.min(best.pure, timeCalls(new PureGoogleBackoff(SEED)));
}
if (sink === 0) throw new Error('no delays');

const row = (name, ns, base) => console.log(`  ${name.padEnd(58)} ${ns.toFixed(1).padStart(8)} ns ${(ns / base).toFixed(2).padStart(6)}x`);
console.log(`Node ${process.version}, google preset, best of ${ROUNDS} interleaved rounds:`);
console.log('per request (create + 10 delays):');
row('plain JS loop (level doubling, Math.random)', best.plain, best.plain);
row('new Backoff(sharedPolicy, seed) + 10 x nextDelay()', best.shared, best.plain);
row('new Backoff({ preset, seed }) + 10 x nextDelay()', best.sugar, best.plain);
console.log('per call, a long-lived Backoff:');
row('pure JS, same strategy (xoshiro128++, Lemire)', best.pure, best.pure);
row('nextDelay()', best.wasm, best.pure);
const goal = (what, ratio, limit) => console.log(`goal: ${ratio <= limit ? 'met' : 'missed'}: ${what}: ${ratio.toFixed(2)}x, goal <= ${limit}x`);
goal('per request, new Backoff(sharedPolicy, seed) + 10 x nextDelay() beside a plain JS doubling loop', best.shared / best.plain, 3);
goal('nextDelay() beside its pure-JS twin', best.wasm / best.pure, 2);
