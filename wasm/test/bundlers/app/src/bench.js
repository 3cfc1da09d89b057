// seeded-backoff under CPU throttling: the time from retry() (with a policy option) to its first attempt, the one-time cost
// of the first synchronous call (a Backoff made and stepped once), 1000 Backoff.nextDelay() calls, and the
// cost of a retry step (20 failures, 1 ms delays). bench-p-retry.js is the same page for p-retry.
import { Backoff, retry } from 'seeded-backoff';

async function main() {
  let t1;
  const t0 = performance.now();
  // A policy option on the page's first call: checked without waiting for the engine.
  const res = await retry(() => { t1 ??= performance.now(); return fetch('/api'); }, { maxRetries: 3 });
  const firstMs = t1 - t0;
  const c0 = performance.now();
  const b = new Backoff({ maxRetries: 4294967295 });
  b.nextDelay();
  const readyMs = performance.now() - c0;
  const d0 = performance.now();
  let sum = 0;
  for (let i = 0; i < 1000; i++) sum += b.nextDelay() ?? 0;
  const delayUs = performance.now() - d0; // ms for 1000 calls = µs per call
  let n = 0;
  const s0 = performance.now();
  await retry(() => { if (n++ < 20) throw new Error('x'); return 1; },
    { initialMs: 1, maxBackoffMs: 1, jitter: 'none', maxRetries: 30 });
  const stepMs = (performance.now() - s0) / 20;
  return { status: res.status, firstMs, readyMs, delayUs, stepMs, sum };
}
main().then((r) => { globalThis.result = r; }, (e) => { globalThis.result = { error: String(e) }; });
