// Snapshots: a Backoff as 40 bytes (SPEC.md §9), a Run as 100 (§15), for storage across a reload
// or a deep sleep, and back. The snapshot part is its own wasm file, loaded only by programs that import this.
import { snapshot as part } from '../pkg/snapshot-part.js';
import { RUN_AT, RUN_SNAPSHOT_SIZE, RUN_WORDS, SNAPSHOT_ERRORS, SNAPSHOT_SIZE, STATE_AT } from '../pkg/tables.js';
import { brandOf } from './brand.js';
import { coded, fail, put } from './check.js';
import { Backoff, setState } from './backoff.js';
import { isPolicy, Policy, wordsOf } from './policy.js';
import { get } from './engine.js';
import { Run, setRunState } from './run.js';

function check(e) {
  if (e) throw coded(RangeError, SNAPSHOT_ERRORS[e - 1]);
}

/** The 40-byte snapshot of `backoff`, or the 100-byte snapshot of a Run (of either module format: brand.js). */
export function snapshot(backoff) {
  const { u32, u8, x } = get(part);
  const run = brandOf(backoff, 'Run', 'backoff');
  if (run) {
    const [pw, rw] = run.state();
    u32.set(pw, 0);
    u32.set(rw, RUN_AT);
    check(x.runSnapshotTake());
    return u8.slice(0, 100);
  }
  const b = brandOf(backoff, 'Backoff', 'backoff');
  if (!b) fail(TypeError, 'backoff', 'a Backoff or a Run', backoff);
  const [pw, s] = b.state();
  u32.set(pw, 0);
  u32.set(s, STATE_AT);
  check(x.snapshotTake());
  return u8.slice(0, 40);
}

/** A Backoff restored from `bytes` (from `snapshot()`), under the policy it was taken with. */
export function restore(policy, bytes) {
  if (!isPolicy(policy)) policy = new Policy(policy);
  if (!(bytes instanceof Uint8Array)) fail(TypeError, 'bytes', 'a Uint8Array (from snapshot())', bytes);
  const { u32, u8, x } = get(part);
  u32.set(wordsOf(policy), 0);
  const len = put('bytes', bytes, u8.subarray(0, 256));
  check(x.snapshotRestore(len));
  const b = new Backoff(policy, 0);
  setState(b, u32.slice(STATE_AT, STATE_AT + 8));
  return b;
}

/**
 * A Run restored from `bytes` (from `snapshot(run)`), under the policy it was taken with;
 * `options.budget` and `options.sendRate` as for `new Run`. It answers every later event as the snapshotted run would.
 */
export function restoreRun(policy, bytes, options = {}) {
  if (!isPolicy(policy)) fail(TypeError, 'policy', 'a Policy', policy);
  if (!(bytes instanceof Uint8Array)) fail(TypeError, 'bytes', 'a Uint8Array (from snapshot(run))', bytes);
  // The options are checked by the constructor before the engine is asked.
  const run = new Run(policy, { ...options, seed: 1n });
  const { u32, u8, x } = get(part);
  u32.set(wordsOf(policy), 0);
  const len = put('bytes', bytes, u8.subarray(0, 256));
  check(x.runSnapshotRestore(len));
  setRunState(run, u32.slice(RUN_AT, RUN_AT + RUN_WORDS));
  return run;
}

/** A snapshot's size in bytes (SPEC.md §9), and a run snapshot's (§15): the core's. */
export { RUN_SNAPSHOT_SIZE, SNAPSHOT_SIZE };
