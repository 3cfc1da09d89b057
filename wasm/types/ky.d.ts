// `seeded-backoff/ky`: ky 2's retries on this package's seeded schedules (ESM only, as ky is).
import type { BackoffOptions, Policy, Seed } from './index.js';
import type { SendRate } from './send-rate.js';

/** The third argument of {@link kyRetry}. */
export interface KyRetrySendOptions {
  /**
   * A send rate shared by every request to one server (SPEC.md §17): ky's request (a beforeRequest
   * hook, the first attempt) and each retry (a beforeRetry hook) wait until it lets them go. Each
   * response's status is told to it as the core reads it (a 429, or a 503 with a hint, is a
   * throttle; an error without a response is no answer). A fail-fast refusal, or a wait past the
   * policy's `maxElapsedMs`, fails the request before it is sent with a `RetryError` (`reason`
   * `'throttled'` or `'deadline'`, no `cause` when nothing was sent). Any other value is a TypeError
   * naming `sendRate`.
   *
   * @example
   * ```
   * const api = ky.create(kyRetry({ preset: 'google' }, 42, { sendRate: new SendRate() }));
   * ```
   */
  sendRate?: SendRate;
}

/** The options {@link kyRetry} returns; ky merges them with yours. */
export interface KyRetryOptions {
  retry: {
    limit: number;
    jitter: false;
    backoffLimit: number;
  };
  hooks: {
    /** Gives each request its own schedule (ky runs init hooks once per request). */
    init: Array<(options: { retry?: unknown; hooks?: unknown }) => void>;
  };
}

/**
 * Options for `ky.create()`, `ky.extend()` or one call, whose retries wait the core's delays: one
 * seeded `Backoff` per request (request i, in the order they start, uses `callSeed(seed, i)`,
 * SPEC.md §14; omitted, a random seed). A response's status is classified by the core (429 and 5xx are
 * retried, no other status is); its `Retry-After`, or a 429's rate-limit headers, are parsed by
 * the core; the core giving up stops ky. ky's own rules still decide whether an error without a
 * response is retried (network errors yes; timeouts only with `retryOnTimeout`) and which methods
 * are (`retry.methods`: the idempotent ones).
 *
 * @throws TypeError or RangeError, as `new Backoff(policy, seed)` does, for a bad policy or seed.
 *
 * @example
 * ```
 * import ky from 'ky';
 * import { kyRetry } from 'seeded-backoff/ky';
 * const api = ky.create(kyRetry({ preset: 'google' }, 42));
 * ```
 */
// A Policy, or options (overloads rather than a union, so that tsc names a near key: 'maxRetrie' -> 'maxRetries').
export function kyRetry(policy: Policy, seed?: Seed, options?: KyRetrySendOptions): KyRetryOptions;
export function kyRetry(policy: BackoffOptions, seed?: Seed, options?: KyRetrySendOptions): KyRetryOptions;
