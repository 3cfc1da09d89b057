// nextDelay() in Node: the package (JS wrapper -> wasm core) against a pure-JS implementation of
// the same strategy (scripts/pure-js-google.mjs). Prints ns/call; the goal (within 2x) is reported,
// not asserted. The two are first checked to produce the same delays, so the same work is timed.
import { Backoff } from 'seeded-backoff';
import { PureGoogleBackoff } from './pure-js-google.mjs';

const SEED = 0x5eedn;
const N = 5_000_000;
const ROUNDS = 7;
const options = { preset: 'google', maxRetries: 4294967295, seed: SEED };

const wasm = new Backoff(options);
const pure = new PureGoogleBackoff(SEED);
for (let i = 0; i < 100_000; i++) {
  const a = wasm.nextDelay();
  const b = pure.nextDelay();
  if (a !== b) throw new Error(`call ${i}: package ${a}, pure JS ${b}: not the same strategy`);
}
wasm.free();

let sink = 0;
function once(b) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) sink += b.nextDelay();
  b.free?.();
  return Number(process.hrtime.bigint() - t0) / N;
}

// Interleaved rounds, best of each: the machine is shared, so single runs are noisy.
let nsWasm = Infinity;
let nsPure = Infinity;
for (let r = 0; r < ROUNDS; r++) {
  nsWasm = Math.min(nsWasm, once(new Backoff(options)));
  nsPure = Math.min(nsPure, once(new PureGoogleBackoff(SEED)));
}
if (sink === 0) throw new Error('no delays');
const ratio = nsWasm / nsPure;
console.log(`nextDelay() in Node ${process.version}, google preset, best of ${ROUNDS} x ${N} calls:`);
console.log(`  seeded-backoff (wasm core)  ${nsWasm.toFixed(1)} ns/call`);
console.log(`  pure JS, same strategy      ${nsPure.toFixed(1)} ns/call`);
console.log(`  ratio ${ratio.toFixed(2)}x (goal: within 2x) ${ratio <= 2 ? 'met' : 'NOT met'}`);
