// Reconnect delays for iovalkey and ioredis: `retryStrategy(times)` over one seeded run of the
// core per connection (SPEC.md §15). Their default, min(times × 50, 2000) ms, has no randomness:
// every client that lost the same server reconnects in step. The client calls retryStrategy with
// times = 1, 2, ... after each failed (re)connection and counts from 1 again once it is ready: a
// new run begins there, with the next call's seed. When the run gives up, null ends the
// client's reconnecting ('end'). The callbacks speak SPEC.md §14: `onRetry({ attempt, delayMs,
// error })`, and `onGiveUp(error)` with a RetryError.
//
// `paceConnections(client, { sendRate })` gates the connections themselves: every connection and
// reconnection of every client given the same SendRate (SPEC.md §17) first awaits
// `sendRate.waitTurn()` (the core's ask, §17.4), then tells the rate 'accepted' once the socket
// connects (the server answered) and 'no_answer' when it fails or closes first (refused, reset,
// connectTimeout). Redis has no throttle reply: such a rate paces what the other loops sharing it
// (HTTP ones) learnt, as the Python integration's does. The gate is the client's connector, not the
// strategy: iovalkey asks retryStrategy for a delay synchronously, and a slot taken then, a backoff
// ahead, would hold back every other user of the rate until it; the connector's `connect()`
// returns a promise, so it can wait for its turn when it is about to connect. iovalkey exports no
// default connector class (StandaloneConnector is not exported; the `Connector` option replaces
// it, and sentinels' too), so this wraps the client's own connector, whatever its kind: give it a
// client made with `lazyConnect: true`, so that its first connection is paced too. A fail-fast
// rate's refusal fails that connect with the core's give-up (a RetryError, reason 'throttled', 0
// attempts, no cause, as retry() gives it): each connection's turn is a paced run's start. iovalkey
// then flushes the client's queue with it, emits it as 'error' and ends the client ('end'), with
// no more reconnecting (as Python's paced Retry raises it).
import { keys } from './check.js';
import { callSeed, nowMs, Policy, RetryError, Run } from './all.js';

const KEYS = ['policy', 'seed', 'onRetry', 'onGiveUp'];

/** A `retryStrategy` for one iovalkey/ioredis client (one connection): give each client its own. */
export function retryStrategy(options = {}) {
  keys('retryStrategy options', options, KEYS);
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
  const clock = nowMs;
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

// iovalkey's message for a connection closed before it was made (its connector's own).
const CLOSED = 'Connection is closed.';

/**
 * Paces every connection of `client` (an iovalkey/ioredis client made with `lazyConnect: true`)
 * by `sendRate`, shared by the clients of one server; returns the client.
 */
export function paceConnections(client, options = {}) {
  keys('paceConnections options', options, ['sendRate']);
  const { sendRate } = options;
  // Checked as the adapters check it: a Run given anything but a SendRate throws the package's
  // TypeError naming sendRate (undefined too: here the rate is the point).
  if (sendRate === undefined) throw new TypeError('sendRate must be a SendRate, got undefined');
  const policy = new Policy({ preset: 'google' });
  new Run(policy, { sendRate });
  const connector = client?.connector;
  if (typeof connector?.connect !== 'function' || typeof connector.disconnect !== 'function' || client.status !== 'wait') {
    throw new TypeError('client must be an iovalkey/ioredis client made with lazyConnect: true (not yet connected)');
  }
  const connect = connector.connect.bind(connector);
  const disconnect = connector.disconnect.bind(connector);
  // The event iovalkey itself waits for: 'secureConnect' over TLS, but a sentinel's connection
  // is plain unless enableTLSForSentinelMode.
  const o = client.options ?? {};
  const tls = !!o.tls && !(o.sentinels && !o.enableTLSForSentinelMode);
  let abort = null;
  // Own properties over the connector's methods: the client calls `this.connector.connect(...)`.
  connector.disconnect = (...args) => {
    abort?.abort(new Error(CLOSED));
    return disconnect(...args);
  };
  connector.connect = async (...args) => {
    const signal = (abort = new AbortController()).signal;
    // The connection's turn: a paced run's start (SPEC.md §15.2). A disconnect while waiting
    // ends the connect as the library's own would (its message).
    // The package's one clock, which the send rate reads too (nowMs()).
    const run = new Run(policy, { sendRate });
    let a = run.start(nowMs());
    while (a.type === 'wait') {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, a.delayMs);
        signal.addEventListener('abort', () => reject(signal.reason, clearTimeout(timer)), { once: true });
      });
      a = run.wake(nowMs());
    }
    if (a.type === 'give_up') throw new RetryError(undefined, a.attempts, a.reason);
    let stream;
    try {
      stream = await connect(...args);
    } catch (error) {
      sendRate.answer('no_answer');
      throw error;
    }
    tell(stream, tls, sendRate);
    return stream;
  };
  return client;
}

/** Tells `sendRate` whether `stream` connects ('accepted') or fails or closes first ('no_answer'). */
function tell(stream, tls, sendRate) {
  if (!stream.connecting) {
    sendRate.answer(stream.destroyed ? 'no_answer' : 'accepted');
    return;
  }
  const connected = () => {
    stream.removeListener('close', closed);
    sendRate.answer('accepted');
  };
  const closed = () => {
    stream.removeListener(tls ? 'secureConnect' : 'connect', connected);
    sendRate.answer('no_answer');
  };
  stream.once(tls ? 'secureConnect' : 'connect', connected);
  stream.once('close', closed);
}
