// A run's words and its events on the engine (SPEC.md §15): what `Run` and retry() share.
import { ACTION_AT, RUN_AT, RUN_ERRORS, RUN_WORDS } from '../pkg/tables.js';
import { coded } from './check.js';
import { registry } from './engine.js';
import { asking } from './gate.js';

/** A new run's words under the option words `pw`, seeded from `lo:hi` (part `m`, loaded). */
export function runWords(m, pw, lo, hi, countPaused) {
  m.owner = null;
  m.u32.set(pw);
  m.x.runNew(lo, hi, countPaused);
  return m.u32.slice(RUN_AT, RUN_AT + RUN_WORDS);
}

/**
 * One event on the run words `rw` under option words `pw`, in part `m`: the action as its 4 words
 * (kind, attempt, delay ms, give-up code or pause limit), or throws the core's refusal (the words
 * are then unchanged). `now` is a monotonic ms reading, or -1 for none.
 */
export function event(m, pw, rw, budget, e, kind, hintKind, hintMs, timeout, now) {
  m.owner = null;
  m.u32.set(pw);
  m.u32.set(rw, RUN_AT);
  const r = asking(budget, () => m.x.runEvent(e, kind, hintKind, hintMs, timeout, now >= 0, now % 4294967296, Math.floor(now / 4294967296), !!budget));
  if (r) throw coded(Error, RUN_ERRORS[r - 1] ?? ['bad_state', 'run words the engine did not make']);
  rw.set(m.u32.subarray(RUN_AT, RUN_AT + RUN_WORDS));
  return m.u32.slice(ACTION_AT, ACTION_AT + 4);
}


registry.run = { event, runWords };
