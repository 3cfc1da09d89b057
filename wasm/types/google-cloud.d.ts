// `seeded-backoff/google-cloud` (Node only): Google Cloud's Node client libraries (GAPIC over
// google-gax) retried by the core's schedule instead of gax's own.
import type { GiveUpReason, Policy } from './index.js';
import type { RetryBudget } from './budget.js';
import type { Classification } from './retry-after.js';
import type { SendRate } from './send-rate.js';

/** The gax call options every attempt is given: gax's own retry off. */
export interface NoGaxRetry {
  retry: null;
}

export interface CallWithBackoffOptions {
  /** The schedule (default: Google's preset, 1 s ×2 up to 32 s plus up to 1 s, 10 retries). */
  policy?: Policy;
  /** The same seed gives the same delays (tests, replays); omitted, a random one. */
  seed?: number | bigint;
  /** A budget shared by the calls to one service. */
  budget?: RetryBudget;
  /** Told of each retry before its wait: the attempt that just failed (from 1), the wait, its error. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Waits `ms` (default: a timer). */
  sleep?: (ms: number) => Promise<unknown> | unknown;
  /** Monotonic ms (default: nowMs, the package's clock); time in calls counts against maxElapsedMs. */
  now?: () => number;
  /** Stops before the next attempt once aborted. */
  signal?: AbortSignal;
  /**
   * A send rate shared by every call to one service (SPEC.md §17): every attempt, the first
   * included, waits (with `sleep`) until it lets it go, and each answer is told to it: in REST
   * fallback mode with {@link captureResponses}, the response's status as the core reads it (a
   * 429, or a 503 with a hint, is a throttle); otherwise the outcome's own. A fail-fast refusal
   * gives up `'throttled'` (a RetryError without `cause` when nothing was sent). `now` must then be
   * the send rate's clock, nowMs (the default). Any other value is a TypeError.
   *
   * @example
   * ```js
   * const sendRate = new SendRate(); // one per process and service
   * const [instance] = await callWithBackoff((o) => client.getInstance({ name }, o), { sendRate });
   * ```
   */
  sendRate?: SendRate;
}

/**
 * Runs a gax call with gax's retry off (`call` gets `{ retry: null }` to spread into its options)
 * and retries what the core classifies as retryable: by `httpStatusCode` (REST fallback) when the
 * error has one, else by its gRPC `code` (UNAVAILABLE 14 and RESOURCE_EXHAUSTED 8). The
 * response's hint (Retry-After, else a 429's rate-limit header, as `hintFromHeaders` reads them)
 * bounds the wait from below when the client's auth client went through
 * {@link captureResponses}; gax's errors carry no headers, so without it (and over gRPC) no
 * hint is seen. Errors worth retrying are retried by default, a refused or dropped connection
 * included (gax reports it as UNAVAILABLE). Giving up throws, as gax does when its own retries run
 * out, a GoogleError with code DEADLINE_EXCEEDED (4), so the `catch` clauses written for gax see
 * it; it is also a RetryError (`instanceof RetryError`; `cause`: the last error, `attempts`,
 * `reason`). An error that is not retryable is thrown as it is.
 *
 * @example
 * ```js
 * const [instance] = await callWithBackoff((o) => client.getInstance({ name }, o), { seed: 7 });
 * ```
 */
export function callWithBackoff<T>(call: (options: NoGaxRetry) => Promise<T>, options?: CallWithBackoffOptions): Promise<T>;

/**
 * Wraps the auth client's `fetch` (google-auth-library, e.g. `new PassThroughClient()`), through
 * which gax's REST fallback sends every request, so that callWithBackoff reads each attempt's
 * hint headers. Returns the same client.
 */
export function captureResponses<A extends { fetch: (...args: any[]) => Promise<any> }>(authClient: A): A;

/** The core's class of a gax error: by `httpStatusCode` when present, else by gRPC `code`. */
export function classifyGoogleError(error: unknown): Classification;

export type { GiveUpReason };
