// SharedRetryBudget: a RetryBudget that the tabs and workers of an origin share by name, so that
// ten tabs retrying one failing API spend one budget (with the outbox, or with retry()'s
// `budget` option). The core still makes every decision; what is shared is the budget's one
// changing word, its tokens: read before each operation, written after it. In pages the word
// lives in localStorage (synchronous, origin-wide); where that is missing (a worker, a refused
// localStorage) the last value heard on a BroadcastChannel is used.
import { RetryBudget } from '../budget.js';

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // refused: an opaque origin, storage blocked
  }
}

export class SharedRetryBudget extends RetryBudget {
  #key;
  #config;
  #full;
  #heard = null;
  #channel = null;

  /** The budget named `name` (any non-empty string) with RetryBudget `options`. */
  constructor(name, options = {}) {
    if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
      throw new TypeError(`name: expected a string of 1 to 200 characters, got ${typeof name === 'string' ? `${name.length} characters` : typeof name}`);
    }
    super(options);
    this.#key = `seeded-backoff-budget:${name}`;
    this.#config = JSON.stringify(Object.keys(options).sort().map((k) => [k, options[k]]));
    this.#full = super.tokensMilli;
    if (typeof BroadcastChannel === 'function') {
      this.#channel = new BroadcastChannel(this.#key);
      this.#channel.onmessage = (e) => {
        if (e.data?.c === this.#config) this.#heard = e.data.t;
      };
      this.#channel.unref?.();
    }
    // A budget stored with other options starts again full under these.
    if (this.#read() === null) this.#write();
  }

  /** The shared tokens, or null if none is stored for these options. */
  #read() {
    let v = this.#heard;
    try {
      const s = JSON.parse(storage()?.getItem(this.#key) ?? 'null');
      if (s?.c === this.#config) v = s.t;
    } catch {
      // Unreadable: the value heard last.
    }
    return Number.isSafeInteger(v) && v >= 0 && v <= this.#full ? v : null;
  }

  #write() {
    const v = { c: this.#config, t: super.tokensMilli };
    try {
      storage()?.setItem(this.#key, JSON.stringify(v));
    } catch {
      // Full or refused: the channel still carries it.
    }
    this.#channel?.postMessage(v);
  }

  #shared(op) {
    const t = this.#read();
    if (t !== null) super.tokensMilli = t;
    const r = op();
    this.#write();
    return r;
  }

  recordFailure(kind) {
    this.#shared(() => super.recordFailure(kind));
  }

  tryAcquire(kind) {
    return this.#shared(() => super.tryAcquire(kind));
  }

  recordSuccess(retriedKind) {
    this.#shared(() => super.recordSuccess(retriedKind));
  }

  get tokensMilli() {
    return this.#read() ?? super.tokensMilli;
  }

  set tokensMilli(t) {
    this.#shared(() => {
      super.tokensMilli = t;
    });
  }

  get tokens() {
    return this.tokensMilli / 1000;
  }

  /** Stops listening to the other tabs. */
  close() {
    this.#channel?.close();
  }
}
