// Reconnect delays for iovalkey and ioredis: `retryStrategy(times)` over one seeded run of the
// core per connection (SPEC.md §15). Their default, min(times × 50, 2000) ms, has no randomness:
// every client that lost the same server reconnects in step. The client calls retryStrategy with
// times = 1, 2, ... after each failed (re)connection and counts from 1 again once it is ready: a
// new run begins there, with the next call's seed. When the run gives up, null ends the
// client's reconnecting ('end'). The callbacks speak SPEC.md §14: `onRetry({ attempt, delayMs,
// error })`, and `onGiveUp(error)` with a RetryError.
import { callSeed, Policy, RetryError, Run } from './index.js';

const KEYS = ['policy', 'seed', 'onRetry', 'onGiveUp'];

/** A `retryStrategy` for one iovalkey/ioredis client (one connection): give each client its own. */
export function retryStrategy(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${String(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (!KEYS.includes(k)) throw new TypeError(`unknown option ${JSON.stringify(k)}: expected one of ${KEYS.join(', ')}`);
  }
  const { onRetry, onGiveUp } = options;
  for (const k of ['onRetry', 'onGiveUp']) {
    if (options[k] !== undefined && typeof options[k] !== 'function') {
      throw new TypeError(`${k} must be a function, got ${String(options[k])}`);
    }
  }
  const policy = options.policy ?? new Policy({ preset: 'google' });
  // The seed is checked here, once; outage i of the connection runs with callSeed(seed, i)
  // (SPEC.md §14).
  const seed = new Run(policy, { seed: options.seed }).seed;
  let outages = 0;
  let run;
  const clock = () => Math.floor(performance.now());
  return function strategy(times) {
    if (!Number.isInteger(times) || times < 1) {
      throw new RangeError(`times must be an integer >= 1 (the reconnection attempt), got ${String(times)}`);
    }
    if (times === 1 || !run) {
      run = new Run(policy, { seed: callSeed(seed, outages++) });
      run.start(clock());
    } else {
      run.wake(clock());
    }
    const a = run.outcome({}, clock());
    if (a.type === 'give_up') {
      onGiveUp?.(new RetryError(new Error('the connection could not be made again'), a.attempts, a.reason));
      return null;
    }
    onRetry?.({ attempt: a.attempt, delayMs: a.delayMs, error: null });
    return a.delayMs;
  };
}
