// One step of the core's state machine with the optional inputs of SPEC.md §5, checked first.
import { bool, int, keys, oneOf, u64, U32_MAX } from './check.js';
import { budgetId } from './budget-id.js';

const INPUT_KEYS = ['retryAfterMs', 'doNotRetry', 'elapsedMs', 'budget', 'failureKind'];

/** The core's answer for `input`: a delay in ms, or minus the give-up code. */
export function step(state, input) {
  keys('nextDelay input', input, INPUT_KEYS);
  const { retryAfterMs: h, doNotRetry, elapsedMs, budget, failureKind } = input;
  if (h !== undefined) int('retryAfterMs', h, 0, U32_MAX);
  if (doNotRetry !== undefined && bool('doNotRetry', doNotRetry) && h !== undefined) {
    throw new TypeError('give either retryAfterMs or doNotRetry, not both');
  }
  const [lo, hi] = elapsedMs === undefined ? [0, 0] : u64('elapsedMs', elapsedMs);
  const timeout = failureKind !== undefined && oneOf('failureKind', failureKind, ['error', 'timeout']) === 1;
  const id = budget === undefined ? 0 : budgetId(budget);
  return state.step(doNotRetry ? 2 : h === undefined ? 0 : 1, h ?? 0, elapsedMs !== undefined, lo, hi, id, timeout);
}
