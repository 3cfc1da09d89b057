// bench.js's page for p-retry (which exports no delay function: its delay is computed inside a
// retry step, measured the same way: 20 failures, 1 ms delays).
import pRetry from 'p-retry';

async function main() {
  let t1;
  const t0 = performance.now();
  const res = await pRetry(() => { t1 ??= performance.now(); return fetch('/api'); });
  const firstMs = t1 - t0;
  let n = 0;
  const s0 = performance.now();
  await pRetry(() => { if (n++ < 20) throw new Error('x'); return 1; },
    { retries: 30, minTimeout: 1, maxTimeout: 1, factor: 1 });
  const stepMs = (performance.now() - s0) / 20;
  return { status: res.status, firstMs, stepMs };
}
main().then((r) => { globalThis.result = r; }, (e) => { globalThis.result = { error: String(e) }; });
