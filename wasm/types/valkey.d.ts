// `seeded-backoff/valkey` (Node only): reconnect delays for iovalkey and ioredis.
import type { GiveUpReason, Policy } from './index.js';

export interface RetryStrategyOptions {
  /** The schedule (default: Google's preset: 10 reconnection attempts, then null). */
  policy?: Policy;
  /** This client's seed: the same seed gives the same delays; omitted, a random one. */
  seed?: number | bigint;
  /** Told of each answer; `delayMs` null with the reason when the policy gives up. */
  onRetry?: (info: { times: number; delayMs: number | null; reason: GiveUpReason | null }) => void;
}

/**
 * A `retryStrategy(times)` for one iovalkey/ioredis client: the core's next delay in ms, the
 * schedule restarting when `times` is 1 (the client counts again from 1 once it is ready), and
 * null (stop reconnecting) when the policy gives up. Give each client its own.
 *
 * @example
 * ```js
 * const client = new Valkey({ port, retryStrategy: retryStrategy({ seed: 7 }) });
 * ```
 */
export function retryStrategy(options?: RetryStrategyOptions): (times: number) => number | null;
