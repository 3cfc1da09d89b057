// Run: one call's whole retry run (SPEC.md §15), the core's state machine with its 22 words held
// here. Each event writes the policy's and the run's words to the engine, which answers the next
// action; retry() is a shell over it, and a program can write its own loop the same way.
import { main } from '../pkg/main-part.js';
import {
  ACTION_AT, ACTION_DONE, ACTION_GIVE_UP, ACTION_PAUSED, ACTION_RETRY, ACTION_WAIT, EVENT_OUTCOME, EVENT_PAUSE,
  EVENT_RESUME, EVENT_START, EVENT_WAKE, FLEET_WINDOW_ERROR, GIVE_UP, HINT_DO_NOT_RETRY, HINT_NONE, HINT_RATE_LIMIT, HINT_RETRY_AFTER,
  OUTCOME_OFFLINE, OUTCOME_PERMANENT, OUTCOME_RETRYABLE, OUTCOME_SUCCESS, PAUSE_HIDDEN, PAUSE_OFFLINE, RUN_AT,
  RUN_ATTEMPT_WORD, RUN_ERRORS, RUN_PHASE_WORD, RUN_SEED_WORD, TOLD_ACCEPTED, TOLD_HTTP, TOLD_NO_ANSWER, TOLD_THROTTLED,
} from '../pkg/tables.js';
import { BRAND, VERSION } from './brand.js';
import { bool, coded, fail, int, keys, oneOf, U32_MAX, u64 } from './check.js';
import { get } from './engine.js';
import { isBudget } from './gate.js';
import { isPolicy, seedHalves, wordsOf } from './policy.js';
import { event, paceOf, runWords } from './run-words.js';

export { event, runWords };

const PHASES = ['ready', 'attempting', 'sleeping', 'paused', 'done', 'gave_up'];
const TYPES = ['attempt', 'retry', 'wait', 'paused', 'done', 'give_up'];

/** An action's words as the object `Run`'s methods answer. */
function action([k, attempt, delayMs, extra]) {
  const a = { type: TYPES[k] };
  if (k === ACTION_RETRY || k < ACTION_WAIT) a.attempt = attempt;
  if (k === ACTION_RETRY || k === ACTION_WAIT) a.delayMs = delayMs;
  if (k === ACTION_PAUSED) a.maxMs = extra === U32_MAX ? null : extra;
  if (k === ACTION_DONE || k === ACTION_GIVE_UP) a.attempts = attempt;
  if (k === ACTION_GIVE_UP) a.reason = GIVE_UP[extra];
  return a;
}

// A reading is a whole number, or a bigint for the whole clock range (SPEC.md §15: up to 2^64 − 1).
const now = (v) => (v === undefined ? -1 : typeof v === 'bigint' ? (u64('nowMs', v), v) : int('nowMs', v, 0, Number.MAX_SAFE_INTEGER));
const OUTCOMES = ['success', 'retryable', 'permanent', 'offline'];
const HINTS = [['retryAfterMs', HINT_RETRY_AFTER], ['rateLimitMs', HINT_RATE_LIMIT]];
const ANSWERS = ['accepted', 'throttled', 'no_answer'];

/** An outcome's answer to the send rate as the engine's code and argument (see index.d.ts). */
function told(answer) {
  if (answer === undefined) return [0, 0];
  if (typeof answer === 'number') return [TOLD_HTTP, int('answer', answer, 100, 599, 'answer must be an HTTP status (100..=599), an answer kind or { kind, hintMs }')];
  const { kind, hintMs = 0 } = typeof answer === 'string' ? { kind: answer } : keys('answer', answer, ['kind', 'hintMs']);
  const k = oneOf('answer kind', kind, ANSWERS);
  return [[TOLD_ACCEPTED, TOLD_THROTTLED, TOLD_NO_ANSWER][k], k === 1 ? int('hintMs', hintMs, 0, U32_MAX) : 0];
}

/**
 * The send rate of one event: `options.sendRate` where the event gives one (undefined there: a
 * plain event; SPEC.md §15.2 lets a run mix them), else the run's own.
 */
function rateOf(options, own) {
  if (options === undefined) return own;
  keys('event options', options, ['sendRate']);
  return 'sendRate' in options ? options.sendRate : own;
}

/** `run` given the run words `w` (checked by the engine), its seed read back from them. */
export let setRunState;

export class Run {
  #p;
  #w;
  #budget;
  #rate;
  #seed;

  static {
    setRunState = (r, w) => {
      r.#w = w;
      r.#seed = (BigInt(w[RUN_SEED_WORD + 1]) << 32n) | BigInt(w[RUN_SEED_WORD]);
    };
  }

  /** A run not yet started: see index.d.ts. */
  constructor(policy, options = {}) {
    if (!isPolicy(policy)) fail(TypeError, 'policy', 'a Policy', policy);
    keys('Run options', options, ['seed', 'countPausedTime', 'budget', 'sendRate', 'startupWindowMs']);
    const { seed, countPausedTime = false, budget, sendRate, startupWindowMs = 0 } = options;
    bool('countPausedTime', countPausedTime);
    int('startupWindowMs', startupWindowMs, 0, U32_MAX, FLEET_WINDOW_ERROR.replace('windowMs', 'startupWindowMs'));
    if (budget !== undefined && !isBudget(budget)) fail(TypeError, 'budget', 'a RetryBudget (or an object with its methods)', budget);
    const [lo, hi] = seedHalves(seed);
    this.#seed = (BigInt(hi) << 32n) | BigInt(lo);
    this.#p = wordsOf(policy);
    this.#w = runWords(get(main), this.#p, lo, hi, countPausedTime, startupWindowMs);
    this.#budget = budget;
    paceOf(sendRate);
    this.#rate = sendRate;
  }

  #event(e, kind, hintKind, hintMs, timeout, nowMs, [t, arg] = [0, 0], options = undefined) {
    return action(event(get(main), this.#p, this.#w, this.#budget, e, kind, hintKind, hintMs, timeout, now(nowMs), rateOf(options, this.#rate), t, arg));
  }

  /** What another copy of the package reads of this Run (brand.js): copies of its policy's words and its run's. */
  get [BRAND]() {
    const [p, w] = [this.#p, this.#w];
    return { kind: 'Run', version: VERSION, state: () => [p.slice(), w.slice()] };
  }

  /** The phase (SPEC.md §15): 'ready', 'attempting', 'sleeping', 'paused', 'done' or 'gave_up'. */
  get phase() {
    return PHASES[this.#w[RUN_PHASE_WORD] & 0xff];
  }

  /** The attempts made so far (SPEC.md §14: from 1 once started; a paced wait numbers none). */
  get attempts() {
    return this.#w[RUN_ATTEMPT_WORD];
  }

  /** The seed of this run's jitter and re-drawn waits (a bigint), so a random-seeded run can be replayed. */
  get seed() {
    return this.#seed;
  }

  start(nowMs, options) {
    return this.#event(EVENT_START, 0, 0, 0, 0, nowMs, undefined, options);
  }

  /**
   * `'success'`, `'permanent'`, `'offline'`, or a retryable failure `{ failureKind?, retryAfterMs? | rateLimitMs? | doNotRetry? }`;
   * with a send rate, `answer` is what the attempt's answer tells it.
   */
  outcome(outcome, nowMs, answer, options) {
    const t = told(answer);
    if (typeof outcome === 'string') {
      const k = oneOf('outcome', outcome, OUTCOMES);
      if (k === 1) return this.outcome({}, nowMs, answer, options);
      return this.#event(EVENT_OUTCOME, [OUTCOME_SUCCESS, 0, OUTCOME_PERMANENT, OUTCOME_OFFLINE][k], 0, 0, 0, nowMs, t, options);
    }
    keys('retryable outcome', outcome, ['failureKind', 'retryAfterMs', 'rateLimitMs', 'doNotRetry']);
    let hint = HINT_NONE;
    let ms = 0;
    for (const [k, code] of HINTS) {
      if (outcome[k] === undefined) continue;
      if (hint !== HINT_NONE) throw new TypeError('give at most one of retryAfterMs, rateLimitMs and doNotRetry');
      ms = int(k, outcome[k], 0, U32_MAX);
      hint = code;
    }
    if (outcome.doNotRetry !== undefined && bool('doNotRetry', outcome.doNotRetry)) {
      if (hint !== HINT_NONE) throw new TypeError('give at most one of retryAfterMs, rateLimitMs and doNotRetry');
      hint = HINT_DO_NOT_RETRY;
    }
    const timeout = outcome.failureKind === undefined ? 0 : oneOf('failureKind', outcome.failureKind, ['error', 'timeout']);
    return this.#event(EVENT_OUTCOME, OUTCOME_RETRYABLE, hint, ms, timeout, nowMs, t, options);
  }

  wake(nowMs, options) {
    return this.#event(EVENT_WAKE, 0, 0, 0, 0, nowMs, undefined, options);
  }

  /** `reason`: `'hidden'` or `'offline'`. */
  pause(reason, nowMs) {
    const code = [PAUSE_HIDDEN, PAUSE_OFFLINE][oneOf('reason', reason, ['hidden', 'offline'])];
    return this.#event(EVENT_PAUSE, code, 0, 0, 0, nowMs);
  }

  resume(nowMs) {
    return this.#event(EVENT_RESUME, 0, 0, 0, 0, nowMs);
  }
}
