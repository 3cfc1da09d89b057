// Types of the npm package `seeded-backoff`. Every delay is computed by the Rust core (compiled to
// WebAssembly); SPEC.md in the repository has every formula.

// `Symbol.dispose` for projects whose `lib` predates it (as @types/node declares it).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A named starting point; options given next to it override its fields. */
export type Preset = 'google' | 'google_64s' | 'aws_standard' | 'grpc';

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
export type GiveUpReason = 'max_retries' | 'deadline' | 'budget' | 'server_stop';

/** A seed: a non-negative safe integer, or a bigint up to 2^64 − 1. */
export type Seed = number | bigint;

/**
 * The retry policy. Every field is optional: without a preset the defaults are Google's
 * (1 s, ×2, 32 s cap, 10 retries, 0–1000 ms jitter). Unknown keys are rejected (a typo).
 */
export interface BackoffOptions {
  /** Start from a preset; the other options override its fields. */
  preset?: Preset;
  /**
   * The jitter seed. Omitted, it is drawn from `crypto.getRandomValues`. Equal seeds give equal
   * schedules in every language (use that in tests, not in production).
   */
  seed?: Seed;
  /** The first delay's base in ms, 1..=2147483647. */
  initialMs?: number;
  /** The growth factor, 1..=1000 with at most three decimals (gRPC's 1.6 is exact). */
  multiplier?: number;
  /** The cap on every computed delay in ms, initialMs..=2147483647. */
  maxBackoffMs?: number;
  /** Retries before giving up (0 = never retry), 0..=4294967295. */
  maxRetries?: number;
  /** The jitter strategy. */
  jitter?: Jitter;
  /** Width of `'google'` jitter in ms, 0..=maxBackoffMs (default 1000). */
  jitterMs?: number;
  /** Half-width of `'proportional'` jitter in thousandths, 0..=1000 (default 200). */
  spreadPerMille?: number;
  /** Time budget in ms since the first attempt, 0 = none. */
  maxElapsedMs?: number;
  /** The largest Retry-After honoured, in ms, 0..=2147483647 (default: maxBackoffMs). */
  maxHintMs?: number;
  /** A delay that would cross `maxElapsedMs`: give up (default) or shorten it to fit. */
  deadline?: 'give_up' | 'clamp';
}

/** What one step can be told besides "the last attempt failed". */
export interface StepInput {
  /** The server's Retry-After in ms: a lower bound on the delay (clamped to maxHintMs). */
  retryAfterMs?: number;
  /** The server said not to retry: gives up with `'server_stop'`. */
  doNotRetry?: boolean;
  /** Your clock: ms since the first attempt (counts request time against maxElapsedMs). */
  elapsedMs?: number | bigint;
  /** A shared budget: records this failure, and gives up with `'budget'` when it refuses. */
  budget?: RetryBudget;
  /** What failed, for the AWS quota's costs (default `'error'`). */
  failureKind?: FailureKind;
}

export type FailureKind = 'error' | 'timeout';

/**
 * One request's retry state (32 bytes in wasm memory). Call `free()` (or `using`) when done; a
 * forgotten one is freed by the garbage collector.
 *
 * @example
 * const b = new Backoff({ preset: 'google', seed: 42 });
 * b.nextDelay(); // 1000..2000 (ms)
 */
export class Backoff implements Iterable<number> {
  constructor(options?: BackoffOptions);
  /** Rebuilds a Backoff from `snapshot()` bytes, under the same policy options. */
  static restore(options: BackoffOptions, bytes: Uint8Array): Backoff;
  /** The delay in ms before the next retry, or `null` to give up (see `giveUpReason`). */
  nextDelay(input?: StepInput): number | null;
  /** `nextDelay({ retryAfterMs })`. */
  nextDelayWithHint(retryAfterMs: number): number | null;
  /** Why it gave up, or `null`. */
  readonly giveUpReason: GiveUpReason | null;
  /** Retries issued since creation or the last `reset()`. */
  readonly retries: number;
  /** The sum of issued delays (or your clock plus the last delay), in ms. */
  readonly elapsedMs: number;
  /** Start over after a success (the random stream continues). */
  reset(): void;
  /** The state in 40 bytes, e.g. for sessionStorage across a reload. */
  snapshot(): Uint8Array;
  /** The delays until giving up. */
  [Symbol.iterator](): Iterator<number>;
  /** Releases the wasm memory; later calls throw. */
  free(): void;
  [Symbol.dispose](): void;
}

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

/** A token bucket shared by every request to one server, so a struggling server is not buried. */
export class RetryBudget {
  constructor(options?: GrpcBudgetOptions | AwsQuotaBudgetOptions);
  recordFailure(kind?: FailureKind): void;
  /** Asks for a retry; `false` means give up. */
  tryAcquire(kind?: FailureKind): boolean;
  /** A success; `retriedKind` is what the successful retry followed, if it was a retry. */
  recordSuccess(retriedKind?: FailureKind): void;
  readonly tokens: number;
  readonly tokensMilli: number;
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Milliseconds to wait for a `Retry-After` value (delta-seconds or any of the three HTTP-date
 * formats), from `nowMs` (Unix ms, default `Date.now()`). A date in the past gives 0.
 * @throws SyntaxError with `code` (`'empty'`, `'invalid_format'`, `'bad_day'`, …) if it does not parse.
 */
export function parseRetryAfter(value: string | Uint8Array, nowMs?: number): number;

/** 429 and 5xx. */
export function isRetryableStatus(status: number): boolean;

export type Classification = 'success' | 'retry' | 'do_not_retry' | 'invalid';
export function classifyStatus(status: number): Classification;
export function classifyGrpcCode(code: number): Classification;

/** The wasm heap's size in bytes (diagnostics: it only grows). */
export function wasmMemoryBytes(): number;

export interface Attempt {
  /** 0 for the first call. */
  attempt: number;
  signal?: AbortSignal;
}

export interface RetryOptions extends BackoffOptions {
  /** Aborts the whole retry, including a sleep, at once; rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Return (or resolve) false to stop on a thrown error: it is rethrown as is. */
  shouldRetry?: (error: unknown) => boolean | Promise<boolean>;
  /** Called before each sleep. `error` is the thrown error or the retryable Response. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** A shared retry budget. */
  budget?: RetryBudget;
}

/** retry() gave up: `cause` is the last error (or the last retryable Response). */
export class RetryError extends Error {
  readonly name: 'RetryError';
  readonly cause: unknown;
  /** How many times fn was called. */
  readonly attempts: number;
  readonly reason: GiveUpReason;
}

/**
 * Calls `fn` until it succeeds. A thrown error, or a returned Response with status 429 or 5xx, is
 * retried after the core's delay (a Retry-After header is honoured). Resolves with fn's value;
 * rejects with a RetryError when the policy gives up, or with `signal.reason` when aborted.
 */
export function retry<T>(fn: (attempt: Attempt) => T | Promise<T>, options?: RetryOptions): Promise<T>;

/** `fetch` with retry(): the Response of the last attempt that was not retried. */
export function fetchWithBackoff(
  input: RequestInfo | URL,
  init?: RequestInit,
  options?: RetryOptions,
): Promise<Response>;

/**
 * Browsers: instantiate the wasm once before using the synchronous API (`retry` and
 * `fetchWithBackoff` call it themselves). In Node it is already done. `input` defaults to
 * `seeded_backoff_bg.wasm` next to the module.
 */
export function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Instantiates the wasm from bytes you already have, synchronously. */
export function initSync(module: BufferSource | WebAssembly.Module): void;
