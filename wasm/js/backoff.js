// The per-request backoff state: a thin object over the core's state in wasm.
import { BackoffState } from '../pkg/seeded_backoff.js';
import { bool, int, keys, oneOf, u64, U32_MAX } from './check.js';
import { policyFields } from './policy.js';
import { RetryBudget, budgetState } from './budget.js';
import { ensure } from './wasm.js';

const INPUT_KEYS = ['retryAfterMs', 'doNotRetry', 'elapsedMs', 'budget', 'failureKind'];
const KINDS = ['error', 'timeout'];
const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

let adopted;

function randomSeed() {
  // Never a constant: clients that share a seed retry in lockstep.
  return crypto.getRandomValues(new Uint32Array(2));
}

/** A state restored by `Backoff.restore` is handed to the constructor through here. */
function adopt(state) {
  adopted = state;
  return new Backoff();
}

export class Backoff {
  #s;

  constructor(options = {}) {
    if (adopted) {
      this.#s = adopted;
      adopted = undefined;
      return;
    }
    const fields = policyFields(options);
    const [lo, hi] = options.seed === undefined ? randomSeed() : u64('seed', options.seed);
    ensure();
    this.#s = new BackoffState(...fields, lo, hi);
  }

  static restore(options, bytes) {
    const fields = policyFields(options);
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`bytes must be a Uint8Array (from snapshot()), got ${typeof bytes}`);
    }
    ensure();
    return adopt(BackoffState.restore(...fields, bytes));
  }

  #state() {
    if (!this.#s) throw new Error('this Backoff was freed');
    return this.#s;
  }

  nextDelay(input) {
    const s = this.#state();
    const d = input === undefined ? s.nextDelay() : step(s, input);
    return d < 0 ? null : d;
  }

  nextDelayWithHint(ms) {
    int('retryAfterMs', ms, 0, U32_MAX);
    const d = this.#state().step(1, ms, false, 0, 0);
    return d < 0 ? null : d;
  }

  get giveUpReason() {
    return this.#state().giveUpReason() ?? null;
  }

  get retries() {
    return this.#state().retries();
  }

  get elapsedMs() {
    return this.#state().elapsedMs();
  }

  reset() {
    this.#state().reset();
  }

  snapshot() {
    return this.#state().snapshot();
  }

  *[Symbol.iterator]() {
    for (let d; (d = this.nextDelay()) !== null; ) yield d;
  }

  free() {
    this.#s?.free();
    this.#s = undefined;
  }

  [dispose]() {
    this.free();
  }
}

function step(s, input) {
  keys('nextDelay input', input, INPUT_KEYS);
  const { retryAfterMs: h, doNotRetry, elapsedMs, budget, failureKind } = input;
  if (h !== undefined) int('retryAfterMs', h, 0, U32_MAX);
  if (doNotRetry !== undefined && bool('doNotRetry', doNotRetry) && h !== undefined) {
    throw new TypeError('give either retryAfterMs or doNotRetry, not both');
  }
  const [lo, hi] = elapsedMs === undefined ? [0, 0] : u64('elapsedMs', elapsedMs);
  const timeout = failureKind !== undefined && oneOf('failureKind', failureKind, KINDS) === 1;
  const kind = doNotRetry ? 2 : h === undefined ? 0 : 1;
  const has = elapsedMs !== undefined;
  if (budget === undefined) return s.step(kind, h ?? 0, has, lo, hi);
  if (!(budget instanceof RetryBudget)) {
    throw new TypeError(`budget must be a RetryBudget, got ${typeof budget}`);
  }
  return s.stepWithBudget(kind, h ?? 0, has, lo, hi, budgetState(budget), timeout);
}
