// `seeded-backoff/got`: got 16's retries on this package's seeded schedules (ESM only, as got is).
import type { BackoffOptions, Policy, Seed } from './index.js';
import type { SendRate } from './send-rate.js';

/** The third argument of {@link gotRetry}. */
export interface GotRetrySendOptions {
  /**
   * A send rate shared by every request to one server (SPEC.md §17): every attempt, retries
   * included, waits in a beforeRequest hook until it lets it go. Each response's status is told to
   * it as the core reads it (a 429, or a 503 with a hint, is a throttle; an error without a response
   * is no answer). A fail-fast refusal, or a wait past the policy's `maxElapsedMs`, fails the
   * request before it is sent with got's RequestError whose `cause` is a `RetryError` (`reason`
   * `'throttled'` or `'deadline'`, no `cause` when nothing was sent). Any other value is a TypeError
   * naming `sendRate`.
   *
   * @example
   * ```
   * const client = got.extend(gotRetry({ preset: 'google' }, 42, { sendRate: new SendRate() }));
   * ```
   */
  sendRate?: SendRate;
}

/** The options {@link gotRetry} returns; got merges them with yours. */
export interface GotRetryOptions {
  retry: {
    limit: number;
    /** The statuses the core retries: 429 and 500..=599. */
    statusCodes: number[];
    calculateDelay: (retryObject: { attemptCount: number; error: any }) => number;
  };
  /** With a `sendRate`: the hooks that pace each attempt and tell it each response. */
  hooks?: { beforeRequest: Array<(options: any, info: { retryCount: number }) => Promise<void>>; afterResponse: Array<(response: any) => any> };
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
// A Policy, or options (overloads rather than a union, so that tsc names a near key: 'maxRetrie' -> 'maxRetries').
export function gotRetry(policy: Policy, seed?: Seed, options?: GotRetrySendOptions): GotRetryOptions;
export function gotRetry(policy: BackoffOptions, seed?: Seed, options?: GotRetrySendOptions): GotRetryOptions;
