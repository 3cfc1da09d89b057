// node --expose-gc wasm/scripts/load.mjs [--lab] [N]: N (default 10000) concurrent retry() loops in
// one process, sharing one Policy and one AbortSignal (one controller for a whole view), each
// attempt a 503 Response, all asleep (60 s) before their second attempt; then abort(). Checks, and
// exits non-zero if any fails: no warning of any kind, one 'abort' listener on the caller's signal
// while they sleep (the caller's signal keeps its default limits) and none after, every loop
// rejected with the signal's reason well before its sleep would end (within a tenth of it), and
// the process ends by itself (nothing left pending).
// With --lab (lab/web-load.sh), the figures too: the heap per sleeping loop beside p-retry's,
// measured the same way in the same run (lab/size-report's p-retry), and the time abort()
// takes to reject them all, printed against its goal (100 ms) as a `goal:` line.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Policy, retry } from 'seeded-backoff';

const LAB = process.argv.includes('--lab');
const N = Number(process.argv.slice(2).find((a) => a !== '--lab') ?? 10000);
const SLEEP_MS = 60000;
if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
const warnings = [];
process.on('warning', (w) => warnings.push(`${w.name}: ${w.message}`));
const peers = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'lab', 'size-report', 'package.json');
const pRetry = LAB ? (await import(createRequire(peers).resolve('p-retry'))).default : undefined;

const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const settle = async (done) => {
  while (!done()) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 50));
};

/** Starts N loops with `start(signal, count)`; returns heap bytes per sleeping loop and abort's figures. */
async function run(name, start) {
  const ac = new AbortController();
  const reason = new Error('stop');
  let attempts = 0;
  const before = heap();
  const loops = Array.from({ length: N }, () => start(ac.signal, () => attempts++).then(
    () => 'resolved', (e) => (e === reason ? 'aborted' : e)));
  await settle(() => attempts >= N);
  const perLoop = (heap() - before) / N;
  const listeners = getEventListeners(ac.signal, 'abort').length;
  const t0 = performance.now();
  ac.abort(reason);
  const outcomes = await Promise.all(loops);
  const abortMs = performance.now() - t0;
  const left = getEventListeners(ac.signal, 'abort').length;
  console.log(`${name.padEnd(16)} ${N} loops asleep: ${(perLoop / 1024).toFixed(2)} KiB of heap each; ` +
    `${listeners} abort listener(s) on the shared signal; abort() rejected them all in ${abortMs.toFixed(1)} ms; ` +
    `${left} listener(s) left`);
  return { perLoop, listeners, abortMs, left, outcomes, attempts };
}

const policy = new Policy({ initialMs: SLEEP_MS, maxBackoffMs: SLEEP_MS });
const ours = await run('seeded-backoff', (signal, count) => retry(() => {
  count();
  return new Response(null, { status: 503 });
}, { policy, signal }));
// p-retry adds a listener per loop: Node warns about it, which is p-retry's, not ours.
const ourWarnings = warnings.slice();

assert.equal(ours.attempts, N, 'every loop made its first attempt');
assert.ok(ours.outcomes.every((o) => o === 'aborted'), 'every loop rejected with the signal\'s reason');
assert.equal(ours.listeners, 1, 'one abort listener for all the loops');
assert.equal(ours.left, 0, 'no listener left on the caller\'s signal');
assert.ok(ours.abortMs < SLEEP_MS / 10, `abort() took ${ours.abortMs} ms: not well before the ${SLEEP_MS} ms sleep would end`);
assert.deepEqual(ourWarnings, [], 'no warning');
if (LAB) {
  const peer = await run('p-retry', (signal, count) => pRetry(() => {
    count();
    throw new Error('503');
  }, { retries: 10, minTimeout: SLEEP_MS, signal }));
  console.log(`heap per sleeping loop: seeded-backoff / p-retry = ${(ours.perLoop / peer.perLoop).toFixed(2)}x`);
  console.log(`goal: ${ours.abortMs <= 100 ? 'met' : 'missed'}: abort() rejects all ${N} sleeping loops in ${ours.abortMs.toFixed(1)} ms, goal <= 100 ms`);
}
console.log('load: ok (the process now ends by itself: nothing is left pending)');
