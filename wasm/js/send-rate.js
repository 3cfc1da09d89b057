// SendRate: an adaptive send rate (SPEC.md §17), one per process and server, shared by every
// request to it. It learns the rate the server accepts from its answers and paces every attempt,
// first attempts included, just under it. Its configuration and state words live in this object;
// the send-rate part's core code updates them. JS runs one call at a time, so one object shared by
// any number of concurrent requests sees each ask and answer as one transition (SPEC.md §17.6).
import { send_rate as part } from '../pkg/send_rate-part.js';
import {
  ACTION_AT, ANSWER_ACCEPTED, ANSWER_NO_ANSWER, ANSWER_THROTTLED, PACE_REFUSE, PACE_SEND, PACE_WAIT,
  SEND_RATE_AREA, SEND_RATE_DEFAULTS, SEND_RATE_ERRORS, SEND_RATE_FAIL_FAST, SEND_RATE_FIELDS,
} from '../pkg/tables.js';
import { bool, clockMs, failRule, int, keys, oneOf, U32_MAX } from './check.js';
import { BRAND, VERSION } from './brand.js';
import { nowMs as clock } from './clock.js';
import { get, registry } from './engine.js';
import { asking } from './gate.js';
import { STATE, wordsOf } from './store-words.js';

const KINDS = ['accepted', 'throttled', 'no_answer'];
const CODES = [ANSWER_ACCEPTED, ANSWER_THROTTLED, ANSWER_NO_ANSWER];
const PACES = { [PACE_SEND]: 'send', [PACE_WAIT]: 'wait', [PACE_REFUSE]: 'refuse' };
const corrupt = () => {
  throw new Error('seeded-backoff: the send rate state is corrupt');
};

/** The part, ready, with a word view of its shared bytes (where the send rate's words go). */
function engine() {
  const p = get(part);
  p.words ??= new Uint32Array(p.u8.buffer, p.u8.byteOffset, SEND_RATE_AREA);
  return p;
}

export class SendRate {
  #w; // the configuration's words in the core's order of checking, failFast, the state's u64 words as halves

  static {
    // A run's `sendRate` (retry(), fetchWithBackoff(), Run): for a SendRate, its #pace (its paced
    // run events, run-words.js), else undefined. Registered rather than imported, so that a run
    // without a send rate loads none of this module: a program that has a SendRate to give has
    // loaded it.
    registry.pace = (r) => (Object(r) === r && #w in r ? r.#pace : undefined);
  }

  /**
   * Runs `f(part, asking)` on the part with this send rate's words in place: `asking` is this
   * copy's gate (gate.js), the one the part's engine asks a budget through.
   */
  #pace = (f) => this.#call((p) => f(p, asking));

  /** What another copy of the package reads of this SendRate (brand.js): its pacing of a run's events. */
  get [BRAND]() {
    return { kind: 'SendRate', version: VERSION, pace: this.#pace };
  }

  constructor(options = {}) {
    const w = wordsOf(options);
    if (w) {
      this.#w = w;
      return;
    }
    keys('SendRate options', options, [...SEND_RATE_FIELDS, 'failFast']);
    const v = SEND_RATE_FIELDS.map((f, i) => (options[f] === undefined ? SEND_RATE_DEFAULTS[i] : options[f]));
    v.forEach((x, i) => int(SEND_RATE_FIELDS[i], x, 0, U32_MAX, SEND_RATE_ERRORS[i]));
    const failFast = bool('failFast', options.failFast === undefined ? SEND_RATE_FAIL_FAST : options.failFast);
    const p = engine();
    p.words.set([...v, failFast ? 1 : 0]);
    const e = p.x.sendRateNew();
    if (e) failRule(RangeError, SEND_RATE_ERRORS[e - 1], v[e - 1]);
    this.#w = p.words.slice();
  }

  /** Runs `f` on the part with this send rate's words in place, and keeps the words it leaves. */
  #call(f) {
    const p = engine();
    p.words.set(this.#w);
    const out = f(p);
    this.#w.set(p.words);
    return out;
  }

  /**
   * Before every attempt, at `nowMs` on a monotonic clock (SPEC.md §17.4): `{ kind: 'send', ms: 0 }`,
   * `{ kind: 'wait', ms }` (ask again after ms: nothing is reserved) or, with failFast,
   * `{ kind: 'refuse', ms }`.
   */
  ask(nowMs = clock()) {
    const [lo, hi] = clockMs(nowMs);
    return this.#call(({ u32, x }) => {
      const kind = PACES[x.sendRateAsk(lo, hi)];
      if (kind === undefined) corrupt();
      return { kind, ms: u32[ACTION_AT] };
    });
  }

  /**
   * The server's answer to an attempt (SPEC.md §17.5): 'accepted' (any response but a throttle),
   * 'throttled' (a 429, or a 503 with a hint; `hintMs` that hint, 0 for none) or 'no_answer'.
   */
  answer(kind, hintMs = 0, nowMs = clock(), sentMs = undefined) {
    const code = CODES[oneOf('kind', kind, KINDS)];
    int('hintMs', hintMs, 0, U32_MAX);
    const [lo, hi] = clockMs(nowMs);
    // When the attempt was sent (SPEC.md §17.5): omitted, at the answer's reading.
    const [slo, shi] = sentMs === undefined ? [0, 0] : clockMs(sentMs, 'sentMs');
    if (this.#call(({ x }) => x.sendRateAnswer(lo, hi, code, hintMs, sentMs !== undefined, slo, shi))) corrupt();
  }

  /** Waits (setTimeout, on the package's clock, nowMs()) until an attempt may go: `{ kind: 'send' }`, or with failFast the first refusal at once. */
  async waitTurn({ signal } = {}) {
    return turn(() => this.ask(), signal);
  }

  /** For the shared send rate: a copy of the words; with `w`, the words replaced first. */
  [STATE](w) {
    if (w) this.#w.set(w);
    return this.#w.slice();
  }

  /** The learnt rate in thousandths of a request per second; 0 while off (no throttle yet). */
  get rateMilli() {
    const rate = this.#call(({ x }) => x.sendRateRate());
    if (rate === U32_MAX) corrupt();
    return rate;
  }
}

/** Asks `ask()` (a pace, or a promise of one) until it is no wait, sleeping each wait (setTimeout); `signal` aborts. */
export async function turn(ask, signal) {
  for (;;) {
    signal?.throwIfAborted();
    const pace = await ask();
    if (pace.kind !== 'wait') return pace;
    await new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', done);
        resolve();
      }, pace.ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
