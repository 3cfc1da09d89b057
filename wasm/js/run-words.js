// A run's words and its events on the engine (SPEC.md §15): what `Run` and retry() share.
import { ACTION_AT, FLEET_WINDOW_ERROR, RUN_AT, RUN_ERRORS, RUN_WINDOW_REFUSED, RUN_WORDS, TOLD_HTTP } from '../pkg/tables.js';
import { coded, fail, failRule } from './check.js';
import { registry, release } from './engine.js';
import { asking } from './gate.js';
import { brandOf } from './brand.js';
import { isResponse } from './driver.js';

/**
 * A new run's words under the option words `pw`, seeded from `lo:hi`, with the startup window
 * `windowMs` (SPEC.md §15.3; 0 for none) (part `m`, loaded). A window the core refuses is its
 * RangeError, named `startupWindowMs`.
 */
export function runWords(m, pw, lo, hi, countPaused, windowMs = 0) {
  release(m);
  m.u32.set(pw);
  // An i32 to JS: the u32 read back as one.
  if (m.x.runNew(lo, hi, countPaused, windowMs) >>> 0 === RUN_WINDOW_REFUSED) {
    failRule(RangeError, FLEET_WINDOW_ERROR.replace('windowMs', 'startupWindowMs'), windowMs);
  }
  return m.u32.slice(RUN_AT, RUN_AT + RUN_WORDS);
}

/**
 * One event on the run words `rw` under option words `pw`, in part `m`: the action as its 4 words
 * (kind, attempt, delay ms, give-up code or pause limit), or throws the core's refusal (the words
 * are then unchanged). `now` is a monotonic ms reading (a number, or a bigint up to 2^64 − 1), or
 * -1 for none. With a `sendRate` (any
 * other value than a SendRate is a TypeError), the event is the send-rate part's, paced by it
 * (SPEC.md §15.2): `told`/
 * `toldArg` are the answer an outcome tells it (a TOLD_* code, 0 for the outcome's own), or `told`
 * is the attempt's value: a Response's status, else the outcome's own.
 */
export function event(m, pw, rw, budget, e, kind, hintKind, hintMs, timeout, now, sendRate, told = 0, toldArg = 0) {
  const pace = paceOf(sendRate);
  if (typeof told !== 'number') [told, toldArg] = isResponse(told) ? [TOLD_HTTP, told.status] : [0, 0];
  // A number reading or a bigint one (up to 2^64 − 1), as u32 halves.
  const [lo, hi] = typeof now === 'bigint' ? [Number(now & 0xffffffffn), Number(now >> 32n)] : [now % 4294967296, Math.floor(now / 4294967296)];
  const args = [e, kind, hintKind, hintMs, timeout, typeof now === 'bigint' || now >= 0, lo, hi, !!budget];
  // `ask`: the gate of the copy of the package whose part `p` is (a SendRate's may be another's).
  const on = (p, f, ask = asking) => {
    release(p);
    p.u32.set(pw);
    p.u32.set(rw, RUN_AT);
    const r = ask(budget, f);
    if (r) throw coded(Error, RUN_ERRORS[r - 1] ?? ['bad_state', 'run words the engine did not make']);
    rw.set(p.u32.subarray(RUN_AT, RUN_AT + RUN_WORDS));
    return p.u32.slice(ACTION_AT, ACTION_AT + 4);
  };
  return pace ? pace((p, ask) => on(p, () => p.x.runEventPaced(...args, told, toldArg), ask)) : on(m, () => m.x.runEvent(...args));
}

/**
 * How a run is paced by a SendRate (registered by send-rate.js, or read from one of another copy
 * of the package: brand.js): null for none, a TypeError naming `sendRate` for any other value.
 */
export const paceOf = (v) => (v === undefined ? null
  : registry.pace?.(v) ?? brandOf(v, 'SendRate', 'sendRate')?.pace ?? fail(TypeError, 'sendRate', 'a SendRate', v));
