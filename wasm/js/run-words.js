// A run's words and its events on the engine (SPEC.md §15): what `Run` and retry() share.
import { ACTION_AT, RUN_AT, RUN_BUDGET, RUN_ERRORS, RUN_PACED, RUN_WORDS } from '../pkg/tables.js';
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
 * are then unchanged). `now` is a monotonic ms reading, or -1 for none. With `pace` (a send
 * rate's `pace` function, send-rate.js), start, wake and outcome are the core's paced events, and
 * `told`/`toldArg` the answer an outcome tells the send rate (a TOLD_* code, 0 for the outcome's own).
 */
export function event(m, pw, rw, budget, e, kind, hintKind, hintMs, timeout, now, pace = null, told = 0, toldArg = 0) {
  m.owner = null;
  m.u32.set(pw);
  m.u32.set(rw, RUN_AT);
  const flags = (budget ? RUN_BUDGET : 0) | (pace ? RUN_PACED : 0);
  const r = asking(budget, () => m.x.runEvent(e, kind, hintKind, hintMs, timeout, now >= 0, now % 4294967296, Math.floor(now / 4294967296), flags, told, toldArg), pace);
  if (r) throw coded(Error, RUN_ERRORS[r - 1] ?? ['bad_state', 'run words the engine did not make']);
  rw.set(m.u32.subarray(RUN_AT, RUN_AT + RUN_WORDS));
  return m.u32.slice(ACTION_AT, ACTION_AT + 4);
}


registry.run = { event, runWords };
