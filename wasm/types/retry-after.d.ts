// `seeded-backoff/retry-after`: parseRetryAfter alone (the main and date wasm parts). The
// documentation of each export is in index.d.ts.
export { parseRetryAfter, type RetryAfterErrorCode } from './index.js';
