// The package's API: ready on import, in Node, browsers and workers alike; nothing to initialise.
// Each export pulls in only its own modules and engine parts (see package.json "exports" for the
// same parts as separate entry points, for pages without a bundler).
export { Backoff } from './backoff.js';
export { RetryBudget } from './budget.js';
export { nowMs } from './clock.js';
export { classifyGrpc, classifyHttp, isRetryableHttp, RATE_LIMIT_HEADERS, rateLimitApplies } from './classify.js';
export { parseRateLimit, parseRetryAfter } from './retry-after.js';
export { hintFromHeaders } from './hint.js';
export { callSeed, Policy } from './policy.js';
export { fetchWithBackoff, IDEMPOTENT_METHODS, retry } from './retry.js';
export { RetryError } from './retry-error.js';
export { restore, restoreRun, RUN_SNAPSHOT_SIZE, snapshot, SNAPSHOT_SIZE } from './snapshot.js';
export { Run } from './run.js';
export { seedFromDevice, startupDelay } from './fleet.js';
export { pace, Pacer } from './pacer.js';
export { SendRate } from './send-rate.js';
