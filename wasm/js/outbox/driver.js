// The driver: the one context of an origin (a tab or the service worker) that delivers the
// outbox's requests. It is a shell over each request's run (SPEC.md §15), as retry() is: it keeps
// the records in memory, sleeps until the earliest is due, makes the attempt, reports what
// happened to the run, and writes the run's snapshot and the due time back before it sleeps
// again, so that whoever drives next (after a reload, a crash, the tab closing) continues the same
// run. The clock is Date.now(): a run outlives the page, and performance.now() does not.
import * as sb from '../index.js';
import { OutboxError } from './error.js';
import { fault } from './record.js';

// setTimeout's longest timer (a longer one fires at once).
const MAX_TIMER = 2147483647;
// A record first seen overdue by more than this is re-drawn: its driver was away (closed,
// discarded, asleep) and the devices that come back together must not fire together (SPEC.md
// §13). Less is timer slack or a tab handing over, and keeps the stored time.
export const OVERDUE_MS = 1000;
// A Response constructed with a body cannot have these statuses.
const NULL_BODY = [101, 204, 205, 304];

const offline = () => globalThis.navigator?.onLine === false;
const mono = () => Math.floor(performance.now());
// The policy of a send rate's gate runs: the default one, without a deadline (the stored run's
// policy bounds the delivery).
let gatePolicy;

export class Driver {
  #o; // { store, policy, budget, sendRate, maxAgeMs, settle(rec, outcome), skip(key, why), still() }
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
      // A stored run is between attempts: the driver writes one back only after an outcome.
      const { phase } = this.#run(rec);
      return ['ready', 'sleeping', 'paused'].includes(phase) ? null : `run snapshot in phase ${phase}`;
    } catch (e) {
      return `run snapshot refused: ${e.code ?? e.message}`;
    }
  }

  /** `rec`'s run, restored from its snapshot under the outbox's policy and budget. */
  #run(rec) {
    return sb.restoreRun(this.#o.policy, rec.run, { budget: this.#o.budget });
  }

  /**
   * Re-draws `rec`'s wait as after a pause (SPEC.md §13): the run resumes, and its answer is the
   * wait. A request not yet tried is first paused, so that its window is the schedule's level.
   */
  async #redraw(rec) {
    const run = this.#run(rec);
    const now = Date.now();
    if (run.phase === 'ready') run.pause('hidden', now);
    const a = run.resume(now);
    await this.#save({ ...rec, run: sb.snapshot(run), wait: a.delayMs, due: now + a.delayMs });
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
      const run = this.#run(rec);
      // A pause that reached its longest (offline past max_backoff_ms): the run re-draws the wait.
      if (run.phase === 'paused') {
        await this.#redraw(rec);
        return;
      }
      // The send rate first (SPEC.md §15.2, §17), through a run of its own for this attempt, on
      // performance.now(), the clock the rate shares with this context's other loops (the stored
      // run keeps Date.now(): it outlives the page). Its paced start answers whether the attempt
      // goes; a wait moves it (in memory: the stored time stays the run's), a refusal ends the
      // request. Its outcome tells the rate the response's status, which the core reads (§17.3).
      const gate = o.sendRate && new sb.Run((gatePolicy ??= new sb.Policy()), { sendRate: o.sendRate });
      const pace = gate?.start(mono());
      if (pace?.type === 'wait') {
        rec.due = Date.now() + pace.delayMs;
        return;
      }
      if (pace?.type === 'give_up') {
        await this.#end(rec, { error: new OutboxError('gave-up', `gave up after ${rec.attempts ?? 0} attempts (${pace.reason})`, { reason: pace.reason }) });
        return;
      }
      if (run.phase === 'ready') run.start(Date.now());
      else run.wake(Date.now());
      let res;
      let err;
      try {
        res = await fetch(rec.url, { method: rec.method, headers: rec.headers, body: rec.body, cache: 'no-store', credentials: 'same-origin' });
      } catch (e) {
        err = e;
      }
      // Stopped meanwhile: the next driver continues from the stored run (the same Idempotency-Key).
      if (this.#ac.signal.aborted) return;
      // A failure while offline spends no retry: the run pauses, and the wait is re-drawn when the
      // device is back (or after the run's longest pause).
      if (err && offline()) {
        const a = run.outcome('offline', Date.now());
        await this.#save({ ...rec, run: sb.snapshot(run), due: Date.now() + a.maxMs });
        return;
      }
      const cls = res ? sb.classifyStatus(res.status) : 'retry';
      if (cls !== 'retry') {
        // The run settles the budget's refund of a success.
        const outcome = cls === 'success' ? 'success' : 'permanent';
        run.outcome(outcome, Date.now());
        gate?.outcome(outcome, mono(), res.status);
        const body = NULL_BODY.includes(res.status) ? null : await res.arrayBuffer();
        await this.#end(rec, { response: { status: res.status, statusText: res.statusText, headers: [...res.headers], body } });
        return;
      }
      // The server's hint by the rule retry() follows: Retry-After, else a 429's rate-limit header.
      // Where the date part cannot load (a bundled module service worker refuses import()), the
      // schedule's own wait stands rather than the request stalling.
      const hint = res ? await sb.hintFromHeaders(res.status, res.headers).catch(() => ({})) : {};
      // The hint may have loaded the date part: stopped meanwhile, the next driver continues.
      if (this.#ac.signal.aborted) return;
      res?.body?.cancel().catch(() => {});
      if (res) gate?.outcome(hint, mono(), res.status);
      const a = run.outcome(hint, Date.now());
      if (a.type === 'give_up') {
        const what = res ? `HTTP ${res.status}` : String(err?.message ?? err);
        await this.#end(rec, { error: new OutboxError('gave-up', `gave up after ${a.attempts} attempts (${a.reason}): ${what}`, { reason: a.reason, status: res?.status }) });
        return;
      }
      await this.#save({ ...rec, run: sb.snapshot(run), wait: a.delayMs, due: Date.now() + a.delayMs, attempts: a.attempt });
    } catch (e) {
      // Storage failed: the record stays as stored, and is tried again after its wait.
      o.error(e);
      rec.due = Date.now() + (rec.wait || OVERDUE_MS);
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
