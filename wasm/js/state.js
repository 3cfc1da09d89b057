// A schedule's state as a plain record { policy, w }: `w` holds its 8 state words while another
// state is in the main part's slot, and is undefined while this one is (the common case: one
// schedule stepped until it ends, with nothing copied). Backoff wraps a record; retry() uses one
// directly, so that its bundle carries no class.
import { main } from '../pkg/main-part.js';
import { HINT_NONE, STATE_AT } from '../pkg/tables.js';
import { STEP } from './internal.js';
import { activate } from './policy.js';

// The record whose state is in the main part's slot.
let resident;

/** A fresh state under `policy`, seeded from `hi:lo`, made the active one. */
export function start(policy, lo, hi) {
  const rec = { policy };
  enter(rec, true).backoffInit(lo, hi);
  return rec;
}

/** Makes `rec`'s policy and state the main part's active ones; returns the main part's exports. */
export function enter(rec, fresh) {
  const x = activate(rec.policy);
  if (resident !== rec) {
    const u = main.u32;
    if (resident) {
      x.backoffSave();
      resident.w = u.slice(STATE_AT, STATE_AT + 8);
    }
    resident = rec;
    if (!fresh) {
      u.set(rec.w, STATE_AT);
      x.backoffLoad();
    }
    rec.w = undefined;
  }
  return x;
}

/** `rec`'s 8 state words, taken out of the slot (for the snapshot and budget parts). */
export function words(rec) {
  if (resident === rec) {
    main.x.backoffSave();
    rec.w = main.u32.slice(STATE_AT, STATE_AT + 8);
    resident = undefined;
  }
  return rec.w;
}

/** Gives `rec` the state `w` (from a restore or a budget step). */
export function adopt(rec, w) {
  if (resident === rec) resident = undefined;
  rec.w = w;
}

/** The state's word `i` (4 retries, 5 level, 6 elapsed ms, 7 give-up code), leaving the state in place. */
export function word(rec, i) {
  if (resident !== rec) return rec.w[i];
  main.x.backoffSave();
  return main.u32[STATE_AT + i];
}

/**
 * One step (SPEC.md §5): `kind` 0 no hint, 1 Retry-After `hintMs`, 2 do not retry, 3 rate limit;
 * the caller's elapsed ms as `hi:lo` if `hasElapsed`; a budget (with `timeout`, the failure's
 * kind) or none. Answers the delay, or minus the give-up code.
 */
export function step(rec, kind, hintMs, hasElapsed, lo, hi, budget, timeout) {
  if (budget) return budget[STEP](rec.policy, words(rec), kind, hintMs, hasElapsed, lo, hi, timeout);
  return enter(rec).backoffStep(kind, hintMs, hasElapsed, lo, hi);
}

/** The plain step: the hot path of `nextDelay()`. */
export const next = (rec) => step(rec, HINT_NONE, 0, false, 0, 0);
