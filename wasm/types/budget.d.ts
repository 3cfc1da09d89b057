// `seeded-backoff/budget`: a retry budget (gRFC A6 throttling, the AWS SDKs' quota; the budget
// wasm part), shared by the calls that should stop retrying together.
import type { FailureKind } from './index.js';

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
