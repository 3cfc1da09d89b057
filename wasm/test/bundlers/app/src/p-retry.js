// The control: p-retry in the same page setup as retry.js (no engine, nothing to wait for).
import pRetry from 'p-retry';

globalThis.t0 = performance.now();
pRetry(() => fetch('/api')).then(
  async (r) => { globalThis.result = { status: r.status, body: await r.text() }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
