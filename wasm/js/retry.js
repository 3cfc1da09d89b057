// retry() and fetchWithBackoff(): the async orchestration (call, classify, sleep, abort). Every
// delay comes from the core. The core's state is used directly rather than through Backoff, so
// that a bundle of retry() does not carry the Backoff class.
import * as glue from '../pkg/seeded_backoff.js';
import { budgetId } from './budget-id.js';
import { fn, keys } from './check.js';
import { GIVE_UP, OPTION_KEYS, policyFields, seedHalves } from './policy.js';
import { init } from './wasm.js';

const encoder = new TextEncoder();
const RETRY_KEYS = [...OPTION_KEYS, 'signal', 'shouldRetry', 'onRetry', 'budget'];

/** Why retry() stopped: `cause` is the last error (or the last retryable Response). */
export class RetryError extends Error {
  constructor(cause, attempts, reason) {
    super(`gave up after ${attempts} attempts (${reason}): ${cause instanceof Error ? cause.message : `HTTP ${cause?.status}`}`, { cause });
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

const isResponse = (v) => typeof Response === 'function' && v instanceof Response;

export async function retry(fnToRetry, options = {}) {
  fn('fn', fnToRetry);
  keys('retry options', options, RETRY_KEYS);
  const { signal, shouldRetry, onRetry, budget, ...policy } = options;
  if (shouldRetry !== undefined) fn('shouldRetry', shouldRetry);
  if (onRetry !== undefined) fn('onRetry', onRetry);
  const id = budget === undefined ? 0 : budgetId(budget);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') {
    throw new TypeError('signal must be an AbortSignal');
  }
  const fields = policyFields(policy, 'retry options');
  const [lo, hi] = seedHalves(policy.seed);
  await init();
  const state = new glue.BackoffState(...fields, lo, hi);
  const start = performance.now();
  try {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let error;
      let hint;
      try {
        const value = await fnToRetry({ attempt, signal });
        // Response statuses are integers in 200..=599: no checks needed before the core.
        if (!isResponse(value) || !glue.isRetryableHttp(value.status)) {
          if (id) glue.budgetRecordSuccess(id, attempt ? 1 : 0);
          return value;
        }
        error = value;
        // An absent or unparseable Retry-After (a negative answer) is ignored, as RFC 9110 lets a
        // recipient do.
        const ms = glue.parseRetryAfterBytes(encoder.encode(value.headers.get('retry-after') ?? ''), Date.now() / 1000);
        if (ms >= 0) hint = ms;
      } catch (e) {
        signal?.throwIfAborted();
        if (shouldRetry && !(await shouldRetry(e))) throw e;
        error = e;
      }
      const elapsed = Math.floor(performance.now() - start);
      const delayMs = state.step(hint === undefined ? 0 : 1, hint ?? 0, true, elapsed, 0, id, false);
      if (delayMs < 0) throw new RetryError(error, attempt + 1, GIVE_UP[-delayMs]);
      // Frees the connection of a response that will not be read.
      if (isResponse(error)) error.body?.cancel().catch(() => {});
      onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  } finally {
    state.free();
  }
}

export function fetchWithBackoff(input, init, options = {}) {
  const signal = options.signal ?? init?.signal;
  return retry(({ signal: s }) => fetch(input, { ...init, signal: s }), { ...options, signal });
}
