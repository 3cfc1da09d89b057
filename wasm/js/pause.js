// The page's life, for retry()'s sleeps (SPEC.md §13): whether the run must pause (the page hidden
// or frozen with whenHidden 'pause', the device offline with offline 'wait'), and a sleep that
// ends early on the events that change it. The run decides what a pause does to the wait (the
// core re-draws it when the page comes back); this module only watches. Node has no document and
// no navigator.onLine: there a sleep is only a timer.
import { PAUSE_HIDDEN, PAUSE_OFFLINE } from '../pkg/tables.js';

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
 * What a run watches: `hide` (pause while hidden or frozen), `wait` (pause while offline), and
 * `force`, set after an offline pause outlasted its limit (navigator.onLine can be wrong), so that
 * the next attempt goes out anyway.
 */
export const watch = (hide, wait) => ({ hide, wait, frozen: false, force: false });

const hidden = (l) => l.hide && (l.frozen || g.document?.visibilityState === 'hidden');

/** Whether the device says it is offline (and the run waits for it). */
export const offline = (l) => l.wait && g.navigator?.onLine === false;

/** The reason the run must pause now (PAUSE_HIDDEN, PAUSE_OFFLINE), or -1. */
export const blocked = (l) => (hidden(l) ? PAUSE_HIDDEN : offline(l) && !l.force ? PAUSE_OFFLINE : -1);

/**
 * Waits `ms` (Infinity: no end) or for a lifecycle event `l` listens to; rejects with the signal's
 * reason on abort. Resolves with true when the time is up, else with the event's type.
 */
export function until(ms, l, signal) {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    // What to undo when the wait ends: its timer and its listeners (none where there is no page).
    const offs = [];
    const end = (f, v) => {
      clearTimeout(timer);
      for (const off of offs) off();
      if (v === 'freeze' || v === 'resume') l.frozen = v === 'freeze';
      f(v);
    };
    const on = (t, types) => {
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
    if (signal) offs.push(onAbort(signal, () => end(reject, signal.reason)));
    if (l.hide) on(g.document, ['visibilitychange', 'freeze', 'resume']);
    if (l.wait) on(g, ['online', 'offline']);
  });
}
