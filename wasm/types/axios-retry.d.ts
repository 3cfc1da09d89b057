// `seeded-backoff/axios-retry`: axios-retry 4's retries on this package's seeded schedules (ESM).
import type { BackoffOptions, Policy, PolicyOptions, Seed } from './index.js';

/** The options {@link axiosRetryOptions} returns, for `axiosRetry(axios, options)`. */
export interface AxiosRetrySeededOptions {
  retries: number;
  /** False for a response with a status the core does not retry, a cancelled request, or a give-up. */
  retryCondition: (error: any) => boolean;
  /** The delay `retryCondition` computed for this error, in ms. */
  retryDelay: (retryCount: number, error: any) => number;
}

/**
 * Options for `axiosRetry(axios, options)` whose retries wait the core's delays: one seeded
 * `Backoff` per request (request i, in the order they start, uses `callSeed(seed, i)`, SPEC.md
 * §14; omitted, a random seed), kept in the state axios-retry carries on the request's config. A response's
 * status is classified by the core (429 and 5xx are retried, no other status is); errors without
 * a response are retried unless cancelled; `Retry-After`, or a 429's rate-limit headers, are parsed
 * by the core from `error.response`; the core giving up stops axios-retry. Unlike axios-retry's
 * default condition, any method is retried: wrap `retryCondition` to narrow it.
 *
 * @throws TypeError or RangeError, as `new Backoff(policy, seed)` does, for a bad policy or seed.
 *
 * @example
 * ```
 * import axios from 'axios';
 * import axiosRetry from 'axios-retry';
 * import { axiosRetryOptions } from 'seeded-backoff/axios-retry';
 * axiosRetry(axios, axiosRetryOptions({ preset: 'google' }, 42));
 * ```
 */
export function axiosRetryOptions(
  policy: Policy | PolicyOptions | BackoffOptions,
  seed?: Seed,
): AxiosRetrySeededOptions;
