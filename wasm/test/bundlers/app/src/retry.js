// The README's example, as a user writes it. `t0` marks the call, for the test to compare with the
// Resource Timing entry of /api; `result` is what the page ends with.
import { retry } from 'seeded-backoff';

globalThis.t0 = performance.now();
retry(() => fetch('/api')).then(
  async (r) => { globalThis.result = { status: r.status, body: await r.text() }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
