// Backoff: one request's schedule. Its 32-byte state lives in this object; the core steps it in
// the main part's slot, where it stays while it is the one being stepped (no copying), and is
// copied back here when another Backoff takes the slot. Nothing to free.
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { GIVE_UP, OPTIONS } from '../pkg/tables.js';
import { bool, fail, int, keys, oneOf, U32_MAX, u64 } from './check.js';
import { STATE, STEP } from './internal.js';
import { activate, main, Policy, seedHalves } from './policy.js';
import { ensure } from './wasm.js';

const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
const BACKOFF_KEYS = [...OPTIONS, 'seed'];
const INPUT_KEYS = ['retryAfterMs', 'doNotRetry', 'elapsedMs', 'budget', 'failureKind'];

// The Backoff whose state is in the main part's slot.
let resident;

export class Backoff {
  #w; // the state's 8 words while not resident
  #lo;
  #hi;

  /**
   * `new Backoff(policy, seed?)`, or `new Backoff({ ...policy options, seed })`: a Policy is built
   * for that call (create one Policy and share it when making many).
   */
  constructor(policy = {}, seed) {
    if (!(policy instanceof Policy)) {
      seed = keys('Backoff options', policy, BACKOFF_KEYS).seed;
      policy = new Policy(policy, 'Backoff options', ['seed']);
    }
    [this.#lo, this.#hi] = seedHalves(seed);
    this.policy = policy;
    ensure(main);
    this.#enter(true);
    glue.backoffInit(this.#lo, this.#hi);
  }

  /** Makes this state (and its policy) the main part's active one. */
  #enter(fresh) {
    activate(this.policy);
    if (resident === this) return;
    const u = main.u32;
    if (resident) {
      glue.backoffSave();
      resident.#w = u.slice(12, 20);
    }
    resident = this;
    if (!fresh) {
      u.set(this.#w, 12);
      glue.backoffLoad();
    }
    this.#w = undefined;
  }

  /** The 8 state words (taking the state out of the slot), or sets them. */
  [STATE](words) {
    if (words) {
      if (resident === this) resident = undefined;
      this.#w = words;
      return words;
    }
    if (resident === this) {
      glue.backoffSave();
      this.#w = main.u32.slice(12, 20);
      resident = undefined;
    }
    return this.#w;
  }

  /** The state's word `i` without taking it out of the slot. */
  #word(i) {
    if (resident !== this) return this.#w[i];
    glue.backoffSave();
    return main.u32[12 + i];
  }

  nextDelay(input) {
    if (input !== undefined) return this.#step(input);
    // The hot path: the state is usually in the slot already; only the policy may have changed.
    if (resident === this) activate(this.policy);
    else this.#enter();
    const d = glue.backoffStep(0, 0, false, 0, 0);
    return d < 0 ? null : d;
  }

  #step(input) {
    keys('nextDelay input', input, INPUT_KEYS);
    const { retryAfterMs: h, doNotRetry, elapsedMs, budget, failureKind } = input;
    if (h !== undefined) int('retryAfterMs', h, 0, U32_MAX);
    if (doNotRetry !== undefined && bool('doNotRetry', doNotRetry) && h !== undefined) {
      throw new TypeError('give either retryAfterMs or doNotRetry, not both');
    }
    const [lo, hi] = elapsedMs === undefined ? [0, 0] : u64('elapsedMs', elapsedMs);
    const timeout = failureKind !== undefined && oneOf('failureKind', failureKind, ['error', 'timeout']) === 1;
    if (budget !== undefined && typeof budget?.[STEP] !== 'function') {
      fail(TypeError, 'budget', 'a RetryBudget', budget);
    }
    const kind = doNotRetry ? 2 : h === undefined ? 0 : 1;
    let d;
    if (budget) {
      const words = this[STATE]();
      d = budget[STEP](this.policy, words, kind, h ?? 0, elapsedMs !== undefined, lo, hi, timeout);
    } else {
      this.#enter();
      d = glue.backoffStep(kind, h ?? 0, elapsedMs !== undefined, lo, hi);
    }
    return d < 0 ? null : d;
  }

  nextDelayWithHint(ms) {
    return this.nextDelay({ retryAfterMs: ms });
  }

  /** The seed this schedule was drawn from (a bigint), so a random-seeded run can be replayed. */
  get seed() {
    return (BigInt(this.#hi) << 32n) | BigInt(this.#lo);
  }

  get giveUpReason() {
    return GIVE_UP[this.#word(7)];
  }

  get retries() {
    return this.#word(4);
  }

  get elapsedMs() {
    return this.#word(6);
  }

  reset() {
    this.#enter();
    glue.backoffReset();
  }

  *[Symbol.iterator]() {
    for (let d; (d = this.nextDelay()) !== null; ) yield d;
  }

  /** Nothing to free: kept so that code written for earlier versions still runs. */
  free() {}

  [dispose]() {}
}
