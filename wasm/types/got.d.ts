// `seeded-backoff/got`: got 16's retries on this package's seeded schedules (ESM only, as got is).
import type { BackoffOptions, Policy, PolicyOptions, Seed } from './index.js';

/** The options {@link gotRetry} returns; got merges them with yours. */
export interface GotRetryOptions {
  retry: {
    limit: number;
    /** The statuses the core retries: 429 and 500..=599. */
    statusCodes: number[];
    calculateDelay: (retryObject: { attemptCount: number; error: any }) => number;
  };
}

/**
 * Options for `got.extend()` or one call whose retries wait the core's delays: one seeded
 * `Backoff` per request (request i, in the order they start, uses `callSeed(seed, i)`, SPEC.md
 * §14; omitted, a random seed), kept in the request's `context`. got retries the statuses the core retries (429
 * and 5xx) and its own network error codes, for its retryable methods; `Retry-After`, or a 429's
 * rate-limit headers, are parsed by the core from `error.response`; the core giving up stops got.
 * A delay of 0 ms (possible with full jitter) is got's 1 ms, as got reads 0 as "stop".
 *
 * @throws TypeError or RangeError, as `new Backoff(policy, seed)` does, for a bad policy or seed.
 *
 * @example
 * ```
 * import got from 'got';
 * import { gotRetry } from 'seeded-backoff/got';
 * const client = got.extend(gotRetry({ preset: 'google' }, 42));
 * ```
 */
export function gotRetry(policy: Policy | PolicyOptions | BackoffOptions, seed?: Seed): GotRetryOptions;
