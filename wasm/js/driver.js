// The one driver of a run in this package (SPEC.md §15): the loop that does a run's I/O (the
// attempt, its timeout and abort, the sleeps, the page's life in pause.js, reading the answer's
// hint) and reports each outcome to the core's run, which answers what to do next. retry() and
// fetchWithBackoff() are uses of it, and so is the Google Cloud integration, through a host
// (below): what an attempt's failure was, how a give-up is reported, and which clock and sleep
// to use. The first attempt is made in the same tick as the call, before the engine is loaded:
// the run is started with the call's clock reading once it is there, and told the first outcome.
import {
  ACTION_ATTEMPT, ACTION_DONE, ACTION_GIVE_UP, ACTION_PAUSED, ACTION_RETRY, CLASSES, EVENT_OUTCOME, EVENT_PAUSE,
  EVENT_RESUME, EVENT_START, EVENT_WAKE, GIVE_UP, HINT_NONE, OUTCOME_OFFLINE, OUTCOME_PERMANENT, OUTCOME_RETRYABLE,
  OUTCOME_SUCCESS, PAUSE_OFFLINE,
} from '../pkg/tables.js';
import { nowMs } from './clock.js';
import { main } from '../pkg/main-part.js';
import { load, registry } from './engine.js';
import { check, seedHalves } from './options.js';
import { blocked, offline, onAbort, until } from './pause.js';
import { responseHint } from './response-hint.js';
import { RetryError } from './retry-error.js';
import { event, runWords } from './run-words.js';

// Everything a call needs is imported statically: a call made while the network is gone (a cold
// page, offline) has its engine in hand. The engine's WebAssembly is compiled once, when the
// first call is made, while its first attempt is in flight.
let loaded;
const engineReady = () => (loaded ??= load(main));

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

/**
 * Runs `fnToRetry` under the run of settings `s` (retry.js's `settings()`) until the run ends.
 * `idempotent` false (fetchWithBackoff, a POST without an Idempotency-Key): every failure is
 * permanent, so the one attempt is the run. `host` translates another library's attempts:
 * - `failure(thrown)`: what a thrown error was, `{ permanent, hint: [kind, ms], timeout, told }`
 *   (`told`: the answer the send rate reads, `[TOLD_*, arg]`), in place of `shouldRetry`;
 * - `told(value)`: a success's answer for the send rate, `[TOLD_*, arg]`;
 * - `giveUp(error, attempts, reason)`: the error a give-up throws (default a RetryError);
 * - `clock()` and `sleep(ms)`: in place of `nowMs()` and a timer (a test's virtual time).
 */
export async function drive(fnToRetry, s, idempotent, host = {}) {
  const { pw, signal, shouldRetry, onRetry, budget, attemptTimeoutMs, life, sendRate } = s;
  const clock = host.clock ?? nowMs;
  const giveUp = host.giveUp ?? ((error, n, reason) => new RetryError(error, n, reason));
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
      if (started) await ask(EVENT_START, 0, 0, 0, 0, undefined, t0);
    }
  };
  // With a send rate (checked with the engine, before any attempt: a run with one starts with the
  // engine), start, wake and outcome are paced (SPEC §15.2); an outcome tells it its answer
  // (`told`: a Response, whose status the core reads, or [TOLD_*, arg]). A shared budget or send
  // rate (seeded-backoff/shared) makes each event a decision through its store (SPEC §19): a
  // promise, each try from the run's words `rw` as they were before it.
  const shared = registry.sharedEvent?.(budget, sendRate);
  const ask = (ev, kind = 0, hintKind = 0, hintMs = 0, timeout = 0, told = undefined, now = clock()) =>
    (shared ?? ((t, f) => f(budget, sendRate, t)))(now, (b, r, t) =>
      event(main, pw, rw, b, ev, kind, hintKind, hintMs, timeout, t, r, ...(Array.isArray(told) ? told : [told])), rw);
  const wait = (ms) => (host.sleep && Number.isFinite(ms) ? Promise.resolve(host.sleep(ms)).then(() => true) : until(ms, life, signal));
  // Sleeps through the actions after a failure, feeding the run the page's events, until it
  // answers an attempt. A give-up ends the call: with the last error `error` itself for a
  // permanent one, else the host's give-up (without a cause when a send rate refused the first
  // attempt).
  const sleep = async (a, error) => {
    for (;;) {
      const [k, n, delayMs, maxMs] = a;
      if (k === ACTION_GIVE_UP) throw maxMs ? giveUp(error, n, GIVE_UP[maxMs]) : error;
      // Else a retry, a wait or a pause (a `done` never comes here).
      if (k === ACTION_ATTEMPT) return a;
      const reason = blocked(life);
      if (k !== ACTION_PAUSED && reason >= 0) {
        a = await ask(EVENT_PAUSE, reason);
        continue;
      }
      const r = await wait(k === ACTION_PAUSED ? (reason === PAUSE_OFFLINE ? maxMs : reason < 0 ? 0 : Infinity) : delayMs);
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
    let told;
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
      // Only a Response tells the send rate its status: another value (a number an fn returned)
      // is no answer code.
      told = host.told ? host.told(value) : isResponse(value) ? value : undefined;
    } catch (thrown) {
      signal?.throwIfAborted();
      error = thrown;
      const f = await host.failure?.(thrown);
      if (f) ({ hint, told } = f);
      if (f?.timeout) late = thrown;
      outcome = !idempotent || (f ? f.permanent : !(late && thrown === late) && shouldRetry && !(await shouldRetry(thrown))) ? OUTCOME_PERMANENT
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
    let a = await ask(EVENT_OUTCOME, outcome, hint[0], hint[1], late ? 1 : 0, told);
    if (a[0] === ACTION_DONE) return value;
    if (a[0] === ACTION_RETRY) {
      // Frees the connection of a response that will not be read.
      if (isResponse(error)) error.body?.cancel().catch(() => {});
      onRetry?.({ attempt: a[1], delayMs: a[2], error });
    }
    attempt = (await sleep(a, error))[1];
  }
}
