// Backoff: one request's schedule. Its 32-byte state (8 words) lives in this object; a step writes
// the policy's and the state's words to the engine, unless they are there already, and steps it
// there: the engine's copy is the live one until another writer takes the area (release()).
import { main } from '../pkg/main-part.js';
import { GIVE_UP, HINT_DO_NOT_RETRY, HINT_NONE, HINT_RATE_LIMIT, HINT_RETRY_AFTER, OPTIONS, STATE_AT } from '../pkg/tables.js';
import { BRAND, VERSION } from './brand.js';
import { bool, fail, int, keys, oneOf, U32_MAX, u64 } from './check.js';
import { get, release } from './engine.js';
import { asking, inside, isBudget } from './gate.js';
import { isPolicy, Policy, seedHalves, wordsOf } from './policy.js';

const INPUT_KEYS = ['retryAfterMs', 'rateLimitMs', 'doNotRetry', 'elapsedMs', 'budget', 'failureKind'];

export let setState;
// Copies the engine's live state back into its owner (m.flush, release()): one function for every
// Backoff, so that making one allocates no closure.
let copyBack;

export class Backoff {
  #p; // the Policy
  #w; // its option words
  #s; // the state's 8 words: generator (4), retries, level, elapsed ms, give-up code
  #lo;
  #hi;

  static {
    copyBack = (m) => {
      const s = m.owner.#s;
      const u = m.u32;
      for (let i = 0; i < 8; i++) s[i] = u[STATE_AT + i];
    };
    // A restored state: a snapshot holds the generator's state, not its seed. The engine's copy
    // of the old one, if any, is dropped, not copied back.
    setState = (b, s) => {
      b.#s = s;
      b.#lo = b.#hi = undefined;
      if (main.owner === b) main.flush = main.owner = null;
    };
  }

  /**
   * `new Backoff(policy, seed?)`, or `new Backoff({ ...policy options, seed })`: a Policy is built
   * for that call (create one Policy and share it when making many).
   */
  constructor(policy = {}, seed) {
    if (!isPolicy(policy)) {
      keys('Backoff options', policy, [...OPTIONS, 'seed']);
      const options = {};
      for (const k of OPTIONS) options[k] = policy[k];
      const given = policy.seed;
      if (given !== undefined && seed !== undefined) {
        throw new TypeError('give the seed once: in the options or as the second argument');
      }
      seed ??= given;
      policy = new Policy(options);
    }
    [this.#lo, this.#hi] = seedHalves(seed);
    const m = get(main);
    this.#p = policy;
    this.#w = wordsOf(policy);
    release(m);
    m.u32.set(this.#w);
    m.x.backoffInit(this.#lo, this.#hi);
    this.#s = m.u32.slice(STATE_AT, STATE_AT + 8);
    this.#own(m);
  }

  get policy() {
    return this.#p;
  }

  /** What another copy of the package reads of this Backoff (brand.js): copies of its policy's words and its state's. */
  get [BRAND]() {
    // The words are read here, so that an object without them (a Proxy) has no brand; the state
    // when it is asked for: the engine's live copy first, where this Backoff owns it.
    const w = this.#w;
    return { kind: 'Backoff', version: VERSION, state: () => [w.slice(), this.#state().slice()] };
  }

  nextDelay(input) {
    // The common call first: no input, this Backoff's words in the engine already, no budget
    // being asked (main.x is there once main.owner is set).
    const d = input === undefined && main.owner === this && !inside ? main.x.backoffStep(HINT_NONE, 0, false, 0, 0, 0, false)
      : input === undefined ? this.#step(HINT_NONE, 0, false, 0, 0, 0) : this.#input(input);
    return d < 0 ? null : d;
  }

  /**
   * Writes the policy's and the state's words to the engine, unless this Backoff owns the area
   * already (`m.owner`): then the engine's state is its live one, so that a Backoff stepped over
   * and over writes and reads nothing. Whatever takes the area next copies it back (release()).
   */
  #put(m) {
    if (m.owner !== this) {
      release(m);
      m.u32.set(this.#w);
      m.u32.set(this.#s, STATE_AT);
      this.#own(m);
    }
  }

  #own(m) {
    m.owner = this;
    m.flush = copyBack;
  }

  /** The state's words, the engine's live copy first where it has one. */
  #state() {
    if (main.owner === this) main.flush(main);
    return this.#s;
  }

  #step(kind, hintMs, hasElapsed, lo, hi, timeout, budget) {
    const m = get(main);
    this.#put(m);
    // Through `asking` even without a budget while one is being asked: it refuses the call.
    return budget || inside ? asking(budget, () => m.x.backoffStep(kind, hintMs, hasElapsed, lo, hi, timeout, !!budget))
      : m.x.backoffStep(kind, hintMs, hasElapsed, lo, hi, timeout, false);
  }

  #input(input) {
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
    const [lo, hi] = elapsedMs === undefined ? [0, 0] : u64('elapsedMs', elapsedMs);
    const timeout = failureKind !== undefined ? oneOf('failureKind', failureKind, ['error', 'timeout']) : 0;
    if (budget !== undefined && !isBudget(budget)) fail(TypeError, 'budget', 'a RetryBudget (or an object with its methods)', budget);
    const kind = stop ? HINT_DO_NOT_RETRY
      : retryAfterMs !== undefined ? HINT_RETRY_AFTER
        : rateLimitMs !== undefined ? HINT_RATE_LIMIT : HINT_NONE;
    return this.#step(kind, retryAfterMs ?? rateLimitMs ?? 0, elapsedMs !== undefined, lo, hi, timeout, budget);
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
    return GIVE_UP[this.#state()[7]];
  }

  get retries() {
    return this.#state()[4];
  }

  get elapsedMs() {
    return this.#state()[6];
  }

  reset() {
    const m = get(main);
    this.#put(m);
    m.x.backoffReset();
  }

  *[Symbol.iterator]() {
    for (let d; (d = this.nextDelay()) !== null; ) yield d;
  }
}
