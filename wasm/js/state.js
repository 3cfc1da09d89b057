// A schedule's state as a plain record { policy, w }: `w` holds its 8 state words while another
// state is in the main part's slot, and is undefined while this one is (the common case: one
// schedule stepped until it ends, with nothing copied). Backoff wraps a record; retry() uses one
// directly, so that its bundle carries no class.
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { HINT_NONE } from '../pkg/tables.js';
import { STEP } from './internal.js';
import { activate, main } from './policy.js';

// The record whose state is in the main part's slot.
let resident;

/** A fresh state under `policy`, seeded from `hi:lo`, made the active one. */
export function start(policy, lo, hi) {
  const rec = { policy };
  enter(rec, true);
  glue.backoffInit(lo, hi);
  return rec;
}

/** Makes `rec`'s policy and state the main part's active ones. */
export function enter(rec, fresh) {
  activate(rec.policy);
  if (resident === rec) return;
  const u = main.u32;
  if (resident) {
    glue.backoffSave();
    resident.w = u.slice(12, 20);
  }
  resident = rec;
  if (!fresh) {
    u.set(rec.w, 12);
    glue.backoffLoad();
  }
  rec.w = undefined;
}

/** `rec`'s 8 state words, taken out of the slot (for the snapshot and budget parts). */
export function words(rec) {
  if (resident === rec) {
    glue.backoffSave();
    rec.w = main.u32.slice(12, 20);
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
  glue.backoffSave();
  return main.u32[12 + i];
}

/**
 * One step (SPEC.md §5): `kind` 0 no hint, 1 Retry-After `hintMs`, 2 do not retry; the caller's
 * elapsed ms as `hi:lo` if `hasElapsed`; a budget (with `timeout`, the failure's kind) or none.
 * Answers the delay, or minus the give-up code.
 */
export function step(rec, kind, hintMs, hasElapsed, lo, hi, budget, timeout) {
  if (budget) {
    const w = words(rec);
    return budget[STEP](rec.policy, w, kind, hintMs, hasElapsed, lo, hi, timeout);
  }
  enter(rec);
  return glue.backoffStep(kind, hintMs, hasElapsed, lo, hi);
}

/** The plain step: the hot path of `nextDelay()`. */
export function next(rec) {
  if (resident === rec) activate(rec.policy);
  else enter(rec);
  return glue.backoffStep(HINT_NONE, 0, false, 0, 0);
}
