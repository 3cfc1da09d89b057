// `seeded-backoff/snapshot`: a Backoff's or a Run's state as bytes, and back (the snapshot wasm
// part): to keep a schedule across a reload or a reboot.
import type { Backoff, BudgetLike, Policy, PolicyOptions, Run } from './index.js';
import type { SendRate } from './send-rate.js';

/** Why `restore()` refused bytes: the `code` of its RangeError. */
export type SnapshotErrorCode =
  | 'wrong_length'
  | 'unknown_version'
  | 'bad_checksum'
  | 'policy_mismatch'
  | 'zero_rng_state'
  | 'invalid_state';

/** A Backoff snapshot's size in bytes (SPEC.md §9): 40. */
export const SNAPSHOT_SIZE: number;
/** A Run snapshot's size in bytes (SPEC.md §15): 100. */
export const RUN_SNAPSHOT_SIZE: number;

/**
 * The 40-byte snapshot of a Backoff's state (SPEC.md §9), e.g. for sessionStorage across a reload.
 * Uses the snapshot part of the engine (its own module, in the program only where it is imported).
 *
 * @example
 * ```
 * import { snapshot } from 'seeded-backoff/snapshot';
 *
 * sessionStorage.setItem('backoff', btoa(String.fromCharCode(...snapshot(backoff))));
 * ```
 */
export function snapshot(backoff: Backoff): Uint8Array;
/**
 * The 100-byte snapshot of a Run (SPEC.md §15): the whole retry run (attempt, clock, pauses,
 * re-draws, the refund kind), e.g. for IndexedDB so that the next page load continues it.
 */
export function snapshot(run: Run): Uint8Array;

/**
 * A Run rebuilt from `snapshot(run)` bytes, under the Policy it was taken with; `options.budget`
 * as for `new Run`. It answers every later event as the snapshotted run would have.
 *
 * @throws RangeError with `code` (a {@link SnapshotErrorCode}); TypeError if `policy` is not a
 * Policy or `bytes` not a Uint8Array.
 *
 * @example
 * ```
 * import { restoreRun, snapshot } from 'seeded-backoff/snapshot';
 *
 * const saved = snapshot(run); // in the middle of a retry's sleep
 * const again = restoreRun(policy, saved);
 * again.wake(Date.now()); // { type: 'attempt', attempt: 2 }
 * ```
 */
export function restoreRun(policy: Policy, bytes: Uint8Array, options?: { budget?: BudgetLike; sendRate?: SendRate }): Run;

/**
 * A Backoff rebuilt from `snapshot()` bytes, under the policy it was taken with (a Policy, or the
 * same options). It continues the schedule where the snapshot left it.
 *
 * @throws RangeError with `code` (a {@link SnapshotErrorCode}), e.g. `'policy_mismatch'`; also for
 * bytes over 256 long (`bytes must be at most 256 bytes, got 300`). TypeError if `bytes` is not a
 * Uint8Array.
 *
 * @example
 * ```
 * import { restore } from 'seeded-backoff/snapshot';
 *
 * const bytes = Uint8Array.from(atob(sessionStorage.getItem('backoff')), (c) => c.charCodeAt(0));
 * const backoff = restore(policy, bytes);
 * ```
 */
export function restore(policy: Policy | PolicyOptions, bytes: Uint8Array): Backoff;
