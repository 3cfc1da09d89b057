// `seeded-backoff/shared`: one retry budget, pacer or send rate for a whole fleet, kept in Valkey
// or Redis through an iovalkey (or ioredis) client (SPEC.md §19). Each shared part wraps a local
// part of the same configuration (its state is the cold start) and one key: every decision is the
// local part's own, made on the words the store holds at the store's TIME and written back by the
// core's compare-and-set script; a decision waits for the store at most 50 ms, all round trips
// included, and is then made at once from this process's own copy; a late reply costs that
// decision only, while a failure, three late decisions in a row or another configuration's value
// make the process local: it decides alone and asks the store again 200 ms later (then rejoins,
// with no burst, what it decided alone carried into the fleet's state). One decision of a part goes to the store at a time per process; another waits
// its turn within the bound, else is made alone. The methods that decide return promises; retry() and fetchWithBackoff() take a
// SharedSendRate as `sendRate` and a SharedBudget as `budget`, pace() a SharedPacer.
import { STORE_BOUND_MS, STORE_ERRORS, STORE_SCRIPT } from '../pkg/tables.js';
import { pacer as pacerPart } from '../pkg/pacer-part.js';
import { RetryBudget } from './budget.js';
import { bool, clockMs, fail, int, keys } from './check.js';
import { nowMs } from './clock.js';
import { get, registry } from './engine.js';
import { SHARED } from './gate.js';
import { Pacer } from './pacer.js';
import { SendRate, turn } from './send-rate.js';
import { decode, encode } from './store-codec.js';
import { STATE } from './store-words.js';
import { exchange, LATE, Link, needsStore } from './shared-link.js';

/** The compare-and-set script every binding runs on a part's key (SPEC.md §19.4), the core's text. */
export { STORE_BOUND_MS, STORE_SCRIPT as CAS_SCRIPT };

const codec = (Part, name) => ({ Part, name, encode: (w) => encode(name, w), decode: (w, bytes) => decode(name, w, bytes) });
const KINDS = { RetryBudget: codec(RetryBudget, 'budget'), Pacer: codec(Pacer, 'pacer'), SendRate: codec(SendRate, 'send rate') };
const make = (kind, w) => new kind.Part({ [STATE]: w });
const EMPTY = new Uint8Array(0);
// iovalkey sends a Buffer as bytes (a Uint8Array it would send as text).
const bytes = (v) => (globalThis.Buffer ? globalThis.Buffer.from(v.buffer, v.byteOffset, v.length) : v);

/** Each shared part's link, client, key, clock and bound (module-private). */
const inner = new WeakMap();

/** The script's answer [set, value or null, ms] as the link reads it, or null for another one. */
function reply(r) {
  if (!Array.isArray(r) || r.length !== 3) return null;
  const [set, value, ms] = r;
  if (value !== null && !(value instanceof Uint8Array)) return null;
  return [Number(set) === 1, value, Number(ms)];
}

/** The script's reply to one step (null: read): null when the store failed, LATE past the deadline (performance.now()). */
async function call(s, step, deadline) {
  const left = deadline - performance.now();
  if (left <= 0) return LATE;
  let timer;
  const sent = Promise.resolve()
    .then(() => s.client.evalBuffer(STORE_SCRIPT, 1, s.key, ...(step ? [bytes(step[0] ?? EMPTY), bytes(step[1])] : [])));
  // A reply after the bound is dropped: its decision was made alone.
  sent.catch(() => {});
  try {
    const r = await Promise.race([sent, new Promise((resolve) => (timer = setTimeout(resolve, left, LATE)))]);
    return r === LATE ? LATE : reply(r);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The process's turn at the store for part `s` (one decision at a time, so the process's own
 * decisions never conflict with each other), by the deadline: a release function, or null when it
 * did not come (the decision is then made alone).
 */
async function storeTurn(s, deadline) {
  const before = s.tail;
  let release;
  const mine = new Promise((resolve) => (release = resolve));
  s.tail = before.then(() => mine);
  let timer;
  const got = await Promise.race([before.then(() => true), new Promise((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - performance.now()), false);
  })]);
  clearTimeout(timer);
  if (got) return release;
  // Given up: the decisions queued after this one wait only for those before it.
  before.then(release);
  return null;
}

/** `decide(words, fleetMs)` → [answer, words] through the store (or alone), at the caller's `callerMs`. */
async function decideWords(s, callerMs, decide) {
  const deadline = performance.now() + s.boundMs;
  const needed = needsStore(s.link, callerMs);
  const release = needed ? await storeTurn(s, deadline) : null;
  try {
    const gen = exchange(s.link, callerMs, decide, needed && !release);
    let step = gen.next();
    while (!step.done) step = gen.next(await call(s, step.value, deadline));
    return step.value;
  } finally {
    release?.();
  }
}

/** `method(part, fleetMs)` on a local part of the words the decision is made on. */
const decidePart = (s, callerMs, method) => decideWords(s, callerMs, (w, now) => {
  const part = make(s.kind, w);
  const out = method(part, now);
  return [out, part[STATE]()];
});

class Shared {
  constructor(name, client, key, part, options) {
    keys(`${name} options`, options, ['clock', 'storeClock', 'boundMs']);
    const kind = KINDS[name.replace('Shared', '').replace('Budget', 'RetryBudget')];
    if (!(part instanceof kind.Part)) fail(TypeError, name === 'SharedBudget' ? 'budget' : name === 'SharedPacer' ? 'pacer' : 'sendRate', `a ${kind.Part.name}`, part);
    if (typeof client?.evalBuffer !== 'function') fail(TypeError, 'client', 'an iovalkey (or ioredis) client', client);
    if (typeof key !== 'string' || key === '') fail(TypeError, 'key', 'a non-empty string', key);
    const { clock = nowMs, storeClock = true, boundMs = STORE_BOUND_MS } = options;
    if (typeof clock !== 'function') fail(TypeError, 'clock', 'a function returning ms', clock);
    bool('storeClock', storeClock);
    int('boundMs', boundMs, 1, 60000);
    inner.set(this, { kind, client, key, clock, boundMs, link: new Link(kind, part[STATE](), storeClock), tail: Promise.resolve() });
  }

  /** A shared part: the engine never asks one directly (its methods answer promises). */
  get [SHARED]() {
    return true;
  }

  /** Where the link to the store stands: 'joining', 'joined' or 'local' (SPEC.md §19). */
  get linkState() {
    return inner.get(this).link.state;
  }

  /** Decisions made, those made alone, and conflicts met. */
  get stats() {
    return { ...inner.get(this).link.stats };
  }

  /** Why the last value read could not be used ('format', 'kind', 'config', 'state'), or undefined. */
  get storeError() {
    const e = inner.get(this).link.error;
    return e ? STORE_ERRORS[e - 1] : undefined;
  }

  /** This process's copy of the state in the store's encoding (SPEC.md §19.2). */
  storedValue() {
    const s = inner.get(this);
    return s.kind.encode(s.link.local);
  }
}

/** The caller's reading `v` (or the part's clock's), checked as every nowMs is. */
function now(s, v) {
  const t = v === undefined ? s.clock() : v;
  clockMs(t);
  return t;
}
const view = (self, read) => {
  const s = inner.get(self);
  return read(make(s.kind, s.link.local));
};

export class SharedSendRate extends Shared {
  constructor(client, key, sendRate, options = {}) {
    super('SharedSendRate', client, key, sendRate, options);
  }

  /** SendRate.ask on the fleet's state. */
  ask(nowMs) {
    const s = inner.get(this);
    return decidePart(s, now(s, nowMs), (r, t) => r.ask(t));
  }

  /** SendRate.answer on the fleet's state; `sentMs`, on the caller's clock, is moved onto the fleet's. */
  async answer(kind, hintMs = 0, nowMs = undefined, sentMs = undefined) {
    const s = inner.get(this);
    const sent = sentMs === undefined ? undefined : s.link.fleetMs(now(s, sentMs));
    await decidePart(s, now(s, nowMs), (r, t) => r.answer(kind, hintMs, t, sent));
  }

  /** Waits (setTimeout) until an attempt may go: `{ kind: 'send' }`, or with failFast the first refusal. */
  async waitTurn({ signal } = {}) {
    return turn(() => this.ask(), signal);
  }

  /** The learnt rate in thousandths of a request per second, as this process last saw it. */
  get rateMilli() {
    return view(this, (r) => r.rateMilli);
  }
}

export class SharedBudget extends Shared {
  constructor(client, key, budget, options = {}) {
    super('SharedBudget', client, key, budget, options);
  }

  recordFailure(kind) {
    const s = inner.get(this);
    return decidePart(s, s.clock(), (b) => b.recordFailure(kind));
  }

  tryAcquire(kind) {
    const s = inner.get(this);
    return decidePart(s, s.clock(), (b) => b.tryAcquire(kind));
  }

  recordSuccess(retriedKind) {
    const s = inner.get(this);
    return decidePart(s, s.clock(), (b) => b.recordSuccess(retriedKind));
  }

  /** The tokens in thousandths, as this process last saw them. */
  get tokensMilli() {
    return view(this, (b) => b.tokensMilli);
  }

  get tokens() {
    return this.tokensMilli / 1000;
  }
}

export class SharedPacer extends Shared {
  constructor(client, key, pacer, options = {}) {
    super('SharedPacer', client, key, pacer, options);
  }

  /** Pacer.assign on the fleet's schedule. */
  assign(nowMs) {
    const s = inner.get(this);
    return decidePart(s, now(s, nowMs), (p, t) => p.assign(t));
  }

  /** Pacer.pending on the fleet's schedule. */
  pending(nowMs) {
    const s = inner.get(this);
    return decidePart(s, now(s, nowMs), (p, t) => p.pending(t));
  }

  /** Pacer.pace on the fleet's schedule: the slot (or undefined for a status it does not pace). */
  async pace(res, nowMs) {
    if (res === null || typeof res !== 'object' || typeof res.setHeader !== 'function') {
      fail(TypeError, 'res', 'a response with setHeader() (node:http, Express)', res);
    }
    if (!Number.isInteger(res.statusCode) || res.statusCode < 0 || !get(pacerPart).x.pacerPaces(res.statusCode)) return undefined;
    if (res.headersSent) throw new Error('pace(): the response has already sent its headers');
    const slot = await this.assign(nowMs);
    for (const [name, value] of Object.entries(slot.headers)) res.setHeader(name, value);
    return slot;
  }
}

// A run's events behind shared parts (retry(), fetchWithBackoff()): `f(budget, sendRate, now)`,
// the engine's synchronous event, run on local parts of the words each decision is made on; each
// try starts from the run's words `rw` and the local parts' words as they were before the event. With both shared, the budget's decision
// is made first (on the send rate as this process last saw it) and the send rate's tries replay
// the event on the budget's words that decision was made on, writing no budget again. Registered
// here, so that a run without shared parts loads none of this module.
registry.sharedEvent = (budget, sendRate) => {
  const sb = budget instanceof SharedBudget ? inner.get(budget) : null;
  const sr = sendRate instanceof SharedSendRate ? inner.get(sendRate) : null;
  if (!sb && !sr) return null;
  // Local parts' words before the event: each try starts from them.
  const localOf = (p, shared) => (shared || p === undefined || typeof p[STATE] !== 'function' ? null : p);
  const lb = localOf(budget, sb);
  const lr = localOf(sendRate, sr);
  return async (nowMs, f, rw) => {
    const saved = [lb, lr].filter(Boolean).map((p) => [p, p[STATE]()]);
    const run = rw.slice();
    const fresh = (fn) => (...args) => {
      for (const [p, w] of saved) p[STATE](w);
      rw.set(run);
      return fn(...args);
    };
    const at = sr ? sr.link.fleetMs(nowMs) : nowMs;
    let b = budget;
    if (sb) {
      const rate = sr ? make(sr.kind, sr.link.local) : sendRate;
      let made;
      const out = await decideWords(sb, sb.clock(), fresh((w) => {
        made = w;
        const part = make(sb.kind, w);
        const a = f(part, rate, at);
        return [a, part[STATE]()];
      }));
      if (!sr) return out;
      b = make(sb.kind, made);
    }
    const madeBudget = sb ? b[STATE]() : null;
    return decideWords(sr, nowMs, fresh((w, t) => {
      const part = make(sr.kind, w);
      const bud = madeBudget ? make(sb.kind, madeBudget) : b;
      const a = f(bud, part, t);
      return [a, part[STATE]()];
    }));
  };
};
registry.sharedPacer = (p) => p instanceof SharedPacer;
