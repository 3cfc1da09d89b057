// `seeded-backoff/retry`: retry(), fetchWithBackoff() and RetryError alone (for a page without a
// bundler, the smallest module to import). The documentation of each export is in index.d.ts.
export { fetchWithBackoff, retry, RetryError, type Attempt, type FetchOptions, type RetryOptions } from './index.js';
