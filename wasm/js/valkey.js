// Reconnect delays for iovalkey and ioredis: `retryStrategy(times)` from one seeded Backoff per
// connection. Their default, min(times × 50, 2000) ms, has no randomness: every client that lost
// the same server reconnects in step. The client calls retryStrategy with times = 1, 2, ... after
// each failed (re)connection and counts from 1 again once it is ready, so the schedule restarts
// there; when the policy gives up, null ends the client's reconnecting ('end').
import { Backoff, Policy } from './index.js';

const KEYS = ['policy', 'seed', 'onRetry'];

/** A `retryStrategy` for one iovalkey/ioredis client (one connection): give each client its own. */
export function retryStrategy(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${String(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (!KEYS.includes(k)) throw new TypeError(`unknown option ${JSON.stringify(k)}: expected one of ${KEYS.join(', ')}`);
  }
  const { onRetry } = options;
  if (onRetry !== undefined && typeof onRetry !== 'function') {
    throw new TypeError(`onRetry must be a function, got ${String(onRetry)}`);
  }
  const backoff = new Backoff(options.policy ?? new Policy({ preset: 'google' }), options.seed);
  return function strategy(times) {
    if (!Number.isInteger(times) || times < 1) {
      throw new RangeError(`times must be an integer >= 1 (the reconnection attempt), got ${String(times)}`);
    }
    if (times === 1) backoff.reset();
    const delayMs = backoff.nextDelay();
    onRetry?.({ times, delayMs, reason: delayMs === null ? backoff.giveUpReason : null });
    return delayMs;
  };
}
