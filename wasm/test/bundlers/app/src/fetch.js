// fetchWithBackoff(), as a user writes it (see retry.js for t0 and result).
import { fetchWithBackoff } from 'seeded-backoff';

globalThis.t0 = performance.now();
fetchWithBackoff('/api').then(
  async (r) => { globalThis.result = { status: r.status, body: await r.text() }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
