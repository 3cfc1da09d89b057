// `seeded-backoff/retry-after`: the header parsers and status classes alone (the main and date
// engine parts). The documentation of each export is in index.d.ts.
export {
  classifyGrpc,
  classifyHttp,
  isRetryableHttp,
  parseRateLimit,
  parseRetryAfter,
  type RateLimitErrorCode,
  type RateLimitHeaderName,
  type RetryAfterErrorCode,
} from './index.js';
