// Outbox: requests that outlive the page. send() stores the request, its seeded run (a 100-byte
// run snapshot, SPEC.md §15.4) and the time of its next event in IndexedDB, then one driver per origin
// (driver.js, elected in elect.js) delivers it. Every tab, and the service worker, hears each
// outcome on a BroadcastChannel: the tab that sent the request settles its promise, the others
// (and a page loaded after the one that sent it) get an 'outcome' event.
import * as sb from './sb.js';
import { Driver } from './driver.js';
import { elect } from './elect.js';
import { OutboxError } from './error.js';
import { fault, makeRecord, randomSeed, uuid } from './record.js';
import { openStore } from './store.js';

const KEYS = ['name', 'policy', 'budget', 'sendRate', 'maxEntries', 'maxBytes', 'drive'];
const LIMITS = { maxEntries: [100, 1, 100000], maxBytes: [5e6, 1, 2 ** 40] };
const U64_MAX = 2n ** 64n - 1n;

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError(`Outbox options: expected an object, got ${options === null ? 'null' : typeof options}`);
  for (const k of Object.keys(options)) if (!KEYS.includes(k)) throw new TypeError(`Outbox options: unknown option '${k}' (known: ${KEYS.join(', ')})`);
  const { name = 'default', drive = true, budget, sendRate } = options;
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) throw new TypeError('name: expected a string of 1 to 200 characters');
  if (typeof drive !== 'boolean') throw new TypeError(`drive: expected a boolean, got ${typeof drive}`);
  if (budget !== undefined && typeof budget?.tryAcquire !== 'function') throw new TypeError('budget: expected a RetryBudget');
  const limits = {};
  for (const [k, [dflt, lo, hi]] of Object.entries(LIMITS)) {
    const v = options[k] ?? dflt;
    if (typeof v !== 'number') throw new TypeError(`${k}: expected an integer, got ${typeof v}`);
    if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`${k}: expected an integer in ${lo}..=${hi}, got ${v}`);
    limits[k] = v;
  }
  return { name, drive, budget, sendRate, limits };
}

function toSeed(seed) {
  if (seed === undefined) return randomSeed();
  if ((typeof seed !== 'number' || !Number.isSafeInteger(seed)) && typeof seed !== 'bigint') throw new TypeError('seed: expected an integer or a bigint');
  if (BigInt(seed) < 0n || BigInt(seed) > U64_MAX) throw new RangeError(`seed: expected 0..=2^64-1, got ${seed}`);
  return String(BigInt(seed));
}

export class Outbox extends EventTarget {
  #o;
  #tab = uuid();
  #ready;
  #store;
  #policy;
  #channel = null;
  #driver = null;
  #waiting = new Map();
  #closed = new AbortController();
  #elected;

  constructor(options = {}) {
    super();
    this.#o = checkOptions(options);
    try {
      this.#channel = new BroadcastChannel(`seeded-backoff-outbox:${this.#o.name}`);
      this.#channel.onmessage = (e) => this.#heard(e.data);
      // Node: an open channel must not keep the process alive.
      this.#channel.unref?.();
    } catch {
      // No BroadcastChannel here: this context hears only its own outcomes.
    }
    this.#ready = this.#open(options.policy);
    // Reported by each send(); a page that never sends must not see an unhandled rejection.
    this.#ready.catch(() => {});
  }

  get name() {
    return this.#o.name;
  }

  /** Whether this context is the origin's driver now. */
  get driving() {
    return this.#driver !== null;
  }

  async #open(policy = {}) {
    this.#policy = policy instanceof sb.Policy ? policy : new sb.Policy(policy);
    // A sendRate that is no SendRate: the Run's TypeError naming it, from every send(). Checked
    // by the engine, not by importing SendRate, so that an outbox without one loads none of it.
    if (this.#o.sendRate !== undefined) new sb.Run(this.#policy, { sendRate: this.#o.sendRate });
    this.#store = await openStore(this.#o.name);
    if (this.#o.drive) this.#elected = elect(this.#o.name, this.#tab, this.#store, this.#closed.signal, (s, still) => this.#drive(s, still));
  }

  async #drive(signal, still) {
    if (signal.aborted) return;
    const d = new Driver({
      store: this.#store, policy: this.#policy, budget: this.#o.budget, sendRate: this.#o.sendRate, still,
      settle: (rec, outcome) => this.#settle(rec, outcome),
      skip: (key, why) => this.#say({ t: 'skip', id: key, reason: why }),
      error: (e) => this.dispatchEvent(Object.assign(new Event('error'), { error: e })),
    });
    this.#driver = d;
    try {
      await d.load();
      this.dispatchEvent(new Event('drive'));
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    } catch (e) {
      this.dispatchEvent(Object.assign(new Event('error'), { error: e }));
    } finally {
      d.stop();
      this.#driver = null;
    }
  }

  /**
   * Stores the request (fetch's arguments) and resolves once it is stored: `{ id, done }`, where
   * `done` settles with the outcome (a Response, or an OutboxError when the schedule ends).
   */
  async queue(input, init, { seed } = {}) {
    const s = toSeed(seed);
    await this.#ready;
    if (this.#closed.signal.aborted) throw new OutboxError('closed', 'the outbox is closed');
    const req = new Request(input, init);
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await req.arrayBuffer();
    // A stored request's age is wall time: time offline counts toward the policy's deadline
    // (SPEC.md §15.4), as the time between pages does.
    const run = sb.snapshot(new sb.Run(this.#policy, { seed: BigInt(s), countPausedTime: true }));
    const rec = makeRecord(req, body, s, run, this.#tab);
    const w = {};
    const done = new Promise((resolve, reject) => Object.assign(w, { resolve, reject }));
    this.#waiting.set(rec.id, Object.assign(w, { done }));
    try {
      await this.#store.add(rec, this.#o.limits);
    } catch (e) {
      this.#waiting.delete(rec.id);
      throw e;
    }
    this.#wake();
    return { id: rec.id, done };
  }

  /** Stores the request and settles with its outcome. */
  async send(input, init, options) {
    return (await this.queue(input, init, options)).done;
  }

  /**
   * The pending requests as stored: `{ id, method, url, attempts, due }` each, `attempts` as
   * their runs count them (unusable ones left out).
   */
  async pending() {
    await this.#ready;
    const out = [];
    for (const [id, r] of await this.#store.all()) {
      if (fault(id, r)) continue;
      let attempts;
      try {
        attempts = sb.restoreRun(this.#policy, r.run).attempts;
      } catch {
        continue;
      }
      out.push({ id, method: r.method, url: r.url, attempts, due: r.due });
    }
    return out;
  }

  /** Resolves with true once nothing is pending, or with false after `maxMs`. */
  async idle(maxMs = Infinity) {
    await this.#ready;
    const end = Date.now() + maxMs;
    while ((await this.#store.all()).length > 0) {
      if (Date.now() >= end || this.#closed.signal.aborted) return false;
      await new Promise((r) => setTimeout(r, Math.min(250, end - Date.now())));
    }
    return true;
  }

  /** Stops driving and listening; pending requests stay stored for the next driver. */
  close() {
    this.#closed.abort();
    this.#channel?.close();
    for (const w of this.#waiting.values()) {
      // The request stays stored and is delivered by the next driver; a caller that no longer
      // waits for it must not see an unhandled rejection.
      w.done.catch(() => {});
      w.reject(new OutboxError('closed', 'the outbox is closed; the request stays stored'));
    }
    this.#waiting.clear();
    // After the election has let go (a lease is given back through the database).
    this.#ready.then(() => this.#elected).finally(() => this.#store?.close()).catch(() => {});
  }

  // A request was stored: the driver (here, in another tab, or the service worker) reads it.
  #wake() {
    if (this.#driver) this.#driver.load().catch(() => {});
    else this.#channel?.postMessage({ t: 'wake' });
    const sw = globalThis.navigator?.serviceWorker;
    if (sw?.controller) {
      sw.controller.postMessage({ seededBackoffOutbox: this.#o.name });
      sw.ready.then((r) => r.sync?.register(`seeded-backoff-outbox:${this.#o.name}`)).catch(() => {});
    }
  }

  #settle(rec, { response, error }) {
    this.#say(error
      ? { t: 'outcome', id: rec.id, error: { code: error.code, message: error.message, reason: error.reason, status: error.status } }
      : { t: 'outcome', id: rec.id, response });
  }

  /** Tells this context and the others. */
  #say(msg) {
    this.#heard(msg);
    try {
      this.#channel?.postMessage(msg);
    } catch {
      // Closed.
    }
  }

  #heard(msg) {
    if (msg?.t === 'wake') {
      this.#driver?.load().catch(() => {});
    } else if (msg?.t === 'skip') {
      this.dispatchEvent(Object.assign(new Event('skip'), { id: msg.id, reason: msg.reason }));
    } else if (msg?.t === 'outcome') {
      const r = msg.response;
      const value = r
        ? new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers })
        : new OutboxError(msg.error.code, msg.error.message, { reason: msg.error.reason, status: msg.error.status });
      const w = this.#waiting.get(msg.id);
      if (w) {
        this.#waiting.delete(msg.id);
        if (r) w.resolve(value);
        else w.reject(value);
      } else {
        this.dispatchEvent(Object.assign(new Event('outcome'), { id: msg.id, [r ? 'response' : 'error']: value }));
      }
    }
  }
}
