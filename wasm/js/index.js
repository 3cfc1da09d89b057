// The package's API. In Node it is ready on import; in a browser, `await init()` once first
// (retry() and fetchWithBackoff() do that themselves).
export { Backoff } from './backoff.js';
export { RetryBudget } from './budget.js';
export {
  classifyGrpcCode,
  classifyStatus,
  isRetryableStatus,
  parseRetryAfter,
  wasmMemoryBytes,
} from './headers.js';
export { fetchWithBackoff, retry, RetryError } from './retry.js';
export { init, initSync } from './wasm.js';
