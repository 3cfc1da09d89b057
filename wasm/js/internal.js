// Keys shared between the package's modules, so that one can use another's objects without
// importing (and bundling) its class. Registered symbols, so that objects of the ESM and the
// CommonJS build of the package (both loaded in one Node process) work with each other.
/** `backoff[STATE]()`: its 8 state words, out of the main part; `backoff[STATE](words)` sets them. */
export const STATE = Symbol.for('seeded-backoff.state');
/** `budget[STEP](u32, …)`: the budget part's step, on words the caller wrote. */
export const STEP = Symbol.for('seeded-backoff.step');
/** `policy[WORDS]`: a Policy's option words, as the core accepted them. */
export const WORDS = Symbol.for('seeded-backoff.words');
/** `budget[TOKENS]`: a RetryBudget's tokens in thousandths, read and set (a budget shared by tabs). */
export const TOKENS = Symbol.for('seeded-backoff.tokens');
