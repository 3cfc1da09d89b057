// Keys shared between the package's modules, so that one can use another's objects without
// importing (and bundling) its class.
/** `backoff[STATE]()`: its 8 state words, out of the main part; `backoff[STATE](words)` sets them. */
export const STATE = Symbol('state');
/** `budget[STEP](u32, …)`: the budget part's step, on words the caller wrote. */
export const STEP = Symbol('step');
