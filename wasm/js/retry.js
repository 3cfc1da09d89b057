// retry() and fetchWithBackoff(): the async orchestration (call, classify, sleep, abort; pauses in
// pause.js). Every delay, class and parsed header comes from the core. The first attempt is made in
// the same tick as the call: the engine is loaded only when options must be checked or a delay
// computed.
import { main } from '../pkg/main-part.js';
import { CLASSES, GIVE_UP, HINT_NONE, IDEMPOTENT_METHODS, OPTIONS } from '../pkg/tables.js';
import { bool, fail, fn, int, keys, oneOf, show } from './check.js';
import { get, load } from './engine.js';
import { STEP } from './internal.js';
import { responseHint } from './hint.js';
import { isPolicy, Policy, seedHalves } from './policy.js';
import { offline, onAbort, rest } from './pause.js';
import { start, step, word } from './state.js';

const OWN = ['policy', 'seed', 'signal', 'shouldRetry', 'onRetry', 'budget', 'attemptTimeoutMs', 'offline',
  'whenHidden', 'countPausedTime'];
const RETRY_KEYS = [...OPTIONS, ...OWN];
// The policy of a retry() given no policy options: Google's.
let google;

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

/** `fn`'s promise, rejected at once when `signal` aborts (an `fn` may ignore its signal). */
function race(call, signal) {
  if (!signal) return call;
  let off;
  return Promise.race([call, new Promise((_, reject) => {
    off = onAbort(signal, () => reject(signal.reason));
  })]).finally(() => off());
}

// `idempotent` false (fetchWithBackoff, a POST without an Idempotency-Key): one attempt, no retry.
export async function retry(fnToRetry, options = {}, idempotent = true) {
  fn('fn', fnToRetry);
  keys('retry options', options, RETRY_KEYS);
  const { policy, seed, signal, shouldRetry, onRetry, budget, attemptTimeoutMs, countPausedTime } = options;
  for (const k of ['shouldRetry', 'onRetry']) if (options[k] !== undefined) fn(k, options[k]);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') {
    fail(TypeError, 'signal', 'an AbortSignal', signal);
  }
  if (budget !== undefined && typeof budget?.[STEP] !== 'function') {
    fail(TypeError, 'budget', 'a RetryBudget', budget);
  }
  if (attemptTimeoutMs !== undefined) int('attemptTimeoutMs', attemptTimeoutMs, 1, 2147483647);
  if (countPausedTime !== undefined) bool('countPausedTime', countPausedTime);
  // The run's pause state (pause.js).
  const o = {
    signal,
    wait: options.offline === undefined || !oneOf('offline', options.offline, ['wait', 'ignore']),
    hide: options.whenHidden === undefined || !oneOf('whenHidden', options.whenHidden, ['pause', 'continue']),
    paused: 0,
    k: 0,
  };
  [o.lo, o.hi] = seedHalves(seed);
  let p = policy;
  if (p !== undefined) {
    if (!isPolicy(p)) fail(TypeError, 'policy', 'a Policy', p);
    const both = OPTIONS.find((k) => options[k] !== undefined);
    if (both) throw new TypeError(`give either policy or policy options such as ${both}, not both`);
  } else if (OPTIONS.some((k) => options[k] !== undefined)) {
    // The core checks the options before the first attempt: synchronously where WebAssembly
    // compiles, after loading the JS build where it does not.
    try {
      get(main);
    } catch {
      await load(main);
    }
    p = new Policy(options, 'retry options', OWN);
  }
  // The schedule, made at the first failure (or at once when offline at the start).
  let rec;
  const schedule = async () => {
    await load(main);
    rec ??= start(p ?? (google ??= new Policy()), o.lo, o.hi);
    o.cap = main.x.policyCapMs();
    return rec;
  };
  const t0 = performance.now();
  // Offline at the start: the first attempt waits too (the window is the initial delay, SPEC §13).
  if (offline(o)) await rest(0, word(await schedule(), 5), o);
  // The kind of failure the last retry followed, for the budget's refund.
  let retried;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    let error;
    let hint = [HINT_NONE, 0];
    let ac;
    let timer;
    let late;
    let thrown;
    let off;
    try {
      if (attemptTimeoutMs) {
        // The attempt's own signal: aborted by the user's, or after attemptTimeoutMs (and then the
        // attempt is given up, even by an fn that ignores its signal).
        ac = new AbortController();
        if (signal) off = onAbort(signal, () => ac.abort(signal.reason));
        timer = setTimeout(() => ac.abort((late = new DOMException(`attempt timed out after ${attemptTimeoutMs} ms`, 'TimeoutError'))), attemptTimeoutMs);
      }
      const value = await race(fnToRetry({ attempt, signal: ac ? ac.signal : signal }), ac ? ac.signal : signal);
      if (!idempotent || !isResponse(value) || CLASSES[(main.x ? main : await load(main)).x.classifyHttp(value.status)] !== 'retry') {
        budget?.recordSuccess(retried);
        return value;
      }
      error = value;
      // Retry-After, else (on a 429) the rate-limit headers: the core's rule (hint.js).
      hint = await responseHint(value);
    } catch (e) {
      signal?.throwIfAborted();
      if (!idempotent || (!(late && e === late) && shouldRetry && !(await shouldRetry(e)))) throw e;
      error = e;
      thrown = 1;
    } finally {
      clearTimeout(timer);
      off?.();
    }
    const r = await schedule();
    // A failure while the device says it is offline spends no retry: wait to be online (SPEC §13).
    if (thrown && offline(o)) {
      await rest(0, word(r, 5), o);
      continue;
    }
    // Elapsed ms since the first attempt, by the monotonic clock (below 2^32 for 49 days), without
    // the time spent paused unless countPausedTime.
    const elapsedMs = Math.min(Math.floor(performance.now() - t0 - (countPausedTime ? 0 : o.paused)), 4294967295);
    const delayMs = step(r, hint[0], hint[1], true, elapsedMs, 0, budget, !!late);
    if (delayMs < 0) throw new RetryError(error, attempt, GIVE_UP[-delayMs]);
    retried = late ? 'timeout' : 'error';
    // Frees the connection of a response that will not be read.
    if (isResponse(error)) error.body?.cancel().catch(() => {});
    onRetry?.({ attempt, delayMs, error });
    await rest(delayMs, delayMs, o);
  }
}

/**
 * fetch with retry(). Only a request that is safe to repeat is retried: an idempotent method (or
 * one of `retryMethods`), or one that carries an Idempotency-Key header; another is tried once.
 * A Request `input` is cloned for each attempt, so that its body can be sent again.
 */
export async function fetchWithBackoff(input, init, all = {}) {
  const { retryMethods = IDEMPOTENT_METHODS, ...options } = keys('fetchWithBackoff options', all, [...RETRY_KEYS, 'retryMethods']);
  if (!Array.isArray(retryMethods)) fail(TypeError, 'retryMethods', 'an array of HTTP method names', retryMethods);
  for (const m of retryMethods) {
    if (typeof m !== 'string') fail(TypeError, 'retryMethods', 'an array of HTTP method names', m);
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(m)) fail(RangeError, 'retryMethods', 'HTTP method names (tokens such as "POST")', m);
  }
  const method = String(init?.method ?? input?.method ?? 'GET').toUpperCase();
  const idempotent = retryMethods.some((m) => m.toUpperCase() === method) ||
    new Headers(init?.headers ?? input?.headers).has('idempotency-key');
  const signal = options.signal ?? init?.signal ?? input?.signal;
  return retry(({ signal: s }) => fetch(input?.clone?.() ?? input, { ...init, signal: s }), { ...options, signal }, idempotent);
}
