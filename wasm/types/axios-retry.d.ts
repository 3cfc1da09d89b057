// `seeded-backoff/axios-retry`: axios-retry 4's retries on this package's seeded schedules (ESM).
import type { BackoffOptions, Policy, Seed } from './index.js';
import type { SendRate } from './send-rate.js';

/** The third argument of {@link axiosRetryOptions}. */
export interface AxiosRetrySendOptions {
  /**
   * A send rate shared by every request to one server (SPEC.md §17): every attempt, retries
   * included, waits in a request interceptor on `axios` until it lets it go. Each response's status
   * is told to it as the core reads it (a 429, or a 503 with a hint, is a throttle; an error without
   * a response is no answer). A fail-fast refusal, or a wait past the policy's `maxElapsedMs`, fails
   * the request before it is sent with a `RetryError` (`reason` `'throttled'` or `'deadline'`, no
   * `cause` when nothing was sent). Any other value is a TypeError naming `sendRate`.
   *
   * @example
   * ```
   * const api = axios.create();
   * axiosRetry(api, axiosRetryOptions({ preset: 'google' }, 42, { sendRate: new SendRate(), axios: api }));
   * ```
   */
  sendRate?: SendRate;
  /**
   * The axios instance given to `axiosRetry`, required with `sendRate`: axios-retry has no hook
   * before an attempt, so interceptors on it pace each one (axios-retry retries through it).
   */
  axios?: { interceptors: { request: { use: Function }; response: { use: Function } } };
}

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
// A Policy, or options (overloads rather than a union, so that tsc names a near key: 'maxRetrie' -> 'maxRetries').
export function axiosRetryOptions(policy: Policy, seed?: Seed, options?: AxiosRetrySendOptions): AxiosRetrySeededOptions;
export function axiosRetryOptions(policy: BackoffOptions, seed?: Seed, options?: AxiosRetrySendOptions): AxiosRetrySeededOptions;
