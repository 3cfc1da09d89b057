// retry()'s sleeps follow the page's life (SPEC.md §13). A sleep does not end while the page is
// hidden or frozen (whenHidden 'pause') or the device is offline (offline 'wait'); when the page
// comes back, the wait is re-drawn by the core, so that pages that come back together do not retry
// together. Node has no document and no navigator.onLine: there a sleep is only a timer.
import { main } from '../pkg/main-part.js';

// setTimeout's longest timer (a longer one fires at once): longer waits are slept in pieces.
const MAX_TIMER = 2147483647;
const g = globalThis;

// One 'abort' listener per signal, however many loops wait on it: a page with one controller for
// thousands of requests adds one listener, and abort() reaches every loop in one dispatch.
const waiting = new WeakMap();

/** Calls `f` once when `signal` aborts; returns a function that stops waiting. */
export function onAbort(signal, f) {
  let set = waiting.get(signal);
  if (!set) {
    waiting.set(signal, (set = new Set()));
    set.off = () => signal.removeEventListener('abort', set.all);
    set.all = () => {
      waiting.delete(signal);
      set.off();
      for (const h of set) h();
    };
    signal.addEventListener('abort', set.all);
  }
  const h = () => f();
  set.add(h);
  return () => {
    if (set.delete(h) && !set.size && waiting.get(signal) === set) {
      waiting.delete(signal);
      set.off();
    }
  };
}

/**
 * Waits `ms` (Infinity: no end) or for a lifecycle event run `o` listens to; rejects with the
 * signal's reason on abort. Resolves with true when the time is up, else with the event's type.
 */
export function until(ms, o) {
  return new Promise((resolve, reject) => {
    o.signal?.throwIfAborted();
    // What to undo when the wait ends: its timer and its listeners (none where there is no page).
    const offs = [];
    const end = (f, v) => {
      clearTimeout(timer);
      for (const off of offs) off();
      f(v);
    };
    const on = (t, types, f) => {
      if (!t?.addEventListener) return;
      for (const type of types) {
        const h = () => end(resolve, type);
        t.addEventListener(type, h);
        offs.push(() => t.removeEventListener(type, h));
      }
    };
    let timer;
    const piece = (left) => {
      timer = setTimeout(() => (left > MAX_TIMER ? piece(left - MAX_TIMER) : end(resolve, true)), Math.min(left, MAX_TIMER));
    };
    piece(ms);
    if (o.signal) offs.push(onAbort(o.signal, () => end(reject, o.signal.reason)));
    if (o.hide) on(g.document, ['visibilitychange', 'freeze', 'resume']);
    if (o.wait) on(g, ['online', 'offline']);
  });
}

const hidden = (o) => o.hide && (o.frozen || g.document?.visibilityState === 'hidden');

/** Whether the device says it is offline (and run `o` waits for it). */
export const offline = (o) => o.wait && g.navigator?.onLine === false;

// After maxBackoffMs offline, `o.force` lets the next attempt through.
const blocked = (o) => hidden(o) || (offline(o) && !o.force);

/**
 * Sleeps `ms` as the page allows. After a pause, or on `resume` from a freeze, the rest of the
 * wait is re-drawn uniformly in 0..=`windowMs` by the core's startup delay, seeded from the run's
 * seed XOR the run's count of re-draws. Offline and visible, `o.cap` ms (maxBackoffMs) end the
 * pause anyway: navigator.onLine can be wrong. Paused time is added to `o.paused`.
 */
export async function rest(ms, windowMs, o) {
  o.force = 0;
  for (;;) {
    const paused = blocked(o);
    const t = performance.now();
    const r = await until(paused ? (hidden(o) ? Infinity : o.cap) : ms, o);
    if (r === 'freeze' || r === 'resume') o.frozen = r === 'freeze';
    if (paused) {
      o.paused += performance.now() - t;
      o.force = r === true;
    } else if (r === true) return;
    if (!blocked(o)) ms = main.x.startupDelay(o.lo ^ ++o.k, o.hi, windowMs);
  }
}
