// fetchWithBackoff() and retry() in Node against tests/faults/fault_server.py on 127.0.0.1: resets
// before and after the headers, a stall, headers that trickle in, a truncated chunked body, a
// refused port, a storm of 5xx/429 with garbage hints. For each: the loop ends within its time
// budget plus one attempt and a stated tolerance, the final error names the last failure, the
// caller's signal has no listener left, and the server holds no connection of ours afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fetchWithBackoff, RetryError } from 'seeded-backoff';

const SERVER = new URL('../../tests/faults/fault_server.py', import.meta.url).pathname;
// A 1.5 s budget, attempts of at most 300 ms, small waits: every loop ends on the deadline.
const OPTIONS = { initialMs: 50, maxBackoffMs: 200, jitter: 'full', maxElapsedMs: 1500, maxRetries: 1000, seed: 3 };
const ATTEMPT_MS = 300;
// What a loop may take beyond its budget: the last attempt (300 ms) and scheduling slack on a
// shared machine.
const LIMIT_MS = OPTIONS.maxElapsedMs + ATTEMPT_MS + 1200;

let server;
let base;
let refused;
before(async () => {
  server = spawn('python3', [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value]);
  const { port, refused_port: r } = JSON.parse(line);
  base = `http://127.0.0.1:${port}`;
  refused = `http://127.0.0.1:${r}`;
});
after(() => server.stdin.end());

/** Runs fetchWithBackoff on `url` with a caller's signal that is never aborted. */
async function run(url) {
  const ac = new AbortController();
  const t0 = performance.now();
  const out = await fetchWithBackoff(url, { cache: 'no-store' }, { ...OPTIONS, attemptTimeoutMs: ATTEMPT_MS, signal: ac.signal })
    .then((res) => ({ res }), (err) => ({ err }));
  out.ms = performance.now() - t0;
  out.listeners = getEventListeners(ac.signal, 'abort').length;
  return out;
}

async function openConnections() {
  // Connections close a moment after a loop ends (the server sees a stalled or trickled one closed
  // at its next read or write); its count includes the _stats one. Up to 10 s on a busy machine.
  for (let i = 0; i < 200; i++) {
    const { open } = await (await fetch(`${base}/_stats`, { cache: 'no-store' })).json();
    if (open <= 1) return open;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await (await fetch(`${base}/_stats`)).json()).open;
}

const CASES = [
  ['reset-before-headers', (e) => e instanceof TypeError],
  ['stall', (e) => e?.name === 'TimeoutError'],
  ['trickle-headers', (e) => e?.name === 'TimeoutError'],
  ['refused', (e) => e instanceof TypeError],
  ['storm', (e) => e instanceof Response && [503, 429, 500, 502, 504].includes(e.status)],
];

for (const [fault, last] of CASES) {
  test(`${fault}: ends on the deadline within ${LIMIT_MS} ms, naming the last failure, leaving nothing behind`, async () => {
    const url = fault === 'refused' ? `${refused}/x` : `${base}/${fault}?key=node-${fault}`;
    const { err, ms, listeners } = await run(url);
    assert.ok(err instanceof RetryError, `${fault}: ${err}`);
    assert.equal(err.reason, 'deadline');
    assert.ok(last(err.cause), `${fault}: the last failure was ${err.cause}`);
    assert.ok(ms <= LIMIT_MS, `${fault}: ${ms.toFixed(0)} ms`);
    assert.equal(listeners, 0);
    console.log(`${fault}: gave up after ${err.attempts} attempts in ${ms.toFixed(0)} ms: ${err.message}`);
    assert.equal(await openConnections(), 1);
  });
}

for (const fault of ['reset-after-headers', 'truncated-chunked']) {
  test(`${fault}: the headers arrived, so the attempt answered; its body is cut short, as fetch gives it`, async () => {
    const { res, ms, listeners } = await run(`${base}/${fault}?key=node-${fault}`);
    assert.equal(res.status, 200);
    // The body is what arrived before the cut: reading it rejects (the reset) or ends early (Node's
    // fetch ends a chunked body at the connection's close without an error).
    const body = await res.text().catch(() => null);
    assert.ok(body === null || body.length <= 10, `${fault}: ${body?.length} bytes`);
    assert.ok(ms <= LIMIT_MS);
    assert.equal(listeners, 0);
    assert.equal(await openConnections(), 1);
  });
}
