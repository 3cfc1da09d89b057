// Each Policy's option words, by Policy: set by its constructor. A module of its own so that
// retry() can take a Policy without bringing in the engine, which it loads while its first
// attempt is in flight.
export const policyWords = new WeakMap();

/** Whether `v` is a Policy of this package. */
export const isPolicy = (v) => policyWords.has(v);
