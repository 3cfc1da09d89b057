// The package's main entry: what a first program uses (retry, fetch with retries, a policy, a
// schedule, a run of one's own loop). Each concern beyond it is its own entry point, named after
// it: seeded-backoff/retry-after (status classes, Retry-After, rate-limit headers),
// /snapshot, /budget, /fleet (seeds), /pacer, /send-rate, /outbox, the integrations and adapters.
// Ready on import, in Node, browsers and workers alike; each export pulls in only its own modules
// and engine parts.
export { Backoff } from './backoff.js';
export { nowMs } from './clock.js';
export { hintFromHeaders } from './hint.js';
export { Policy } from './policy.js';
export { fetchWithBackoff, retry } from './retry.js';
export { RetryError } from './retry-error.js';
export { Run } from './run.js';
