// `seeded-backoff/valkey` (Node only): reconnect delays for iovalkey and ioredis, and connections
// paced by a shared send rate.
import type { Policy, RetryError } from './index.js';
import type { SendRate } from './send-rate.js';

export interface RetryStrategyOptions {
  /** The schedule (default: Google's preset: 10 reconnection attempts, then null). */
  policy?: Policy;
  /** This client's seed: the same seed gives the same delays; omitted, a random one. */
  seed?: number | bigint;
  /**
   * Told of each delay before the strategy returns it (SPEC.md §14: `attempt` is the failed
   * connection's number in the outage, from 1; `error` is null, the client does not pass it).
   */
  onRetry?: (info: { attempt: number; delayMs: number; error: null }) => void;
  /** Told when the strategy returns null: a RetryError with the attempts and the reason. */
  onGiveUp?: (error: RetryError) => void;
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

export interface PaceConnectionsOptions {
  /**
   * A {@link SendRate} shared by the clients of one server (and any other loop sending to it).
   * Any other value, or none, is a TypeError naming `sendRate`.
   */
  sendRate: SendRate;
}

/**
 * Paces every connection and reconnection of `client` by `sendRate` (SPEC.md §17): its connector
 * first awaits `sendRate.waitTurn()`, then tells the rate 'accepted' once the socket connects and
 * 'no_answer' when it fails or closes first. Redis has no throttle reply, so the rate paces what
 * the other loops sharing it learnt (or the rate it is fixed at). With `failFast`, a refusal fails
 * the connect with a RetryError (reason 'throttled'): iovalkey emits it as 'error', rejects the
 * queued commands with it and ends the client, without reconnecting. Make the client with
 * `lazyConnect: true` (a TypeError otherwise), so its first connection is paced too; returns it.
 *
 * @example
 * ```js
 * const sendRate = new SendRate({ minRateMilli: 50_000, maxRateMilli: 50_000 });
 * sendRate.answer('throttled'); // on, fixed at 50 connections a second
 * const clients = Array.from({ length: 20 }, (_, i) => paceConnections(
 *   new Valkey({ port, lazyConnect: true, retryStrategy: retryStrategy({ seed: i }) }), { sendRate }));
 * ```
 */
export function paceConnections<C extends object>(client: C, options: PaceConnectionsOptions): C;
