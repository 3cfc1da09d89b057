// Types and documentation of the npm package `seeded-backoff`. Every delay, parsed header, budget
// decision and snapshot byte is computed by the Rust core (compiled to WebAssembly, inlined in the
// package's JS: nothing to fetch or initialise); SPEC.md in the repository has every formula. The
// unions below (presets, jitters, give-up reasons, error codes) are checked against the core's
// tables by the package's tests.
import type { SharedBudget, SharedPacer, SharedSendRate } from './shared.js';

/** A named starting point; options given next to it override its fields. */
export type Preset = 'google' | 'google_64s' | 'aws_standard' | 'grpc' | 'mobile';

/** How each delay is randomised around the exponential base `base_n = min(initial · mult^n, cap)`. */
export type Jitter =
  /** `base_n`, no randomness. */
  | 'none'
  /** Google Cloud's reference: `min(base_n + U[0, jitterMs], cap)`. */
  | 'google'
  /** AWS "full jitter": `U[0, base_n]`. */
  | 'full'
  /** `base_n/2 + U[0, base_n/2]`. */
  | 'equal'
  /** Brooker's decorrelated jitter: `min(cap, U[initial, 3 · previous])`. */
  | 'decorrelated'
  /** gRPC: `min(cap, base_n ± base_n · spreadPerMille / 1000)`. */
  | 'proportional';

/** Why a Backoff stopped. */
export type GiveUpReason = 'max_retries' | 'deadline' | 'budget' | 'server_stop' | 'hint_exceeds_max' | 'throttled';

/**
 * The seed of call `index` (0, 1, 2, … in the order a loop's calls start) of a loop seeded `seed`
 * (SPEC.md §14, the same as Rust's `call_seed` and C's `sb_call_seed`): call 0 keeps `seed`, every
 * other call gets one of its own, so calls made together retry apart and the same calls in the
 * same order replay. The adapters and the Valkey strategy seed their calls so.
 *
 * @example
 * ```
 * import { Backoff, callSeed, Policy } from 'seeded-backoff';
 *
 * const policy = new Policy();
 * const schedules = [0, 1, 2].map((i) => new Backoff(policy, callSeed(42, i)));
 * ```
 */
export function callSeed(seed: Seed, index: number | bigint): bigint;

/** A seed: a non-negative safe integer, or a bigint up to 2^64 − 1. */
export type Seed = number | bigint;

/** What failed, for the AWS quota's costs. */
export type FailureKind = 'error' | 'timeout';

/**
 * A preset and overrides. Every field is optional: without a preset the defaults are Google's
 * (1 s, ×2, 32 s cap, 10 retries, 0–1000 ms jitter). Unknown keys are refused (a typo), inherited
 * keys are read like own ones, and each value is read once.
 */
export interface PolicyOptions {
  /** Start from a preset; the other options override its fields. */
  preset?: Preset;
  /** The first delay's base in ms, 1..=2147483647. */
  initialMs?: number;
  /** The growth factor, 1..=1000 with at most three decimals (gRPC's 1.6 is exact). */
  multiplier?: number;
  /** The cap on every computed delay in ms, initialMs..=2147483647. */
  maxBackoffMs?: number;
  /** Retries before giving up (0 = never retry), 0..=4294967295. */
  maxRetries?: number;
  /** The jitter strategy (default: the preset's). */
  jitter?: Jitter;
  /** Width of `'google'` jitter in ms, 0..=maxBackoffMs (default 1000); only with that jitter. */
  jitterMs?: number;
  /** Half-width of `'proportional'` jitter in thousandths, 0..=1000 (default 200); only with it. */
  spreadPerMille?: number;
  /**
   * The longest server wait (Retry-After, a 429's rate-limit reset) the client accepts, in ms,
   * 0..=2147483647 (default 300000, whatever the cap): a longer one gives up with
   * `'hint_exceeds_max'` rather than coming back before the server allows.
   */
  maxHintMs?: number;
  /** Time budget in ms since the first attempt, 0..=4294967295; 0 = none. */
  maxElapsedMs?: number;
  /** A delay that would cross `maxElapsedMs`: give up (default) or shorten it to fit. */
  deadline?: 'give_up' | 'clamp';
  /**
   * Follow a pacing server (SPEC.md §16): a Retry-After is the wait itself, not a lower bound. Only for a server trusted to pace: one that sends 0 pulls clients in at once.
   */
  paced?: boolean;
}

/** Policy options and a seed: the sugar `new Backoff({ ...options, seed })`. */
export interface BackoffOptions extends PolicyOptions {
  /**
   * The jitter seed. Omitted, it is drawn from `crypto.getRandomValues` (and readable afterwards as
   * `backoff.seed`). Equal seeds give equal schedules in every language: use them in tests.
   */
  seed?: Seed;
}

/**
 * A retry policy, checked once by the core and then shared by any number of Backoffs (and
 * `retry()` calls). Immutable: later changes to the options object do nothing.
 *
 * @throws TypeError for a wrong type or an unknown key; RangeError naming the option and its
 * range, e.g. `initialMs must be in 1..=2147483647, got 0`.
 *
 * @example
 * ```
 * import { Backoff, Policy } from 'seeded-backoff';
 *
 * const policy = new Policy({ preset: 'grpc', maxRetries: 5 });
 * const a = new Backoff(policy);
 * const b = new Backoff(policy, 42n); // a fixed seed: the same delays every run
 * ```
 */
export class Policy {
  // Nominal: an options object is not a Policy.
  #private;
  /**
   * A copy of `policy`, the same policy. A Policy, Backoff, Run, SendRate or Pacer made by the
   * package's CommonJS build (`require`) means the same to its ES module build (`import`) in the
   * same process, and the other way round; one of another version of the package is a TypeError.
   */
  constructor(policy: Policy);
  constructor(options?: PolicyOptions);
}

/** What one step can be told besides "the last attempt failed". */
export interface StepInput {
  /** The server's Retry-After in ms, 0..=4294967295: a lower bound on the delay (beyond maxHintMs: a give-up). */
  retryAfterMs?: number;
  /**
   * A rate-limit quota resets in this many ms, 0..=4294967295 (from {@link parseRateLimit}): the
   * delay is at least that (beyond maxHintMs: a give-up) plus an upward jitter of up to 1 s + 10 %, so
   * clients told the same reset time do not return together. Takes one random draw.
   */
  rateLimitMs?: number;
  /** The server said not to retry: gives up with `'server_stop'`. At most one of the three hints. */
  doNotRetry?: boolean;
  /** Your clock: ms since the first attempt (counts request time against maxElapsedMs). */
  elapsedMs?: number | bigint;
  /** A shared budget: records this failure, and gives up with `'budget'` when it refuses. */
  budget?: BudgetLike;
  /** What failed, for the AWS quota's costs (default `'error'`). */
  failureKind?: FailureKind;
}

/**
 * One request's retry schedule. Its 32-byte state lives in this object: nothing to free.
 *
 * @example
 * ```
 * import { Backoff, Policy } from 'seeded-backoff';
 *
 * const policy = new Policy({ preset: 'google' });
 * const backoff = new Backoff(policy);
 * for (let delay; (delay = backoff.nextDelay()) !== null; ) {
 *   await new Promise((r) => setTimeout(r, delay));
 *   if (await tryAgain()) break;
 * }
 * console.log(backoff.giveUpReason); // 'max_retries' if every try failed
 * ```
 */
export class Backoff implements Iterable<number> {
  #private;
  /** A schedule under `policy`, seeded with `seed` (random if omitted). */
  constructor(policy: Policy, seed?: Seed);
  /**
   * The sugar: a Policy is built for this one Backoff (make one Policy and share it when making
   * many). The seed goes in the options.
   *
   * @example
   * ```
   * new Backoff({ preset: 'google', maxRetries: 5, seed: 42 }).nextDelay(); // 1000..=2000
   * ```
   */
  constructor(options?: BackoffOptions);
  /** The policy it follows. */
  readonly policy: Policy;
  /**
   * The seed it was drawn from, random ones too: `new Backoff(policy, b.seed)` replays it. `null`
   * for a Backoff from `restore()` (a snapshot holds the generator's state, not the seed).
   */
  readonly seed: bigint | null;
  /**
   * The delay in ms before the next retry, or `null` to give up (see `giveUpReason`).
   *
   * @example
   * ```
   * const delay = backoff.nextDelay({ retryAfterMs: 5000, elapsedMs: performance.now() - start });
   * ```
   */
  nextDelay(input?: StepInput): number | null;
  /** `nextDelay({ retryAfterMs })`. */
  nextDelayWithHint(retryAfterMs: number): number | null;
  /** Why it gave up, or `null` while it has not. */
  readonly giveUpReason: GiveUpReason | null;
  /** Retries issued since creation or the last `reset()`. */
  readonly retries: number;
  /** The sum of issued delays (or your clock plus the last delay), in ms, saturating at 2^32 − 1. */
  readonly elapsedMs: number;
  /** Start over after a success (the random stream continues). */
  reset(): void;
  /** The delays until giving up. */
  [Symbol.iterator](): Iterator<number>;
}

/** Why `restore()` refused bytes: the `code` of its RangeError. */
export type SnapshotErrorCode =
  | 'wrong_length'
  | 'unknown_version'
  | 'bad_checksum'
  | 'policy_mismatch'
  | 'zero_rng_state'
  | 'invalid_state';

/** A Backoff snapshot's size in bytes (SPEC.md §9): 40. */
export const SNAPSHOT_SIZE: number;
/** A Run snapshot's size in bytes (SPEC.md §15): 100. */
export const RUN_SNAPSHOT_SIZE: number;

/**
 * The 40-byte snapshot of a Backoff's state (SPEC.md §9), e.g. for sessionStorage across a reload.
 * Uses the snapshot part of the engine (its own module, in the program only where it is imported).
 *
 * @example
 * ```
 * import { snapshot } from 'seeded-backoff/snapshot';
 *
 * sessionStorage.setItem('backoff', btoa(String.fromCharCode(...snapshot(backoff))));
 * ```
 */
export function snapshot(backoff: Backoff): Uint8Array;
/**
 * The 100-byte snapshot of a Run (SPEC.md §15): the whole retry run (attempt, clock, pauses,
 * re-draws, the refund kind), e.g. for IndexedDB so that the next page load continues it.
 */
export function snapshot(run: Run): Uint8Array;

/**
 * A Run rebuilt from `snapshot(run)` bytes, under the Policy it was taken with; `options.budget`
 * as for `new Run`. It answers every later event as the snapshotted run would have.
 *
 * @throws RangeError with `code` (a {@link SnapshotErrorCode}); TypeError if `policy` is not a
 * Policy or `bytes` not a Uint8Array.
 *
 * @example
 * ```
 * import { restoreRun, snapshot } from 'seeded-backoff/snapshot';
 *
 * const saved = snapshot(run); // in the middle of a retry's sleep
 * const again = restoreRun(policy, saved);
 * again.wake(Date.now()); // { type: 'attempt', attempt: 2 }
 * ```
 */
export function restoreRun(policy: Policy, bytes: Uint8Array, options?: { budget?: BudgetLike; sendRate?: SendRate }): Run;

/**
 * A Backoff rebuilt from `snapshot()` bytes, under the policy it was taken with (a Policy, or the
 * same options). It continues the schedule where the snapshot left it.
 *
 * @throws RangeError with `code` (a {@link SnapshotErrorCode}), e.g. `'policy_mismatch'`; also for
 * bytes over 256 long (`bytes must be at most 256 bytes, got 300`). TypeError if `bytes` is not a
 * Uint8Array.
 *
 * @example
 * ```
 * import { restore } from 'seeded-backoff/snapshot';
 *
 * const bytes = Uint8Array.from(atob(sessionStorage.getItem('backoff')), (c) => c.charCodeAt(0));
 * const backoff = restore(policy, bytes);
 * ```
 */
export function restore(policy: Policy | PolicyOptions, bytes: Uint8Array): Backoff;

/** gRFC A6 retry throttling: a failure costs a token, retries only while more than half remain. */
export interface GrpcBudgetOptions {
  mode: 'grpc';
  /** 1..=1000. */
  maxTokens: number;
  /** Tokens a success refunds, 0.001..=maxTokens with at most three decimals. */
  tokenRatio: number;
}

/** The AWS SDKs' retry quota (defaults 500 / 5 / 10 / 1 tokens). */
export interface AwsQuotaBudgetOptions {
  mode?: 'aws_quota';
  /** 1..=1000000. */
  capacity?: number;
  /** Cost of retrying an error, 1..=capacity. */
  retryCost?: number;
  /** Cost of retrying a timeout, 1..=capacity. */
  timeoutCost?: number;
  /** What a first-try success adds, 0..=capacity. */
  noRetryIncrement?: number;
}

/**
 * A token bucket shared by every request to one server, so that a struggling server is not buried
 * in retries. Pass it to `nextDelay({ budget })` or `retry(fn, { budget })`. Its state lives in
 * this object: nothing to free.
 *
 * @example
 * ```
 * import { retry } from 'seeded-backoff';
 * import { RetryBudget } from 'seeded-backoff/budget';
 *
 * const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
 * await retry(() => fetch('/api'), { budget });
 * ```
 */
export class RetryBudget {
  #private;
  constructor(options?: GrpcBudgetOptions | AwsQuotaBudgetOptions);
  /** A failed attempt (that is not followed by a retry through `tryAcquire`). */
  recordFailure(kind?: FailureKind): void;
  /** Asks for a retry; `false` means give up. */
  tryAcquire(kind?: FailureKind): boolean;
  /** A success; `retriedKind` is what the successful retry followed, if it was a retry. */
  recordSuccess(retriedKind?: FailureKind): void;
  /** The tokens left. */
  readonly tokens: number;
  /**
   * The tokens left, in thousandths (an integer). Set it to a count kept elsewhere (other tabs,
   * storage across a reload), 0..=the maximum, or a RangeError.
   */
  tokensMilli: number;
}

/**
 * What a budget is to `retry()`, `Run` and `nextDelay()`: a {@link RetryBudget}, or any object
 * with its three methods (the core asks it through them, SPEC.md §10).
 */
export interface BudgetLike {
  recordFailure(kind?: FailureKind): void;
  tryAcquire(kind?: FailureKind): boolean;
  recordSuccess(retriedKind?: FailureKind): void;
}

/** Why `parseRetryAfter()` refused a value: the `code` of its SyntaxError. */
export type RetryAfterErrorCode =
  | 'empty'
  | 'negative'
  | 'invalid_format'
  | 'bad_day_name'
  | 'bad_month'
  | 'bad_day'
  | 'bad_hour'
  | 'bad_minute'
  | 'bad_second'
  | 'bad_year'
  | 'too_long';

/**
 * Milliseconds to wait for a `Retry-After` value (delta-seconds or any of RFC 9110's three
 * HTTP-date forms), from `nowMs` (Unix ms, default `Date.now()`). A date in the past gives 0.
 * A value over 8192 bytes is `too_long` (SPEC.md §8), whatever it holds.
 *
 * @throws SyntaxError with `code` (a {@link RetryAfterErrorCode}) if it does not parse.
 *
 * @example
 * ```
 * import { parseRetryAfter } from 'seeded-backoff/retry-after';
 *
 * parseRetryAfter('120'); // 120000
 * parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 48, 7)); // 90000
 * ```
 */
export function parseRetryAfter(value: string | Uint8Array, nowMs?: number): number;

/** A rate-limit header `parseRateLimit()` reads (any case), in the order `retry()` tries them. */
export type RateLimitHeaderName =
  | 'ratelimit'
  | 'ratelimit-reset'
  | 'x-ratelimit-retry-after'
  | 'x-ratelimit-reset';

/** The rate-limit headers in lower case, in the order a 429 is searched (the core's table). */
export const RATE_LIMIT_HEADERS: readonly RateLimitHeaderName[];

/**
 * Whether a response with this status is read for rate-limit headers: a 429 only (on a 5xx the
 * reset time describes a quota, not the server's recovery), and only without a valid Retry-After.
 *
 * @example
 * ```
 * rateLimitApplies(429); // true
 * rateLimitApplies(503); // false
 * ```
 */
export function rateLimitApplies(status: number): boolean;

/** Why `parseRateLimit()` refused a value: the `code` of its SyntaxError. */
export type RateLimitErrorCode = 'empty' | 'negative' | 'invalid_format' | 'too_long';

/**
 * Milliseconds until a rate-limit quota resets, from a 429's `RateLimit` (IETF structured field:
 * the largest `t` among quotas with `r=0`), `RateLimit-Reset`, `X-RateLimit-Retry-After` or
 * `X-RateLimit-Reset` (seconds, fractions rounded up to whole ms; above 10^9 a Unix time, counted
 * from `nowMs`, default `Date.now()`). Pass it to `nextDelay({ rateLimitMs })`; `retry()` reads
 * these headers itself.
 *
 * @throws SyntaxError with `code` (a {@link RateLimitErrorCode}) if it does not parse; TypeError
 * or RangeError for an unknown header name. A value over 8192 bytes is `too_long`.
 *
 * @example
 * ```
 * import { parseRateLimit } from 'seeded-backoff/retry-after';
 *
 * parseRateLimit('RateLimit', '"default";r=0;t=30'); // 30000
 * parseRateLimit('X-RateLimit-Reset', '1.5'); // 1500
 * parseRateLimit('x-ratelimit-reset', '1700000060', 1700000000000); // 60000
 * ```
 */
export function parseRateLimit(
  name: RateLimitHeaderName | (string & {}),
  value: string | Uint8Array,
  nowMs?: number,
): number;

/** A response's hint for {@link Backoff.nextDelay}: one of the two fields, or neither. */
export type HeaderHint = { retryAfterMs: number } | { rateLimitMs: number } | Record<string, never>;

/**
 * The hint a response with `status` gives, by the rule `retry()` uses (SPEC.md §8.3, the core's):
 * a `Retry-After` that parses (any status), else for a 429 the first rate-limit header that parses
 * (in {@link RATE_LIMIT_HEADERS}' order), else none. A value that does not parse is passed over,
 * never an error. Spread it into `nextDelay()` in a loop of your own, with any HTTP client.
 *
 * `headers` is a fetch `Headers`, anything with a `get(name)` (axios' `AxiosHeaders`), or a plain
 * object of values (Node's and got's `IncomingHttpHeaders`): names in any case, the first of a
 * list of values. Asynchronous because the HTTP-date and rate-limit parsers are loaded only when
 * such a value arrives; delta-seconds and absent headers need nothing more than `Backoff` does.
 *
 * @throws TypeError or RangeError (the promise rejects) for a status that is not an integer in
 * 0..=4294967295, `headers` that are not an object, or a bad `nowMs`.
 *
 * @example
 * ```
 * import { Backoff, hintFromHeaders } from 'seeded-backoff';
 *
 * await hintFromHeaders(503, { 'Retry-After': '120' }); // { retryAfterMs: 120000 }
 * await hintFromHeaders(429, new Headers({ 'x-ratelimit-reset': '1.5' })); // { rateLimitMs: 1500 }
 * await hintFromHeaders(503, { 'x-ratelimit-reset': '1.5' }); // {} (rate limits are a 429's)
 *
 * const backoff = new Backoff({ preset: 'google' });
 * const res = await fetch('/api/items');
 * const delay = backoff.nextDelay(await hintFromHeaders(res.status, res.headers));
 * ```
 */
export function hintFromHeaders(
  status: number,
  headers: { get(name: string): string | null | undefined } | Record<string, string | string[] | number | undefined>,
  nowMs?: number,
): Promise<HeaderHint>;

/**
 * 429 and 5xx.
 *
 * @example
 * ```
 * if (isRetryableHttp(res.status)) await sleep(backoff.nextDelay());
 * ```
 */
export function isRetryableHttp(status: number): boolean;

/** An HTTP status's or gRPC code's class; `'invalid'` for an integer outside the defined ones. */
export type Classification = 'success' | 'retry' | 'do_not_retry' | 'invalid';

/**
 * The class of an HTTP status: `classifyHttp(503) === 'retry'`, `classifyHttp(404) === 'do_not_retry'`.
 * @throws TypeError for a non-number, RangeError for a non-integer.
 */
export function classifyHttp(status: number): Classification;

/**
 * The class of a gRPC status code: `classifyGrpc(14) === 'retry'` (UNAVAILABLE).
 * @throws TypeError for a non-number, RangeError for a non-integer.
 */
export function classifyGrpc(code: number): Classification;

/** What `retry()` passes to `fn`. */
export interface Attempt {
  /** The attempt's number: 1 for the first call. */
  attempt: number;
  /** The `signal` of the options, for passing on (e.g. to `fetch`). */
  signal?: AbortSignal;
}

/** What `retry()` and `fetchWithBackoff()` take besides the policy. */
export interface RetryHooks {
  /** The jitter seed (default: random). */
  seed?: Seed;
  /** Aborts the whole retry, including a sleep, at once; rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Return (or resolve) false to stop on a thrown error: it is rethrown as is. */
  shouldRetry?: (error: unknown) => boolean | Promise<boolean>;
  /**
   * Called before each sleep: `attempt` is the number of the attempt that failed (1 for the
   * first), `delayMs` the wait before the next, `error` the thrown error or the retryable Response.
   */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** A shared retry budget; a SharedBudget (seeded-backoff/shared) shares it with a fleet. */
  budget?: BudgetLike | SharedBudget;
  /**
   * Ends one attempt after this many ms, 1..=2147483647: its `signal` aborts with a
   * `TimeoutError` DOMException and `retry()` stops waiting for it; it counts as a retryable
   * failure (of kind `'timeout'` for a `budget`), and `shouldRetry` is not asked. The user's
   * `signal` still stops everything.
   * @default no limit
   */
  attemptTimeoutMs?: number;
  /**
   * `'wait'`: while `navigator.onLine` is false, a sleep does not end and a thrown failure spends
   * no retry; on the `online` event the next attempt comes after a re-drawn wait (SPEC.md §13).
   * `navigator.onLine` can be wrong, so after `maxBackoffMs` offline an attempt is made anyway;
   * such an attempt spends a retry only if it gets an HTTP answer. Where `navigator.onLine` does
   * not exist (Node), nothing changes.
   * @default 'wait'
   */
  offline?: 'wait' | 'ignore';
  /**
   * `'pause'`: while `document.visibilityState` is `'hidden'`, or the page is frozen, a sleep does
   * not end; when the page is visible again (or resumed), the next attempt comes after a re-drawn
   * wait rather than at once. Without a `document` (Node, workers), nothing changes.
   * @default 'pause'
   */
  whenHidden?: 'pause' | 'continue';
  /**
   * Whether time spent paused (offline, hidden, frozen) counts against `maxElapsedMs`.
   * @default false
   */
  countPausedTime?: boolean;
  /**
   * A send rate shared by every call to one server (SPEC.md §15.2, §17): the run asks it before
   * every attempt, the first included, and waits when told (a wait spends no retry and no budget,
   * and calls no `onRetry`); it tells it every answer: a Response's status as the core reads it
   * (`429`, or `503` with a hint, is a throttle; anything else accepted), else the outcome's own
   * (success and permanent errors accepted, a retryable failure with a `Retry-After` hint a
   * throttle, any other no answer). A wait that would pass `maxElapsedMs` gives up `'deadline'`;
   * with the SendRate's `failFast`, a refusal gives up `'throttled'` at once (a `RetryError` with
   * no `cause` when no attempt was made). Only a {@link SendRate} is one: any other value is a
   * TypeError naming `sendRate`.
   *
   * @example
   * ```
   * import { fetchWithBackoff, SendRate } from 'seeded-backoff';
   *
   * const sendRate = new SendRate(); // one per process and server
   * const items = await Promise.all(ids.map((id) => fetchWithBackoff(`/api/items/${id}`, {}, { sendRate })));
   * ```
   */
  sendRate?: SendRate | SharedSendRate;
}

/**
 * Options for `retry()`: a shared `policy`, or policy options (not both: beside a `policy`, a
 * policy option's type is `undefined`). The branch with a policy takes no other type for those
 * options, so that a wrong value's error names its own type (`Type 'string' is not assignable to
 * type 'number'`, `'"fulll"' is not assignable to type 'Jitter'. Did you mean '"full"'?`).
 */
export type RetryOptions = RetryHooks &
  ((PolicyOptions & { policy?: undefined }) | ({ policy: Policy } & { [K in keyof PolicyOptions]?: never }));

/**
 * `retry()` gave up. `cause` is the last error (or the last retryable Response); the message says
 * what it was: `gave up after 3 attempts (max_retries): HTTP 503`, `…: threw 5`. A run that a
 * `sendRate` refused (or held past `maxElapsedMs`) before any attempt has no `cause`:
 * `gave up after 0 attempts (throttled)`.
 */
export class RetryError extends Error {
  readonly name: 'RetryError';
  readonly cause: unknown;
  /** How many times fn was called. */
  readonly attempts: number;
  readonly reason: GiveUpReason;
}

/**
 * Calls `fn` until it succeeds. A thrown error, or a returned Response with status 429 or 5xx, is
 * retried after the core's delay (a Retry-After header is honoured; on a 429 without one, the
 * first rate-limit header that parses, in {@link RateLimitHeaderName}'s order, with an upward
 * jitter; a cross-origin Response shows these headers only if the server lists them in
 * `Access-Control-Expose-Headers`). Resolves with fn's value;
 * rejects with a RetryError when the policy gives up, or with `signal.reason` when aborted.
 *
 * @example
 * ```
 * import { Policy, retry } from 'seeded-backoff';
 *
 * const policy = new Policy({ preset: 'aws_standard' });
 * const res = await retry(({ signal }) => fetch('/api', { signal }), { policy, signal: AbortSignal.timeout(30000) });
 * ```
 */
export function retry<T>(fn: (attempt: Attempt) => T | Promise<T>, options?: RetryOptions): Promise<T>;

/** The methods `fetchWithBackoff()` retries by default: RFC 9110 §9.2.2's idempotent methods. */
export const IDEMPOTENT_METHODS: readonly ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'];

/** Options for `fetchWithBackoff()`: those of `retry()` and the methods it may retry. */
export type FetchOptions = RetryOptions & {
  /**
   * The methods retried, compared as fetch sends them (SPEC.md §7.1): case-sensitive, but for the
   * six names fetch upper-cases (`'put'` names PUT; `'patch'` is not PATCH). A request with another method is tried once, unless it
   * carries an `Idempotency-Key` header: a POST retried after a network error may have been
   * processed already (a card charged twice).
   * @default ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']
   */
  retryMethods?: readonly string[];
};

/**
 * `fetch` with `retry()`: resolves with the Response of the last attempt that was not retried.
 * A network failure (fetch's TypeError) and a 429/5xx answer are retried for the methods of
 * `retryMethods` and for requests with an `Idempotency-Key` header; an abort is not. A `Request`
 * input gives the method and headers, and is cloned for each attempt.
 *
 * @example
 * ```
 * const res = await fetchWithBackoff('/api', { method: 'GET' }, { maxRetries: 3, attemptTimeoutMs: 10_000 });
 * await fetchWithBackoff('/api/orders', { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body });
 * ```
 */
export function fetchWithBackoff(
  input: RequestInfo | URL,
  init?: RequestInit & { [K in Exclude<keyof FetchOptions, 'signal'>]?: "a retry option: give it in fetchWithBackoff's third argument" },
  options?: FetchOptions,
): Promise<Response>;

/** What a {@link Run} answers: the next thing its loop does (SPEC.md §15). */
export type RunAction =
  /** Make attempt `attempt` (from 1), then report its outcome. */
  | { type: 'attempt'; attempt: number }
  /** Attempt `attempt` failed: sleep `delayMs`, then `wake()` (SPEC.md §14's retry event). */
  | { type: 'retry'; attempt: number; delayMs: number }
  /** Sleep `delayMs` (the wait re-drawn after a pause), then `wake()`. */
  | { type: 'wait'; delayMs: number }
  /** Wait for the pause to end, at most `maxMs` (null: no limit), then `resume()`. */
  | { type: 'paused'; maxMs: number | null }
  /** Succeeded after `attempts` attempts. */
  | { type: 'done'; attempts: number }
  /** Give up after `attempts` attempts: `reason` is the core's, null for a permanent error. */
  | { type: 'give_up'; attempts: number; reason: GiveUpReason | null };

/** A retryable failure for {@link Run.outcome}: its kind and at most one hint. */
export interface RetryableOutcome {
  /** @default 'error' */
  failureKind?: FailureKind;
  /** The server's `Retry-After`, in ms (as `hintFromHeaders()` gives it). */
  retryAfterMs?: number;
  /** A 429's rate-limit reset, in ms. */
  rateLimitMs?: number;
  /** The server said not to retry. */
  doNotRetry?: boolean;
}

/**
 * One call's whole retry run as the core's state machine (SPEC.md §15), for a loop of your own:
 * `retry()` is one. It does no I/O: report each event (with a monotonic clock reading in ms, or
 * none) and do what it answers. An event out of turn throws an Error whose `code` names it
 * (`'start'`, `'outcome'`, `'wake'`, `'pause'`, `'resume'`, `'finished'`) and changes nothing.
 *
 * @example
 * ```
 * import { hintFromHeaders, Policy, Run } from 'seeded-backoff';
 *
 * const run = new Run(new Policy({ maxRetries: 3 }), { seed: 42 });
 * for (let a = run.start(); ; ) {
 *   if (a.type === 'attempt') {
 *     const res = await fetch('/api');
 *     a = run.outcome(res.ok ? 'success' : await hintFromHeaders(res.status, res.headers));
 *   } else if (a.type === 'retry' || a.type === 'wait') {
 *     const ms = a.delayMs;
 *     await new Promise((r) => setTimeout(r, ms));
 *     a = run.wake();
 *   } else break; // 'done' or 'give_up'
 * }
 * ```
 */
export class Run {
  #private;
  /**
   * `sendRate`: start, wake and outcome are paced by it (SPEC.md §15.2): they need a clock
   * reading (else they throw with `code` `'no_clock'`), start and wake may answer `'wait'` or give
   * up `'throttled'` / `'deadline'`, and each outcome is told to it. `startupWindowMs` (0..=2^31 − 1,
   * default 0: none): a run that follows a give-up or an outage begins with a wait drawn in this
   * window from its seed, then attempt 1 (SPEC.md §15.3), so that the devices or tabs that begin
   * again together do not attempt together.
   *
   * A `nowMs` reading is a whole number, or a bigint for the clock's whole range (up to 2^64 − 1).
   */
  constructor(policy: Policy, options?: { seed?: Seed; countPausedTime?: boolean; budget?: BudgetLike; sendRate?: SendRate; startupWindowMs?: number });
  /** The seed of the run's jitter and re-drawn waits. */
  readonly seed: bigint;
  /** The attempts made so far (SPEC.md §14). */
  readonly attempts: number;
  /** Where the run is between events (SPEC.md §15). */
  readonly phase: 'ready' | 'attempting' | 'sleeping' | 'paused' | 'done' | 'gave_up';
  /**
   * Begins the run: answers attempt 1 (or, with a startup window, the wait before it). `options`
   * (here, in `outcome` and in `wake`): `{ sendRate }` paces this event by that send rate, and
   * `{ sendRate: undefined }` makes it plain, whatever the run was made with (SPEC.md §15.2: a run
   * may mix paced and plain events).
   */
  start(nowMs?: number | bigint, options?: { sendRate?: SendRate }): RunAction;
  /**
   * How the attempt in flight ended. With a `sendRate`, `answer` is what the attempt tells it: an
   * HTTP status (100..=599, read by the core with the outcome's hint), or an answer kind
   * (`{ kind: 'throttled', hintMs }` for a hint); omitted, the outcome's own (SPEC.md §15.2).
   */
  outcome(outcome: 'success' | 'permanent' | 'offline' | 'retryable' | RetryableOutcome, nowMs?: number | bigint,
    answer?: number | SendRateAnswer | { kind: SendRateAnswer; hintMs?: number }, options?: { sendRate?: SendRate }): RunAction;
  /** The sleep of a retry or a wait has ended. */
  wake(nowMs?: number | bigint, options?: { sendRate?: SendRate }): RunAction;
  /** The page is hidden or the device offline (before the start, or during a sleep). */
  pause(reason: 'hidden' | 'offline', nowMs?: number | bigint): RunAction;
  /** The pause has ended (or the page was resumed during a sleep): answers the re-drawn wait. */
  resume(nowMs?: number | bigint): RunAction;
}

/**
 * The clock of every run and send rate in the package (SPEC.md §15, §17): whole milliseconds
 * since the epoch, monotonic within a context (`performance.timeOrigin + performance.now()`). A
 * loop of your own over a `Run` that shares a `SendRate` with the package's loops reads it too: a
 * send rate treats a reading earlier than its last as time standing still.
 *
 * @example
 * ```js
 * const run = new Run(new Policy(), { sendRate });
 * const first = run.start(nowMs());
 * ```
 */
export function nowMs(): number;

/**
 * A seed (SPEC.md §12.1) for a device without a hardware random number generator, from its unique
 * id (bytes, or a string as UTF-8, at most 256 bytes) and a counter it keeps across reboots: the
 * same in Rust (`seed_from_device`) and C (`sb_seed_from_device`), distinct for every boot.
 * Uses the fleet part of the engine (its own module, in the program only where it is imported).
 *
 * @throws TypeError if `id` is not a string or a Uint8Array; RangeError for an id over 256 bytes
 * or a `bootCounter` outside 0..=4294967295.
 *
 * @example
 * ```
 * import { Backoff, Policy, seedFromDevice } from 'seeded-backoff';
 *
 * const backoff = new Backoff(new Policy(), seedFromDevice('kiosk-0042', bootCount));
 * ```
 */
export function seedFromDevice(id: string | Uint8Array, bootCounter: number): bigint;

/**
 * How long to wait, in ms, uniform in 0..=windowMs (SPEC.md §12.2), before the first connection
 * after every device lost power at once, so that the fleet reconnects spread over the window.
 *
 * @throws RangeError: `windowMs must be in 0..=2147483647, got …`.
 *
 * @example
 * ```
 * import { seedFromDevice, startupDelay } from 'seeded-backoff/fleet';
 *
 * await new Promise((r) => setTimeout(r, startupDelay(seedFromDevice('kiosk-0042', bootCount), 60_000)));
 * ```
 */
export function startupDelay(seed: Seed, windowMs: number): number;

/** A {@link Pacer}'s configuration (SPEC.md §16.1). */
export interface PacerOptions {
  /** Requests a second the server serves: 1..=1000000. */
  capacityPerS: number;
  /** Thousandths of the capacity kept for first attempts in the first second of a schedule that starts empty (every later second is given whole to returns): 0..=999 (default 0). */
  reservePerMille?: number;
  /** The longest wait it tells, in seconds: 1..=86400 (default 60). */
  maxWaitS?: number;
  /** Makes the spread inside each second reproducible; omitted, a random one. */
  seed?: Seed;
}

/** The headers of a paced refusal (SPEC.md §16.4), lower-case names as node:http takes them. */
export interface PacerHeaders {
  /** `retryAfterS`, delta-seconds. */
  'retry-after': string;
  /** `resetMs` as seconds with three decimals (`"2.350"`). */
  'ratelimit-reset': string;
  /** `"pacer";r=0;t=<retryAfterS>`. */
  ratelimit: string;
}

/** Where a refused request is told to come back (SPEC.md §16.2). */
export interface PacerSlot {
  /** The Retry-After, whole seconds: 1..=maxWaitS. */
  retryAfterS: number;
  /** The return in ms from now, in the same second of the server's clock as now + retryAfterS · 1000. */
  resetMs: number;
  /** The schedule was full up to maxWaitS: this return is past its second's share (answer otherwise, if you like). */
  full: boolean;
  /** The three headers to send with the 429 or 503. */
  headers: PacerHeaders;
}

/**
 * A server's schedule of returns (SPEC.md §16): each request it turns away (429 or 503) gets its
 * own return, at most `capacityPerS` a second (`capacityPerS − capacityPerS · reservePerMille / 1000`
 * in the first second of a schedule that starts empty), so that a
 * refused fleet comes back at the server's capacity instead of all at once. One per server (or per
 * quota). Clock: the server's monotonic one in ms (`performance.now()` by default; a fraction is
 * dropped; an earlier reading than one already seen reads as that one). Bad configuration throws a
 * RangeError (a TypeError for a non-number) naming the field and its range, a bad `nowMs` one
 * naming `nowMs`; the pacer is then unchanged.
 * Server-side: its own wasm part (also `seeded-backoff/pacer`), which retry() never loads.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { Pacer } from 'seeded-backoff';
 * const pacer = new Pacer({ capacityPerS: 100, reservePerMille: 100 });
 * createServer((req, res) => {
 *   res.statusCode = 429;
 *   pacer.pace(res); // retry-after, ratelimit-reset, ratelimit
 *   res.end();
 * }).listen(8080);
 */
export class Pacer {
  constructor(options: PacerOptions);
  /** Assigns a request refused at `nowMs` its return. */
  assign(nowMs?: number | bigint): PacerSlot;
  /** The returns still scheduled after `nowMs`: a queue length to report, or to refuse first attempts on while it drains. */
  pending(nowMs?: number | bigint): number;
  /**
   * For a response whose `statusCode` is 429 or 503 (node:http's ServerResponse, Express's res):
   * assigns its return and sets the three headers. Throws, taking no return, if the headers are
   * already sent. Returns the slot, or undefined (nothing set) for another status.
   */
  pace(res: PacedResponse, nowMs?: number | bigint): PacerSlot | undefined;
}

/** What {@link Pacer.pace} needs of a response: node:http's ServerResponse and Express's res have it. */
export interface PacedResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
}

/** `pacer.pace(res, nowMs)`. */
export function pace(res: PacedResponse, pacer: Pacer, nowMs?: number | bigint): PacerSlot | undefined;
/** `pacer.pace(res, nowMs)` for a SharedPacer (seeded-backoff/shared): a promise. */
export function pace(res: PacedResponse, pacer: SharedPacer, nowMs?: number | bigint): Promise<PacerSlot | undefined>;

/**
 * A {@link SendRate}'s configuration (SPEC.md §17.1): every field optional, the core's defaults.
 * Rates are thousandths of a request per second.
 */
export interface SendRateOptions {
  /** The highest rate probing reaches: 1..=1000000000 (default 1000000000). */
  maxRateMilli?: number;
  /** The lowest rate a throttle brings it to: 1..=maxRateMilli (default 1: one request every 1000 s). */
  minRateMilli?: number;
  /** How far under the accepted rate measured over the last second a throttle sets the rate, in thousandths: 1..=500 (default 20). */
  marginPermille?: number;
  /** How often the rate grows without a throttle, ms: 10..=60000 (default 500). */
  probeMs?: number;
  /** The first growth after a throttle, in thousandths of the rate: 1..=probeMaxPermille (default 10); it doubles each probe. */
  probeFirstPermille?: number;
  /** The largest growth per probe, in thousandths: 1..=1000 (default 250). */
  probeMaxPermille?: number;
  /** Throttles within this many ms of a decrease do not decrease again: 0..=60000 (default 0). */
  guardMs?: number;
  /** Attempts that may go at once after an idle spell: 1..=1000 (default 2). */
  burst?: number;
  /** The longest a server's hint holds every attempt back, ms: 0..=3600000 (default 60000). */
  maxHoldMs?: number;
  /** Refuse an attempt that would have to wait instead of telling it to wait (a gateway answering 429 upstream); default false. */
  failFast?: boolean;
}

/** What {@link SendRate.ask} answers before an attempt. */
export interface SendRatePace {
  /** `'send'` now; `'wait'` ms, then ask again (nothing is reserved); `'refuse'` (failFast): do not send. */
  kind: 'send' | 'wait' | 'refuse';
  /** The wait in ms (for `'refuse'`, the wait sending would have taken); 0 for `'send'`. */
  ms: number;
}

/** A server's answer as a send rate reads it (SPEC.md §17.3). */
export type SendRateAnswer = 'accepted' | 'throttled' | 'no_answer';

/**
 * An adaptive send rate (SPEC.md §17): one per process and server, shared by every request to it.
 * It is off until the first throttle; then it sets the rate to what the server accepted over the
 * last second less a margin, spaces attempts evenly at it, holds every attempt while a server's
 * hint lasts, and probes upwards without throttles. Ask before every attempt (first attempts
 * included) and report every answer. One object may be shared by any number of concurrent
 * requests (JS runs each call whole). Clock: a monotonic one in ms (`nowMs()`, the package's, by
 * default; a fraction is dropped; an earlier reading than one already seen reads as that one). Bad
 * configuration throws a RangeError (a TypeError for a wrong type) naming the field and its range.
 * Its own wasm part (also `seeded-backoff/send-rate`).
 *
 * @example
 * import { SendRate } from 'seeded-backoff';
 * const rate = new SendRate();
 * async function call(url) {
 *   await rate.waitTurn();
 *   const res = await fetch(url);
 *   rate.answer(res.status === 429 ? 'throttled' : 'accepted');
 *   return res;
 * }
 */
export class SendRate {
  constructor(options?: SendRateOptions);
  /** Before an attempt at `nowMs` (SPEC.md §17.4). */
  ask(nowMs?: number | bigint): SendRatePace;
  /**
   * Reports the answer to an attempt at `nowMs` (SPEC.md §17.5); `hintMs` is a throttle's
   * Retry-After or rate-limit reset in ms (0: none); `sentMs` when the attempt was sent (omitted:
   * at `nowMs`), so that a throttle of an attempt sent before the rate's last cut cuts it no more.
   */
  answer(kind: SendRateAnswer, hintMs?: number, nowMs?: number | bigint, sentMs?: number | bigint): void;
  /** Sleeps until {@link SendRate.ask} says send (resolves `{ kind: 'send', ms: 0 }`), or with failFast resolves the first refusal; rejects with the signal's reason on abort. */
  waitTurn(options?: { signal?: AbortSignal }): Promise<SendRatePace>;
  /** The learnt rate in thousandths of a request per second; 0 while off (no throttle yet). */
  readonly rateMilli: number;
}
