// retry() and fetchWithBackoff(): a shell over the core's run (run.js, SPEC.md §15). This module
// does the I/O (the call, its timeout and abort, the sleeps, the page's life in pause.js, reading
// a response's headers) and reports each outcome to the run, which answers what to do next. The
// first attempt is made in the same tick as the call, before the engine is loaded: the run is
// started with the call's clock reading once it is there, and told the first outcome.
import {
  ACTION_ATTEMPT, ACTION_DONE, ACTION_GIVE_UP, ACTION_PAUSED, ACTION_RETRY, CLASSES, EVENT_OUTCOME, EVENT_PAUSE,
  EVENT_RESUME, EVENT_START, EVENT_WAKE, GIVE_UP, HINT_NONE, IDEMPOTENT_METHODS, NORMALIZED_METHODS, OPTIONS, OUTCOME_OFFLINE,
  OUTCOME_PERMANENT, OUTCOME_RETRYABLE, OUTCOME_SUCCESS, PAUSE_OFFLINE,
} from '../pkg/tables.js';
import { bool, fail, fn, int, keys, oneOf, show } from './check.js';
import { nowMs } from './clock.js';
import { isBudget, isShared } from './gate.js';
import { main } from '../pkg/main-part.js';
import { load, registry } from './engine.js';
import { check, optionWords, seedHalves } from './options.js';
import { blocked, offline, onAbort, until, watch } from './pause.js';
import { responseHint } from './response-hint.js';
import { RetryError } from './retry-error.js';
import { event, runWords } from './run-words.js';
import { isPolicy, policyWords } from './words.js';

// Everything a call needs is imported statically: a call made while the network is gone (a cold
// page, offline) has its engine in hand. The engine's WebAssembly is compiled once, when the
// first call is made, while its first attempt is in flight.
let loaded;
const engineReady = () => (loaded ??= load(main));

const OWN = ['policy', 'seed', 'signal', 'shouldRetry', 'onRetry', 'budget', 'attemptTimeoutMs', 'offline',
  'whenHidden', 'countPausedTime', 'sendRate'];
const RETRY_KEYS = [...OPTIONS, ...OWN];

// The give-up error, re-exported for the `seeded-backoff/retry` entry.
export { RetryError };

/** The methods `fetchWithBackoff()` retries by default: RFC 9110 §9.2.2's idempotent methods (the core's list). */
export { IDEMPOTENT_METHODS };

/** Whether `v` is a `Response` (false for a value `instanceof` cannot ask, a revoked proxy). */
export function isResponse(v) {
  try {
    return typeof Response === 'function' && v instanceof Response;
  } catch {
    return false;
  }
}

/** `call`, rejected at once when `signal` aborts (an `fn` may ignore its signal). */
function race(call, signal) {
  if (!signal) return call;
  let off;
  return Promise.race([call, new Promise((_, reject) => {
    off = onAbort(signal, () => reject(signal.reason));
  })]).finally(() => off());
}

/** retry()'s options, checked: everything but the core's own check of the policy options. */
function settings(options, name) {
  keys(name, options, RETRY_KEYS);
  const { policy, seed, signal, shouldRetry, onRetry, budget, attemptTimeoutMs, countPausedTime = false, sendRate } = options;
  for (const k of ['shouldRetry', 'onRetry']) if (options[k] !== undefined) fn(k, options[k]);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') fail(TypeError, 'signal', 'an AbortSignal', signal);
  if (budget !== undefined && !isBudget(budget) && !isShared(budget)) fail(TypeError, 'budget', 'a RetryBudget (or an object with its methods)', budget);
  if (attemptTimeoutMs !== undefined) int('attemptTimeoutMs', attemptTimeoutMs, 1, 2147483647);
  bool('countPausedTime', countPausedTime);
  const life = watch(
    options.whenHidden === undefined || !oneOf('whenHidden', options.whenHidden, ['pause', 'continue']),
    options.offline === undefined || !oneOf('offline', options.offline, ['wait', 'ignore']),
  );
  const values = [];
  let pw;
  if (policy !== undefined) {
    if (!isPolicy(policy)) fail(TypeError, 'policy', 'a Policy', policy);
    const both = OPTIONS.find((k) => options[k] !== undefined);
    if (both) throw new TypeError(`give either policy or policy options such as ${both}, not both`);
    pw = policyWords.get(policy);
  } else {
    pw = optionWords(options, values);
  }
  // Checked by the core now where the engine is compiled; else once it is, before any retry.
  if (main.x && !policy) check(main, pw, values);
  // A given seed is checked now; a drawn one is drawn with the run, off the first attempt's path
  // (the first crypto.getRandomValues() of a Node process costs milliseconds).
  return { pw, values, seed: seed === undefined ? seed : seedHalves(seed), signal, shouldRetry, onRetry, budget, attemptTimeoutMs, countPausedTime, life, sendRate };
}

export async function retry(fnToRetry, options = {}) {
  fn('fn', fnToRetry);
  return loop(fnToRetry, settings(options, 'retry options'), true);
}

// `idempotent` false (fetchWithBackoff, a POST without an Idempotency-Key): every failure is
// permanent, so the one attempt is the run.
async function loop(fnToRetry, s, idempotent) {
  const { pw, signal, shouldRetry, onRetry, budget, attemptTimeoutMs, life, sendRate } = s;
  const clock = nowMs;
  const t0 = clock();
  // Loaded from the next task: the first attempt's request leaves before the engine's compile
  // (or, under a strict CSP, its JS build's evaluation) holds the thread.
  const ready = main.x ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, 0)).then(engineReady);
  // An engine this page cannot run may be refused before the first attempt's answer awaits it:
  // that is no unhandled rejection (the call itself ends with the error, once it awaits it).
  ready.catch(() => {});
  let rw;
  // The run, made once the engine is there (loading it does not delay the first attempt).
  const run = async (started) => {
    if (!rw) {
      await ready;
      check(main, pw, s.values);
      rw = runWords(main, pw, ...(s.seed ?? seedHalves()), s.countPausedTime);
      if (started) await ask(EVENT_START, 0, 0, 0, 0, 0, t0);
    }
  };
  // With a send rate (checked with the engine, before any attempt: a run with one starts with the
  // engine), start, wake and outcome are paced (SPEC §15.2); an outcome's Response tells it its
  // status, which the core reads. A shared budget or send rate (seeded-backoff/shared) makes each
  // event a decision through its store (SPEC §19): a promise, each try from the run's words `rw`
  // as they were before it.
  const shared = registry.sharedEvent?.(budget, sendRate);
  const ask = (ev, kind = 0, hintKind = 0, hintMs = 0, timeout = 0, value, now = clock()) => (shared ?? ((t, f) => f(budget, sendRate, t)))(
    now, (b, r, t) => event(main, pw, rw, b, ev, kind, hintKind, hintMs, timeout, t, r, value), rw);
  // Sleeps through the actions after a failure, feeding the run the page's events, until it
  // answers an attempt. A give-up ends the call: with the last error `error` itself for a
  // permanent one, else a RetryError (without a cause when a send rate refused the first attempt).
  const sleep = async (a, error) => {
    for (;;) {
      const [k, n, delayMs, maxMs] = a;
      if (k === ACTION_GIVE_UP) throw maxMs ? new RetryError(error, n, GIVE_UP[maxMs]) : error;
      // Else a retry, a wait or a pause (a `done` never comes here).
      if (k === ACTION_ATTEMPT) return a;
      const reason = blocked(life);
      if (k !== ACTION_PAUSED && reason >= 0) {
        a = await ask(EVENT_PAUSE, reason);
        continue;
      }
      const r = await until(k === ACTION_PAUSED ? (reason === PAUSE_OFFLINE ? maxMs : reason < 0 ? 0 : Infinity) : delayMs, life, signal);
      // An offline pause that outlasts its limit ends anyway: navigator.onLine can be wrong.
      if (k === ACTION_PAUSED) life.force = r === true && reason === PAUSE_OFFLINE;
      else life.force = false;
      if (k === ACTION_PAUSED) {
        if (blocked(life) < 0) a = await ask(EVENT_RESUME);
      } else if (r === true) {
        a = await ask(EVENT_WAKE);
      } else {
        const again = blocked(life);
        a = await (again >= 0 ? ask(EVENT_PAUSE, again) : ask(EVENT_RESUME));
      }
    }
  };
  let attempt = 1;
  // Offline at the start: the run begins paused, and the first attempt waits too (SPEC §13). A
  // send rate is asked before the first attempt too.
  if (sendRate !== undefined || offline(life)) {
    await run(false);
    attempt = (await sleep(await (offline(life) ? ask(EVENT_PAUSE, PAUSE_OFFLINE) : ask(EVENT_START))))[1];
  }
  for (;;) {
    signal?.throwIfAborted();
    let value;
    let error;
    let outcome = OUTCOME_SUCCESS;
    let hint = [HINT_NONE, 0];
    let ac;
    let timer;
    let late;
    let off;
    try {
      if (attemptTimeoutMs) {
        // The attempt's own signal: aborted by the user's, or after attemptTimeoutMs (and then the
        // attempt is given up, even by an fn that ignores its signal).
        ac = new AbortController();
        if (signal) off = onAbort(signal, () => ac.abort(signal.reason));
        timer = setTimeout(() => ac.abort((late = new DOMException(`attempt timed out after ${attemptTimeoutMs} ms`, 'TimeoutError'))), attemptTimeoutMs);
      }
      value = await race(fnToRetry({ attempt, signal: ac ? ac.signal : signal }), ac ? ac.signal : signal);
    } catch (thrown) {
      signal?.throwIfAborted();
      error = thrown;
      outcome = !idempotent || (!(late && thrown === late) && shouldRetry && !(await shouldRetry(thrown))) ? OUTCOME_PERMANENT
        // A failure while the device says it is offline spends no retry (SPEC §13).
        : offline(life) ? OUTCOME_OFFLINE : OUTCOME_RETRYABLE;
    } finally {
      clearTimeout(timer);
      off?.();
    }
    // The engine classifies a Response's status. Outside the attempt's try: an engine this page
    // cannot run ends the call with the error that says why, and is never a failed attempt.
    if (outcome === OUTCOME_SUCCESS && idempotent && isResponse(value)) {
      await ready;
      if (CLASSES[main.x.classifyHttp(value.status)] === 'retry') {
        error = value;
        outcome = OUTCOME_RETRYABLE;
        // Retry-After, else (on a 429) the rate-limit headers: the core's rule (response-hint.js).
        hint = await responseHint(value);
      }
    }
    await run(true);
    // Only a Response tells the send rate its status: another value (a number an fn returned) is no answer code.
    let a = await ask(EVENT_OUTCOME, outcome, hint[0], hint[1], late ? 1 : 0, isResponse(value) ? value : undefined);
    if (a[0] === ACTION_DONE) return value;
    if (a[0] === ACTION_RETRY) {
      // Frees the connection of a response that will not be read.
      if (isResponse(error)) error.body?.cancel().catch(() => {});
      onRetry?.({ attempt: a[1], delayMs: a[2], error });
    }
    attempt = (await sleep(a, error))[1];
  }
}

/**
 * fetch with retry(). Only a request that is safe to repeat is retried: an idempotent method (or
 * one of `retryMethods`), or one that carries an Idempotency-Key header; another is tried once.
 * A Request `input` is cloned for each attempt, so that its body can be sent again.
 */
export async function fetchWithBackoff(input, init, options = {}) {
  const given = init === null || typeof init !== 'object' ? undefined : RETRY_KEYS.concat('retryMethods').find((k) => k in init && k !== 'signal');
  if (given) throw new TypeError(`${given} is a retry option: give it in fetchWithBackoff's third argument (fetchWithBackoff(url, init, { ${given} })), not in fetch's init`);
  const { retryMethods = IDEMPOTENT_METHODS, ...rest } = keys('fetchWithBackoff options', options, [...RETRY_KEYS, 'retryMethods']);
  if (!Array.isArray(retryMethods)) fail(TypeError, 'retryMethods', 'an array of HTTP method names', retryMethods);
  for (const m of retryMethods) {
    if (typeof m !== 'string') fail(TypeError, 'retryMethods', 'an array of HTTP method names', m);
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(m)) fail(RangeError, 'retryMethods', 'HTTP method names (tokens such as "POST")', m);
  }
  // Each method as fetch sends it, the form SPEC.md §7.1's rule reads (the core's
  // normalize_method): equal but for ASCII case to one of the core's NORMALIZED_METHODS, that
  // name; any other as given.
  const sent = (m) => NORMALIZED_METHODS.find((n) => n === m.replace(/[a-z]+/g, (s) => s.toUpperCase())) ?? m;
  const method = sent(String(init?.method ?? input?.method ?? 'GET'));
  const idempotent = retryMethods.some((m) => sent(m) === method) ||
    new Headers(init?.headers ?? input?.headers).has('idempotency-key');
  const signal = rest.signal ?? init?.signal ?? input?.signal;
  const s = settings({ ...rest, signal }, 'fetchWithBackoff options');
  return loop(({ signal: sig }) => fetch(input?.clone?.() ?? input, { ...init, signal: sig }), s, idempotent);
}
