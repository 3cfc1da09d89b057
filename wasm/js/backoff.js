// The per-request backoff state: a thin object over the core's state in wasm.
import * as glue from '../pkg/seeded_backoff.js';
import { coded, int, U32_MAX } from './check.js';
import { GIVE_UP, policyFields, seedHalves } from './policy.js';
import { step } from './step.js';
import { ensure } from './wasm.js';

const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

let adopted;

export class Backoff {
  #s;

  constructor(options = {}) {
    if (adopted) {
      this.#s = adopted;
      adopted = undefined;
      return;
    }
    const fields = policyFields(options);
    const [lo, hi] = seedHalves(options.seed);
    ensure();
    this.#s = new glue.BackoffState(...fields, lo, hi);
  }

  static restore(options, bytes) {
    const fields = policyFields(options);
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`bytes must be a Uint8Array (from snapshot()), got ${typeof bytes}`);
    }
    ensure();
    try {
      adopted = glue.backoffRestore(...fields, bytes);
    } catch (e) {
      throw typeof e === 'number' ? coded(RangeError, glue.snapshotError(e)) : e;
    }
    return new Backoff();
  }

  #state() {
    if (!this.#s) throw new Error('this Backoff was freed');
    return this.#s;
  }

  nextDelay(input) {
    // The hot path: checked inline rather than through #state().
    const s = this.#s;
    if (!s) this.#state();
    const d = input === undefined ? s.nextDelay() : step(s, input);
    return d < 0 ? null : d;
  }

  nextDelayWithHint(ms) {
    int('retryAfterMs', ms, 0, U32_MAX);
    const d = this.#state().step(1, ms, false, 0, 0, 0, false);
    return d < 0 ? null : d;
  }

  get giveUpReason() {
    return GIVE_UP[this.#state().giveUpCode()];
  }

  get retries() {
    return this.#state().retries();
  }

  get elapsedMs() {
    return glue.backoffElapsedMs(this.#state());
  }

  reset() {
    glue.backoffReset(this.#state());
  }

  snapshot() {
    return glue.backoffSnapshot(this.#state());
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
