// retry() and fetchWithBackoff(): the async orchestration (call, classify, sleep, abort). Every
// delay comes from the core through Backoff.
import { Backoff } from './backoff.js';
import { RetryBudget } from './budget.js';
import { fn, keys } from './check.js';
import { isRetryableStatus, parseRetryAfter } from './headers.js';
import { OPTION_KEYS } from './policy.js';
import { init } from './wasm.js';

const RETRY_KEYS = [...OPTION_KEYS, 'signal', 'shouldRetry', 'onRetry', 'budget'];

/** Why retry() stopped: `cause` is the last error (or the last retryable Response). */
export class RetryError extends Error {
  constructor(cause, attempts, reason) {
    const what = cause instanceof Error ? cause.message : `HTTP ${cause?.status}`;
    super(`gave up after ${attempts} attempts (${reason}): ${what}`, { cause });
    this.name = 'RetryError';
    this.attempts = attempts;
    this.reason = reason;
  }
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isResponse(v) {
  return typeof Response === 'function' && v instanceof Response;
}

export async function retry(fnToRetry, options = {}) {
  fn('fn', fnToRetry);
  keys('retry options', options, RETRY_KEYS);
  const { signal, shouldRetry, onRetry, budget, ...policy } = options;
  if (shouldRetry !== undefined) fn('shouldRetry', shouldRetry);
  if (onRetry !== undefined) fn('onRetry', onRetry);
  if (budget !== undefined && !(budget instanceof RetryBudget)) {
    throw new TypeError('budget must be a RetryBudget');
  }
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') {
    throw new TypeError('signal must be an AbortSignal');
  }
  await init();
  const backoff = new Backoff(policy);
  const start = performance.now();
  try {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let error;
      let retryAfterMs;
      try {
        const value = await fnToRetry({ attempt, signal });
        if (!isResponse(value) || !isRetryableStatus(value.status)) {
          budget?.recordSuccess(attempt ? 'error' : undefined);
          return value;
        }
        error = value;
        const header = value.headers.get('retry-after');
        // An unparseable Retry-After is ignored, as RFC 9110 lets a recipient do.
        try {
          if (header !== null) retryAfterMs = parseRetryAfter(header);
        } catch {}
      } catch (e) {
        signal?.throwIfAborted();
        if (shouldRetry && !(await shouldRetry(e))) throw e;
        error = e;
      }
      const elapsedMs = Math.floor(performance.now() - start);
      const delayMs = backoff.nextDelay({ retryAfterMs, budget, elapsedMs });
      if (delayMs === null) throw new RetryError(error, attempt + 1, backoff.giveUpReason);
      // Frees the connection of a response that will not be read.
      if (isResponse(error)) error.body?.cancel().catch(() => {});
      onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  } finally {
    backoff.free();
  }
}

export function fetchWithBackoff(input, init, options = {}) {
  const signal = options.signal ?? init?.signal;
  return retry(({ signal: s }) => fetch(input, { ...init, signal: s }), { ...options, signal });
}
