// `seeded-backoff/retry`: retry(), fetchWithBackoff() and RetryError alone (for a page without a
// bundler, the smallest module to import); their documentation is in index.d.ts.
export { fetchWithBackoff, retry, RetryError, type Attempt, type FetchOptions, type RetryOptions } from './index.js';

/** The methods `fetchWithBackoff()` retries by default: RFC 9110 §9.2.2's idempotent methods. */
export const IDEMPOTENT_METHODS: readonly ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'];
