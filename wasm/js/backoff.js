// Backoff: one request's schedule. Its 32-byte state lives in this object (see state.js): nothing
// to free.
import { GIVE_UP, HINT_DO_NOT_RETRY, HINT_NONE, HINT_RATE_LIMIT, HINT_RETRY_AFTER, OPTIONS } from '../pkg/tables.js';
import { bool, fail, int, keys, oneOf, U32_MAX, u64 } from './check.js';
import { STATE, STEP } from './internal.js';
import { isPolicy, Policy, seedHalves } from './policy.js';
import { adopt, enter, next, start, step, word, words } from './state.js';

const BACKOFF_KEYS = [...OPTIONS, 'seed'];
const INPUT_KEYS = ['retryAfterMs', 'rateLimitMs', 'doNotRetry', 'elapsedMs', 'budget', 'failureKind'];

export class Backoff {
  #r; // the state record
  #lo;
  #hi;

  /**
   * `new Backoff(policy, seed?)`, or `new Backoff({ ...policy options, seed })`: a Policy is built
   * for that call (create one Policy and share it when making many).
   */
  constructor(policy = {}, seed) {
    if (!isPolicy(policy)) {
      const given = keys('Backoff options', policy, BACKOFF_KEYS).seed;
      if (given !== undefined && seed !== undefined) {
        throw new TypeError('give the seed once: in the options or as the second argument');
      }
      seed ??= given;
      policy = new Policy(policy, 'Backoff options', ['seed']);
    }
    [this.#lo, this.#hi] = seedHalves(seed);
    this.#r = start(policy, this.#lo, this.#hi);
  }

  get policy() {
    return this.#r.policy;
  }

  /** The 8 state words, taken out of the slot; with `w` (a restored state), sets them. */
  [STATE](w) {
    if (w) {
      adopt(this.#r, w);
      this.#lo = this.#hi = undefined; // a snapshot holds the generator's state, not its seed
    }
    return words(this.#r);
  }

  nextDelay(input) {
    const d = input === undefined ? next(this.#r) : this.#step(input);
    return d < 0 ? null : d;
  }

  #step(input) {
    keys('nextDelay input', input, INPUT_KEYS);
    const { retryAfterMs, rateLimitMs, doNotRetry, elapsedMs, budget, failureKind } = input;
    if (retryAfterMs !== undefined) int('retryAfterMs', retryAfterMs, 0, U32_MAX);
    if (rateLimitMs !== undefined) int('rateLimitMs', rateLimitMs, 0, U32_MAX);
    const stop = doNotRetry !== undefined && bool('doNotRetry', doNotRetry);
    const given = [['retryAfterMs', retryAfterMs !== undefined], ['rateLimitMs', rateLimitMs !== undefined],
      ['doNotRetry', stop]].filter(([, g]) => g);
    if (given.length > 1) {
      throw new TypeError(`give at most one of retryAfterMs, rateLimitMs and doNotRetry, not ${given.map(([k]) => k).join(' and ')}`);
    }
    const h = retryAfterMs ?? rateLimitMs;
    const [lo, hi] = elapsedMs === undefined ? [0, 0] : u64('elapsedMs', elapsedMs);
    const timeout = failureKind !== undefined && oneOf('failureKind', failureKind, ['error', 'timeout']) === 1;
    if (budget !== undefined && typeof budget?.[STEP] !== 'function') {
      fail(TypeError, 'budget', 'a RetryBudget', budget);
    }
    const kind = stop ? HINT_DO_NOT_RETRY
      : retryAfterMs !== undefined ? HINT_RETRY_AFTER
        : rateLimitMs !== undefined ? HINT_RATE_LIMIT : HINT_NONE;
    return step(this.#r, kind, h ?? 0, elapsedMs !== undefined, lo, hi, budget, timeout);
  }

  nextDelayWithHint(ms) {
    return this.nextDelay({ retryAfterMs: ms });
  }

  /**
   * The seed this schedule was drawn from (a bigint), so a random-seeded run can be replayed;
   * null for a restored Backoff.
   */
  get seed() {
    return this.#lo === undefined ? null : (BigInt(this.#hi) << 32n) | BigInt(this.#lo);
  }

  get giveUpReason() {
    return GIVE_UP[word(this.#r, 7)];
  }

  get retries() {
    return word(this.#r, 4);
  }

  get elapsedMs() {
    return word(this.#r, 6);
  }

  reset() {
    enter(this.#r).backoffReset();
  }

  *[Symbol.iterator]() {
    for (let d; (d = this.nextDelay()) !== null; ) yield d;
  }
}
