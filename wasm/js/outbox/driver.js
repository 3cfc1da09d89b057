// The driver: the one context of an origin (a tab or the service worker) that delivers the
// outbox's requests. It keeps the records in memory, sleeps until the earliest is due, makes the
// attempt, and writes the new snapshot and due time back before it sleeps again, so that whoever
// drives next (after a reload, a crash, the tab closing) continues the same schedule.
import * as sb from '../index.js';
import { OutboxError } from './error.js';
import { fault, level } from './record.js';

// setTimeout's longest timer (a longer one fires at once).
const MAX_TIMER = 2147483647;
// A record first seen overdue by more than this is re-drawn: its driver was away (closed,
// discarded, asleep) and the devices that come back together must not fire together (SPEC.md
// §13). Less is timer slack or a tab handing over, and keeps the stored time.
export const OVERDUE_MS = 1000;
// A Response constructed with a body cannot have these statuses.
const NULL_BODY = [101, 204, 205, 304];

const offline = () => globalThis.navigator?.onLine === false;

export class Driver {
  #o; // { store, policy, budget, maxAgeMs, settle(rec, outcome), skip(key, why), still() }
  #recs = new Map();
  #busy = new Set();
  #skipped = new Set();
  #timer;
  #ac = new AbortController();

  constructor(o) {
    this.#o = o;
    // Going offline stops the sleeps; coming back re-draws them (SPEC.md §13).
    globalThis.addEventListener?.('offline', () => this.#schedule(), { signal: this.#ac.signal });
    globalThis.addEventListener?.('online', () => this.#redrawAll(), { signal: this.#ac.signal });
  }

  get size() {
    return this.#recs.size;
  }

  stop() {
    this.#ac.abort();
    clearTimeout(this.#timer);
  }

  /** Reads the records that are new to this driver; each unusable one is reported once and left. */
  async load() {
    const rows = await this.#o.store.all();
    const keys = new Set();
    for (const [key, rec] of rows) {
      keys.add(key);
      if (this.#recs.has(key) || this.#skipped.has(key)) continue;
      const why = fault(key, rec) ?? this.#refused(rec);
      if (why) {
        this.#skipped.add(key);
        this.#o.skip(key, why);
        continue;
      }
      this.#recs.set(key, rec);
      if (Date.now() - rec.due > OVERDUE_MS) await this.#redraw(rec);
    }
    // Delivered meanwhile by another driver (a lease that ran out): forgotten here.
    for (const key of this.#recs.keys()) if (!keys.has(key) && !this.#busy.has(key)) this.#recs.delete(key);
    this.#schedule();
  }

  #refused(rec) {
    try {
      sb.restore(this.#o.policy, rec.snap);
      return null;
    } catch (e) {
      return `snapshot refused: ${e.code ?? e.message}`;
    }
  }

  /**
   * Re-draws `rec`'s wait as after a pause: uniform in 0..=window by the core's startup delay,
   * seeded from the request's seed XOR its count of re-draws. The window is the sleep that was
   * stopped, or the schedule's level where none was (a request not yet tried).
   */
  async #redraw(rec) {
    const k = (rec.k + 1) >>> 0;
    const ms = sb.startupDelay(BigInt(rec.seed) ^ BigInt(k), rec.wait || level(rec.snap));
    await this.#save({ ...rec, k, due: Date.now() + ms });
  }

  async #redrawAll() {
    for (const rec of [...this.#recs.values()]) if (!this.#busy.has(rec.id)) await this.#redraw(rec).catch(() => {});
    this.#schedule();
  }

  /** Writes `rec` back; forgets it if another driver has delivered it meanwhile. */
  async #save(rec) {
    if (await this.#o.store.update(rec)) this.#recs.set(rec.id, rec);
    else this.#recs.delete(rec.id);
  }

  #schedule() {
    clearTimeout(this.#timer);
    if (this.#ac.signal.aborted || offline()) return;
    let next = Infinity;
    for (const r of this.#recs.values()) if (!this.#busy.has(r.id)) next = Math.min(next, r.due);
    if (next === Infinity) return;
    this.#timer = setTimeout(() => {
      for (const r of [...this.#recs.values()]) if (!this.#busy.has(r.id) && r.due <= Date.now() + 4) this.#attempt(r);
      this.#schedule();
    }, Math.min(Math.max(0, next - Date.now()), MAX_TIMER));
  }

  async #attempt(rec) {
    const o = this.#o;
    this.#busy.add(rec.id);
    try {
      if (!(await o.still())) return;
      if (Date.now() - rec.created > o.maxAgeMs) {
        await this.#end(rec, { error: new OutboxError('gave-up', `gave up: older than maxAgeMs ${o.maxAgeMs}`, { reason: 'max-age' }) });
        return;
      }
      let res;
      let err;
      try {
        res = await fetch(rec.url, { method: rec.method, headers: rec.headers, body: rec.body, cache: 'no-store', credentials: 'same-origin' });
      } catch (e) {
        err = e;
      }
      // Stopped meanwhile: the next driver continues from the record (the same Idempotency-Key).
      if (this.#ac.signal.aborted) return;
      // A failure while offline spends no retry: the wait is re-drawn when the device is back.
      if (err && offline()) return;
      const cls = res ? sb.classifyStatus(res.status) : 'retry';
      if (cls !== 'retry') {
        const body = NULL_BODY.includes(res.status) ? null : await res.arrayBuffer();
        await this.#end(rec, { response: { status: res.status, statusText: res.statusText, headers: [...res.headers], body } });
        return;
      }
      const b = sb.restore(o.policy, rec.snap);
      // The server's hint by the rule retry() follows: Retry-After, else a 429's rate-limit header.
      // Where the date part cannot load (a bundled module service worker refuses import()), the
      // schedule's own wait stands rather than the request stalling.
      const input = res ? await sb.hintFromHeaders(res.status, res.headers).catch(() => ({})) : {};
      // The hint may have loaded the date part: stopped meanwhile, the next driver continues.
      if (this.#ac.signal.aborted) return;
      if (o.budget) input.budget = o.budget;
      const d = b.nextDelay(input);
      res?.body?.cancel().catch(() => {});
      const attempts = rec.attempts + 1;
      if (d === null) {
        const what = res ? `HTTP ${res.status}` : String(err?.message ?? err);
        await this.#end(rec, { error: new OutboxError('gave-up', `gave up after ${attempts} attempts (${b.giveUpReason}): ${what}`, { reason: b.giveUpReason, status: res?.status }) });
        return;
      }
      await this.#save({ ...rec, snap: sb.snapshot(b), wait: d, due: Date.now() + d, attempts });
    } catch (e) {
      // Storage failed: the record stays as stored, and is tried again after its wait.
      o.error(e);
      rec.due = Date.now() + (rec.wait || level(rec.snap));
    } finally {
      this.#busy.delete(rec.id);
      this.#schedule();
    }
  }

  async #end(rec, outcome) {
    await this.#o.store.delete(rec.id);
    this.#recs.delete(rec.id);
    this.#o.settle(rec, outcome);
  }
}
