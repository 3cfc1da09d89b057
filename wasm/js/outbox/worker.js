// The outbox in a service worker, so that requests are delivered with every page closed. The
// worker takes part in the election like a tab: it drives when no page does. Background Sync,
// where the browser has it, wakes the worker for pending requests (each send() registers a sync);
// a send() from a page also wakes it with a message. While the worker runs, its own timers keep
// the schedule; the event's waitUntil keeps it running until nothing is pending, up to
// MAX_EVENT_MS (browsers end longer events), after which a new sync is registered.
import { Outbox } from './outbox.js';

const MAX_EVENT_MS = 4 * 60 * 1000;

/** Runs an Outbox with `options` in this service worker; call it at the top level of the script. */
export function serveOutbox(options = {}) {
  const scope = globalThis;
  if (typeof scope.registration !== 'object' || typeof scope.skipWaiting !== 'function') {
    throw new TypeError('serveOutbox: expected to run in a service worker');
  }
  const box = new Outbox({ ...options, drive: true });
  const tag = `seeded-backoff-outbox:${box.name}`;
  const keep = (e) => e.waitUntil(box.idle(MAX_EVENT_MS)
    .then((empty) => empty || scope.registration.sync?.register(tag))
    .catch(() => {}));
  scope.addEventListener('sync', (e) => {
    if (e.tag === tag) keep(e);
  });
  scope.addEventListener('message', (e) => {
    if (e.data?.seededBackoffOutbox === box.name) keep(e);
  });
  return box;
}
