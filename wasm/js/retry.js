// retry() and fetchWithBackoff(): the async orchestration (call, classify, sleep, abort). Every
// delay, class and parsed header comes from the core.
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { CLASSES, GIVE_UP, HINT_NONE, OPTIONS } from '../pkg/tables.js';
import { fail, fn, keys, show } from './check.js';
import { STEP } from './internal.js';
import { datePart, responseHint } from './hint.js';
import { isPolicy, Policy, seedHalves } from './policy.js';
import { start, step } from './state.js';
import { init } from './wasm.js';

const RETRY_KEYS = [...OPTIONS, 'policy', 'seed', 'signal', 'shouldRetry', 'onRetry', 'budget'];
const OWN = ['policy', 'seed', 'signal', 'shouldRetry', 'onRetry', 'budget'];
datePart(false);

/** Whether `v` is a `Response` (false for a value `instanceof` cannot ask, a revoked proxy). */
function isResponse(v) {
  try {
    return typeof Response === 'function' && v instanceof Response;
  } catch {
    return false;
  }
}

/** What a failed attempt was, for a message: an Error's message, a Response's status, or a value. */
function describe(e) {
  try {
    if (e instanceof Error) return e.message;
  } catch {
    // A revoked proxy: described as the object it is.
  }
  return isResponse(e) ? `HTTP ${e.status}` : `threw ${show(e)}`;
}

/** Why retry() stopped: `cause` is the last error (or the last retryable Response). */
export class RetryError extends Error {
  constructor(cause, attempts, reason) {
    super(`gave up after ${attempts} attempts (${reason}): ${describe(cause)}`, { cause });
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

export async function retry(fnToRetry, options = {}) {
  fn('fn', fnToRetry);
  keys('retry options', options, RETRY_KEYS);
  const { policy, seed, signal, shouldRetry, onRetry, budget } = options;
  for (const k of ['shouldRetry', 'onRetry']) if (options[k] !== undefined) fn(k, options[k]);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') {
    fail(TypeError, 'signal', 'an AbortSignal', signal);
  }
  if (budget !== undefined && typeof budget?.[STEP] !== 'function') {
    fail(TypeError, 'budget', 'a RetryBudget', budget);
  }
  if (policy !== undefined) {
    if (!isPolicy(policy)) fail(TypeError, 'policy', 'a Policy', policy);
    const both = OPTIONS.find((k) => options[k] !== undefined);
    if (both) throw new TypeError(`give either policy or policy options such as ${both}, not both`);
  }
  await init();
  const rec = start(policy ?? new Policy(options, 'retry options', OWN), ...seedHalves(seed));
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    let error;
    let hint = [HINT_NONE, 0];
    try {
      const value = await fnToRetry({ attempt, signal });
      if (!isResponse(value) || CLASSES[glue.classifyHttp(value.status)] !== 'retry') {
        budget?.recordSuccess(attempt ? 'error' : undefined);
        return value;
      }
      error = value;
      // Retry-After, else (on a 429) the rate-limit headers: the core's rules, in hint.js.
      hint = await responseHint(value);
    } catch (e) {
      signal?.throwIfAborted();
      if (shouldRetry && !(await shouldRetry(e))) throw e;
      error = e;
    }
    // Elapsed ms since the first attempt, by the monotonic clock (below 2^32 for 49 days).
    const elapsedMs = Math.min(Math.floor(performance.now() - t0), 4294967295);
    const delayMs = step(rec, hint[0], hint[1], true, elapsedMs, 0, budget, false);
    if (delayMs < 0) throw new RetryError(error, attempt + 1, GIVE_UP[-delayMs]);
    // Frees the connection of a response that will not be read.
    if (isResponse(error)) error.body?.cancel().catch(() => {});
    onRetry?.({ attempt, delayMs, error });
    await sleep(delayMs, signal);
  }
}

export function fetchWithBackoff(input, init, options = {}) {
  const signal = options.signal ?? init?.signal;
  return retry(({ signal: s }) => fetch(input, { ...init, signal: s }), { ...options, signal });
}
