// retry() in a Service Worker: on a message from the page, the example runs and its result is posted
// back with the worker's own timings.
import { retry } from 'seeded-backoff';
// A module service worker cannot import() at run time: the HTTP-date parser comes in statically,
// as the README says.
import 'seeded-backoff/retry-after';

// The waits retry() chose, for the test to see that a Retry-After HTTP-date was honoured.
const delays = [];
const onRetry = ({ delayMs }) => delays.push(delayMs);

// /api's Resource Timing entries, once the first one is there (it is added after its response ends).
const api = async () => {
  for (let i = 0; i < 100; i++) {
    const e = performance.getEntriesByType('resource').filter((x) => new URL(x.name).pathname === '/api');
    if (e.length) return e.map((x) => ({ fetchStart: x.fetchStart, requestStart: x.requestStart }));
    await new Promise((r) => setTimeout(r, 10));
  }
  return [];
};
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('message', (e) => {
  const t0 = performance.now();
  e.waitUntil(retry(() => fetch('/api'), { onRetry }).then(
    async (r) => ({ status: r.status, body: await r.text(), delays }),
    (err) => ({ error: String(err) }),
  ).then(async (result) => e.source.postMessage({ t0, api: await api(), result })));
});
