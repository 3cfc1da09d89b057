// The driver: the one context of an origin (a tab or the service worker) that delivers the
// outbox's requests. It is a shell over each request's run (SPEC.md §15, §15.4), as retry() is: it
// keeps the records in memory, sleeps until the earliest is due, reports each event to the run
// (paced by the outbox's send rate, §15.2, like any other run), makes the attempts the run answers,
// and writes the run's snapshot and the due time back, so that whoever drives next (after a
// reload, a crash, the tab closing) continues the same run. The run decides every wait, give-up
// and attempt number; the driver only does the I/O. The clock is nowMs(): a run outlives the
// page, and its send rate is shared with this context's other loops.
import * as sb from './sb.js';
import { OutboxError } from './error.js';
import { fault } from './record.js';

// setTimeout's longest timer (a longer one fires at once).
const MAX_TIMER = 2147483647;
// A Response constructed with a body cannot have these statuses.
const NULL_BODY = [101, 204, 205, 304];
// The phases a stored run can be in: the driver writes one back only between attempts.
const BETWEEN = ['ready', 'sleeping', 'paused'];

const offline = () => globalThis.navigator?.onLine === false;

export class Driver {
  #o; // { store, policy, budget, sendRate, settle(rec, outcome), skip(key, why), error(e), still() }
  #recs = new Map();
  #busy = new Set();
  #skipped = new Set();
  #timer;
  #ac = new AbortController();

  constructor(o) {
    this.#o = o;
    // The device going offline pauses every run between attempts, its coming back resumes them
    // (SPEC.md §13, §15): the run answers each wait.
    globalThis.addEventListener?.('offline', () => this.#every('pause'), { signal: this.#ac.signal });
    globalThis.addEventListener?.('online', () => this.#every('resume'), { signal: this.#ac.signal });
  }

  get size() {
    return this.#recs.size;
  }

  stop() {
    this.#ac.abort();
    clearTimeout(this.#timer);
  }

  /**
   * Reads the records that are new to this driver; each unusable one is reported once and left.
   * A new one whose run sleeps was put to sleep by a driver that is gone (a page closed, reloaded,
   * frozen past its lease). Due still ahead, its sleep goes on here; due already past, the sleep
   * ended with no driver to wake the run: its page resumes during the sleep, and the run re-draws
   * the wait (SPEC.md §15.4).
   */
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
      const run = this.#run(rec);
      const now = sb.nowMs();
      if (run.phase === 'sleeping' && rec.due < now) await this.#save(rec, run, run.resume(now));
    }
    // Delivered meanwhile by another driver (a lease that ran out): forgotten here.
    for (const key of this.#recs.keys()) if (!keys.has(key) && !this.#busy.has(key)) this.#recs.delete(key);
    // A driver that starts offline heard no 'offline' event: its runs pause now (SPEC.md §13).
    if (offline()) await this.#every('pause');
    else this.#schedule();
  }

  #refused(rec) {
    try {
      const { phase } = this.#run(rec);
      return BETWEEN.includes(phase) ? null : `run snapshot in phase ${phase}`;
    } catch (e) {
      return `run snapshot refused: ${e.code ?? e.message}`;
    }
  }

  /** `rec`'s run, restored from its snapshot under the outbox's policy, budget and send rate. */
  #run(rec) {
    return sb.restoreRun(this.#o.policy, rec.run, { budget: this.#o.budget, sendRate: this.#o.sendRate });
  }

  /** The device went offline (`pause`) or came back (`resume`): told to every run it concerns. */
  async #every(event) {
    const at = event === 'pause' ? ['ready', 'sleeping'] : ['paused'];
    for (const id of [...this.#recs.keys()]) {
      // Read again after each write: an attempt may have taken the record meanwhile.
      const rec = this.#recs.get(id);
      if (!rec || this.#busy.has(id)) continue;
      try {
        const run = this.#run(rec);
        if (!at.includes(run.phase)) continue;
        const now = sb.nowMs();
        await this.#save(rec, run, event === 'pause' ? run.pause('offline', now) : run.resume(now));
      } catch (e) {
        this.#o.error(e);
      }
    }
    this.#schedule();
  }

  /**
   * Keeps `run` as `rec`'s, due when its answer `a` (a wait, a retry, or a pause) says, and writes
   * it back; forgets it if another driver has delivered it meanwhile. When the write fails, the
   * run goes on in memory (the error is reported), and the next write stores it.
   */
  async #save(rec, run, a) {
    const ms = a.type === 'paused' ? a.maxMs ?? MAX_TIMER : a.delayMs;
    const next = { ...rec, run: sb.snapshot(run), due: sb.nowMs() + ms };
    this.#recs.set(rec.id, next);
    let stored;
    try {
      stored = await this.#o.store.update(next);
    } catch (e) {
      this.#o.error(e);
      return;
    }
    if (!stored) this.#recs.delete(rec.id);
  }

  // Offline too: a run paused offline is due at its pause's longest, after which it resumes (an
  // offline report can be wrong, SPEC.md §13).
  #schedule() {
    clearTimeout(this.#timer);
    if (this.#ac.signal.aborted) return;
    let next = Infinity;
    for (const r of this.#recs.values()) if (!this.#busy.has(r.id)) next = Math.min(next, r.due);
    if (next === Infinity) return;
    this.#timer = setTimeout(() => {
      for (const r of [...this.#recs.values()]) if (!this.#busy.has(r.id) && r.due <= sb.nowMs() + 4) this.#attempt(r);
      this.#schedule();
    }, Math.min(Math.max(0, next - sb.nowMs()), MAX_TIMER));
  }

  async #attempt(rec) {
    const o = this.#o;
    this.#busy.add(rec.id);
    try {
      if (!(await o.still())) return;
      const run = this.#run(rec);
      // A pause that reached its longest (offline past max_backoff_ms): it ends, and the run
      // answers the wait.
      if (run.phase === 'paused') {
        await this.#save(rec, run, run.resume(sb.nowMs()));
        return;
      }
      // The run's start or wake, paced by the send rate (SPEC.md §15.2): an attempt, a wait, or a
      // give-up (throttled, or a wait past the deadline).
      const go = run.phase === 'ready' ? run.start(sb.nowMs()) : run.wake(sb.nowMs());
      if (go.type !== 'attempt') {
        await this.#answer(rec, run, go, null, null);
        return;
      }
      let res;
      let err;
      try {
        res = await fetch(rec.url, { method: rec.method, headers: rec.headers, body: rec.body, cache: 'no-store', credentials: 'same-origin' });
      } catch (e) {
        err = e;
      }
      // Stopped meanwhile: the next driver continues from the stored run (the same Idempotency-Key).
      if (this.#ac.signal.aborted) return;
      // A failure while offline spends no retry: the run pauses (SPEC.md §13).
      if (err && offline()) {
        await this.#answer(rec, run, run.outcome('offline', sb.nowMs()), null, err);
        return;
      }
      const cls = res ? sb.classifyHttp(res.status) : 'retry';
      if (cls !== 'retry') {
        // The run settles the budget's refund of a success, and tells the send rate the status.
        run.outcome(cls === 'success' ? 'success' : 'permanent', sb.nowMs(), res.status);
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
      await this.#answer(rec, run, run.outcome(hint, sb.nowMs(), res?.status), res, err);
    } catch (e) {
      // Storage or the engine failed: reported, and the record forgotten here until the next
      // load reads it again as stored (the run decides its wait then).
      o.error(e);
      this.#recs.delete(rec.id);
    } finally {
      this.#busy.delete(rec.id);
      this.#schedule();
    }
  }

  /** Acts on the run's answer `a` after an event: a wait, retry or pause is stored, a give-up ends the request. */
  async #answer(rec, run, a, res, err) {
    if (a.type !== 'give_up') return this.#save(rec, run, a);
    const what = res ? `: HTTP ${res.status}` : err ? `: ${String(err?.message ?? err)}` : '';
    const error = new OutboxError('gave-up', `gave up after ${a.attempts} attempts (${a.reason})${what}`, { reason: a.reason, status: res?.status });
    return this.#end(rec, { error });
  }

  /**
   * Ends `rec` with `outcome`. A failed delete is reported and the outcome still settled; the
   * record, left stored, is not driven again here (the next driver finds it).
   */
  async #end(rec, outcome) {
    this.#recs.delete(rec.id);
    this.#skipped.add(rec.id);
    try {
      await this.#o.store.delete(rec.id);
    } catch (e) {
      this.#o.error(e);
    }
    this.#o.settle(rec, outcome);
  }
}
