// Pacer: a server's schedule of returns (SPEC.md §16). Each request the server turns away (429 or
// 503) is told its own return second, at most the server's capacity a second, as Retry-After
// and rate-limit headers. Its words live in this object; the pacer part's core code updates them.
// A server-side helper: its own wasm part, which no client import pulls in.
import { pacer } from '../pkg/pacer-part.js';
import { ACTION_AT, LENS_AT, PACER_ERRORS, PACER_HEADER_NAMES, PACER_WORDS, RUN_AT } from '../pkg/tables.js';
import { BRAND, brandOf, VERSION } from './brand.js';
import { clockMs as clock, fail, failRule, int, keys, U32_MAX } from './check.js';
import { get, registry } from './engine.js';
import { seedHalves } from './options.js';
import { STATE, wordsOf } from './store-words.js';

const FIELDS = ['capacityPerS', 'reservePerMille', 'maxWaitS'];

export class Pacer {
  #w; // latest_ms, tail_s, reserve_s (lo, hi), the generator's four words, rate, max_wait_s, tail_count, capacity

  constructor(options = {}) {
    const w = wordsOf(options);
    if (w) {
      this.#w = w;
      return;
    }
    keys('Pacer options', options, [...FIELDS, 'seed']);
    const { capacityPerS, reservePerMille = 0, maxWaitS = 60, seed } = options;
    if (capacityPerS === undefined) throw new TypeError('Pacer needs capacityPerS');
    const v = [capacityPerS, reservePerMille, maxWaitS];
    v.forEach((x, i) => int(FIELDS[i], x, 0, U32_MAX, PACER_ERRORS[i]));
    const [lo, hi] = seedHalves(seed);
    const { u32, x } = get(pacer);
    const e = x.pacerNew(v[0], v[1], v[2], lo, hi);
    if (e) failRule(RangeError, PACER_ERRORS[e - 1], v[e - 1]);
    this.#w = u32.slice(RUN_AT, RUN_AT + PACER_WORDS);
  }

  /** What another copy of the package reads of this Pacer (brand.js): that it is one (its methods do the rest). */
  get [BRAND]() {
    return this.#w && { kind: 'Pacer', version: VERSION };
  }

  /**
   * The return of a request refused at `nowMs` (the server's monotonic clock): Retry-After
   * seconds, the reset in ms, whether the schedule was full, and the three headers' values.
   */
  assign(nowMs = performance.now()) {
    const [lo, hi] = clock(nowMs);
    const { u32, u8, x } = get(pacer);
    u32.set(this.#w, RUN_AT);
    if (x.pacerAssign(lo, hi)) throw new Error('seeded-backoff: the pacer state is corrupt');
    this.#w.set(u32.subarray(RUN_AT, RUN_AT + PACER_WORDS));
    const headers = {};
    let at = 0;
    PACER_HEADER_NAMES.forEach((name, i) => {
      const len = u32[LENS_AT + i];
      headers[name] = String.fromCharCode(...u8.subarray(at, at + len));
      at += len;
    });
    return { retryAfterS: u32[ACTION_AT], resetMs: u32[ACTION_AT + 1], full: u32[ACTION_AT + 2] === 1, headers };
  }

  /** The returns still scheduled after `nowMs`: a queue length to report, or to refuse first attempts on. */
  pending(nowMs = performance.now()) {
    const [lo, hi] = clock(nowMs);
    const { u32, x } = get(pacer);
    u32.set(this.#w, RUN_AT);
    return x.pacerPending(lo, hi);
  }

  /**
   * For a response (node:http's ServerResponse, Express's res) whose statusCode is 429 or 503:
   * assigns its return and sets the three headers. Returns the slot, or undefined for another status.
   */
  pace(res, nowMs) {
    if (res === null || typeof res !== 'object' || typeof res.setHeader !== 'function') {
      fail(TypeError, 'res', 'a response with setHeader() (node:http, Express)', res);
    }
    // The statuses a pacer paces: the core's list (a status that is no integer is none of them).
    if (!Number.isInteger(res.statusCode) || res.statusCode < 0 || !get(pacer).x.pacerPaces(res.statusCode)) return undefined;
    // Checked first, so that a response too late for headers takes no return.
    if (res.headersSent) throw new Error('pace(): the response has already sent its headers');
    const slot = this.assign(nowMs);
    for (const name of PACER_HEADER_NAMES) res.setHeader(name, slot.headers[name]);
    return slot;
  }

  /** For the shared pacer: a copy of the words; with `w`, the words replaced first. */
  [STATE](w) {
    if (w) this.#w.set(w);
    return this.#w.slice();
  }
}

/**
 * `pacer.pace(res)`: the paced headers on a 429 or 503 response (a Pacer of either module format:
 * brand.js). A SharedPacer (seeded-backoff/shared) answers a promise of the slot.
 */
export const pace = (res, pacer, nowMs) => {
  if (registry.sharedPacer?.(pacer)) return pacer.pace(res, nowMs);
  if (!(pacer instanceof Pacer) && !brandOf(pacer, 'Pacer', 'pacer')) fail(TypeError, 'pacer', 'a Pacer', pacer);
  return pacer.pace(res, nowMs);
};
