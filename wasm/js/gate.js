// The budget the engine asks during one step or run event (wasm/src/gate.rs): any object with a
// RetryBudget's three methods, set for the length of that one synchronous call. The engine imports
// `gate` (the JS build of the engine imports it from this module).
const KINDS = ['error', 'timeout'];
let current = null;
/** Whether the engine is asking a budget now: its methods may not step a schedule meanwhile. */
export let inside = false;

export function gate(op, kind) {
  if (op === 1) return current.tryAcquire(KINDS[kind]) ? 1 : 0;
  if (op === 0) current.recordFailure(KINDS[kind]);
  else current.recordSuccess(kind ? KINDS[kind - 1] : undefined);
  return 0;
}

/** `f()` with `budget` (or none) as the budget the engine asks. */
export function asking(budget, f) {
  if (inside) throw new Error("seeded-backoff: a budget's methods may not step a schedule or a run while the engine asks them");
  current = budget;
  inside = true;
  try {
    return f();
  } finally {
    current = null;
    inside = false;
  }
}

/** What a shared part (seeded-backoff/shared) answers `true` under: its methods answer promises. */
export const SHARED = /* @__PURE__ */ Symbol.for('seeded-backoff shared part');

/** Whether `v` is a shared part: only retry() and fetchWithBackoff() take one as their budget. */
export const isShared = (v) => v?.[SHARED] === true;

/** Whether `v` can serve as a budget the engine asks: a RetryBudget, or an object with its (synchronous) methods. */
export const isBudget = (v) => !isShared(v) && ['tryAcquire', 'recordFailure', 'recordSuccess'].every((m) => typeof v?.[m] === 'function');
