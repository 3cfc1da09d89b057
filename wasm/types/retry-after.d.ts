// `seeded-backoff/retry-after`: parseRetryAfter and parseRateLimit alone (the main and date wasm
// parts). The documentation of each export is in index.d.ts.
export {
  parseRateLimit,
  parseRetryAfter,
  type RateLimitErrorCode,
  type RateLimitHeaderName,
  type RetryAfterErrorCode,
} from './index.js';
