// retry.js on a page whose Content-Security-Policy refuses WebAssembly: the README's one line
// first, then the same call.
import 'seeded-backoff/csp';
import { retry } from 'seeded-backoff';

globalThis.t0 = performance.now();
retry(() => fetch('/api')).then(
  async (r) => { globalThis.result = { status: r.status, body: await r.text() }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
