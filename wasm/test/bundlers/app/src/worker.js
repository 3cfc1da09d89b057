// retry() in a Web Worker: the example, answered to the page with the worker's own timings.
import { retry } from 'seeded-backoff';

// The waits retry() chose, for the test to see that a Retry-After HTTP-date was honoured.
const delays = [];
const onRetry = ({ delayMs }) => delays.push(delayMs);

const t0 = performance.now();
// /api's Resource Timing entries, once the first one is there (it is added after its response ends).
const api = async () => {
  for (let i = 0; i < 100; i++) {
    const e = performance.getEntriesByType('resource').filter((x) => new URL(x.name).pathname === '/api');
    if (e.length) return e.map((x) => ({ fetchStart: x.fetchStart, requestStart: x.requestStart }));
    await new Promise((r) => setTimeout(r, 10));
  }
  return [];
};
retry(() => fetch('/api'), { onRetry }).then(
  async (r) => {
    const result = { status: r.status, body: await r.text(), delays };
    postMessage({ t0, api: await api(), result });
  },
  async (e) => postMessage({ t0, api: await api(), result: { error: String(e) } }),
);
