// The wasm-side id of each live RetryBudget. Apart from the class, so that code that only passes
// budgets along (a step, retry()) does not pull the class into a bundle.
export const budgetIds = new WeakMap();

/** The id of a live RetryBudget; throws for anything else. */
export function budgetId(budget) {
  const id = budgetIds.get(budget);
  if (id === undefined) {
    throw new TypeError('budget must be a RetryBudget that was not freed');
  }
  return id;
}
