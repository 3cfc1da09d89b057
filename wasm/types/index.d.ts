// Types and documentation of the main entry of the npm package `seeded-backoff`: retry(),
// fetchWithBackoff(), Policy, Backoff and Run. Each concern beyond them is its own entry point
// (retry-after, snapshot, budget, fleet, pacer, send-rate, outbox), documented in its own file.
// Every delay, parsed header, budget decision and snapshot byte is computed by the Rust core
// (compiled to WebAssembly, inlined in the package's JS: nothing to fetch or initialise); SPEC.md
// in the repository has every formula. The unions below (presets, jitters, give-up reasons, error
// codes) are checked against the core's tables by the package's tests.

import type { SendRate, SendRateAnswer } from './send-rate.js';
import type { SharedBudget, SharedSendRate } from './shared.js';

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

/**
 * What a budget is to `retry()`, `Run` and `nextDelay()`: a {@link RetryBudget}, or any object
 * with its three methods (the core asks it through them, SPEC.md §10).
 */
export interface BudgetLike {
  recordFailure(kind?: FailureKind): void;
  tryAcquire(kind?: FailureKind): boolean;
  recordSuccess(retriedKind?: FailureKind): void;
}

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
   * import { fetchWithBackoff } from 'seeded-backoff';
   * import { SendRate } from 'seeded-backoff/send-rate';
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

