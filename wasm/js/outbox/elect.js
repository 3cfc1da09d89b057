// One driver per origin. Web Locks where the browser has them: the lock is the driver's for as
// long as its context lives, and the browser gives it to the next waiting tab or worker when that
// context closes or crashes. Elsewhere a lease in IndexedDB (taken and renewed in one readwrite
// transaction, which IndexedDB serializes across the origin): a driver whose lease has run out
// (a tab whose timers the browser throttled) stops before its next attempt.
const LEASE_MS = 5000;
const RENEW_MS = 1000;

const sleep = (ms, signal) => new Promise((resolve) => {
  const t = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
});

/**
 * Calls `run(signal, still)` whenever this context becomes the driver; `run` drives until
 * `signal` aborts. `still()` resolves with whether this context may still drive.
 */
export function elect(name, me, store, signal, run) {
  const locks = globalThis.navigator?.locks;
  const lease = async () => {
    const renew = () => store.lease(me, LEASE_MS).catch(() => false);
    while (!signal.aborted) {
      if (await renew()) {
        const lost = new AbortController();
        const timer = setInterval(() => renew().then((ok) => ok || lost.abort()), RENEW_MS);
        await run(AbortSignal.any([signal, lost.signal]), renew);
        clearInterval(timer);
      }
      await sleep(RENEW_MS, signal);
    }
    await store.release(me).catch(() => {});
  };
  if (typeof locks?.request !== 'function') return lease();
  return locks.request(`seeded-backoff-outbox:${name}`, { signal }, () => run(signal, async () => true))
    // Refused (an opaque origin): the lease. Aborted before it was granted: nothing to do.
    .catch((e) => (e?.name === 'AbortError' ? undefined : lease()));
}
