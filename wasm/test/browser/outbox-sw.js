// The outbox test's service worker (a module worker): the outbox named 'sw', with the test
// page's schedule. Each sync event is logged to the server, to report whether Background Sync
// woke it.
import { serveOutbox } from '/dist/outbox/index.js';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('sync', (e) => {
  fetch(`/ob/swlog?sync=${encodeURIComponent(e.tag)}`).catch(() => {});
});
serveOutbox({
  name: 'sw',
  policy: { initialMs: 1000, multiplier: 2, maxBackoffMs: 16000, jitter: 'google', jitterMs: 1000, maxRetries: 10, maxElapsedMs: 0 },
});
