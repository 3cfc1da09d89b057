// The package's API. In Node it is ready on import; in a browser, `await init()` once first
// (retry() and fetchWithBackoff() do that themselves). Each export pulls in only its own modules
// and wasm parts: see package.json "exports" for the same parts as separate entry points.
export { Backoff } from './backoff.js';
export { RetryBudget } from './budget.js';
export {
  classifyGrpcCode, classifyStatus, isRetryableStatus, parseRateLimit, parseRetryAfter, RATE_LIMIT_HEADERS,
  rateLimitApplies,
} from './headers.js';
export { Policy } from './policy.js';
export { fetchWithBackoff, retry, RetryError } from './retry.js';
export { restore, snapshot } from './snapshot.js';
export { init, initSync } from './wasm.js';
export { seedFromDevice, startupDelay } from './fleet.js';
