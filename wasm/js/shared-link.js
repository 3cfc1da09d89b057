// The link between a process's part and its key in a store (SPEC.md §19.3 to §19.6): the core's
// `StoreLink` and `Exchange`, run by the store part (its `storeLink` export), their fields kept
// here as two records of bytes between calls. This module only translates: `exchange` yields
// the I/O the core asks for and hands it the replies; the local part's own method makes each
// decision on the words the core gives. Every rule (when to read, compare-and-set, decide again
// on a conflict, fall back, rejoin, the fleet's clock) is the core's.
import {
  ACTION_AT, LINK_AT_READING, LINK_BEGIN, LINK_BEGIN_ALONE, LINK_COMPARE_AND_SET, LINK_DECIDE, LINK_DECIDED,
  LINK_DONE, LINK_FAILED, LINK_INIT, LINK_LOCAL, LINK_READ, LINK_REPLIED, LINK_REPLY_CONFLICT, LINK_REPLY_SET,
  LINK_REPLY_VALUE, LINK_STATES, LINK_TIMED_OUT, STORE_EXCHANGE_AT, STORE_EXCHANGE_SIZE, STORE_KIND_BUDGET,
  STORE_KIND_PACER, STORE_KIND_SEND_RATE, STORE_LINK_AT, STORE_LINK_SIZE, STORE_VALUE_AT, STORE_VALUE_ROOM,
} from '../pkg/tables.js';
import { area, part } from './store-codec.js';

/** No reply within the bound (a store or machine busy for a moment), told from a failure (null). */
export const LATE = 'late';

const CODES = { budget: STORE_KIND_BUDGET, pacer: STORE_KIND_PACER, 'send rate': STORE_KIND_SEND_RATE };
const TWO_32 = 2 ** 32;
/** Where a compare-and-set's new value sits: past the expected value's room. */
const NEW_AT = STORE_VALUE_AT + STORE_VALUE_ROOM;
/** A reading (a number, or a bigint up to 2^64 − 1) as the export's (low, high) halves. */
const halves = (t) => (typeof t === 'bigint' ? [Number(t & 0xffffffffn), Number(t >> 32n)] : [t >>> 0, Math.floor(t / TWO_32)]);
/** (low, high) halves as a number, or a bigint past 2^53. */
const join = (lo, hi) => (hi < 2 ** 21 ? hi * TWO_32 + lo : (BigInt(hi) << 32n) | BigInt(lo));

/**
 * One call of the store part's `storeLink`: `words` (the link's cold start unless given) in the
 * kind's words, the link's record and the exchange's `ex` (if any) in, and back out. The part's
 * action words after it.
 */
function call(link, op, t = 0, { ex, words = link.fresh, arg = 0, len = 0 } = {}) {
  const p = part();
  const read = area(p, link.kind.name, words);
  p.u8.set(link.record, STORE_LINK_AT);
  if (ex) p.u8.set(ex, STORE_EXCHANGE_AT);
  const [lo, hi] = halves(t);
  if (p.x.storeLink(link.code, op, lo, hi, arg, len)) throw new Error(`seeded-backoff: the ${link.kind.name} link is corrupt`);
  link.record.set(p.u8.subarray(STORE_LINK_AT, STORE_LINK_AT + STORE_LINK_SIZE));
  if (ex) ex.set(p.u8.subarray(STORE_EXCHANGE_AT, STORE_EXCHANGE_AT + STORE_EXCHANGE_SIZE));
  return { action: p.u32.slice(ACTION_AT, ACTION_AT + 4), read, p };
}

export class Link {
  /**
   * `kind`: { name ('budget', 'pacer', 'send rate'), … }. `fresh`: the cold start's words.
   * `storeClock`: decide on the store's TIME (else the caller's readings as given).
   */
  constructor(kind, fresh, storeClock) {
    this.kind = kind;
    this.code = CODES[kind.name];
    this.fresh = fresh;
    this.record = new Uint8Array(STORE_LINK_SIZE);
    this.stats = { decisions: 0, alone: 0, conflicts: 0 };
    call(this, LINK_INIT, 0, { arg: storeClock ? 0 : 1 });
  }

  /** The link at the caller's reading: [state, needs the store, the reading on the fleet's clock]. */
  at(callerMs) {
    const [state, needs, lo, hi] = call(this, LINK_AT_READING, callerMs).action;
    return [LINK_STATES[state], needs === 1, join(lo, hi)];
  }

  /** 'joining', 'joined' or 'local'. */
  get state() {
    return this.at(0)[0];
  }

  /** Why the last value read could not be used: 0, or 1 + the store error's index. */
  get error() {
    return call(this, LINK_LOCAL).action[0];
  }

  /** The process's own words: the fleet's state as last seen, with the decisions made alone since. */
  get local() {
    return call(this, LINK_LOCAL).read();
  }

  /**
   * A caller's reading (a number, or a bigint up to 2^64 − 1) on the fleet's clock (SPEC.md
   * §19.3): as given on the caller's clock, else the store's ms.
   */
  fleetMs(callerMs) {
    return this.at(callerMs)[2];
  }
}

/**
 * Whether a decision at `callerMs` goes to the store: not while the process is local and its
 * rejoin is not due (it then needs no turn at the store).
 */
export const needsStore = (link, callerMs) => link.at(callerMs)[1];

/**
 * One decision: yields each I/O the core asks for (null: read; [expected, new]: compare-and-set,
 * expected null for absent) and is given its reply ([set, value or null, timeMs], null when the
 * store failed, LATE when it did not answer within the bound); returns `decide(words, fleetMs)`'s
 * answer, `decide` returning [answer, new words]. `decide` may be called again after a conflict:
 * the last call's answer stands. `aloneNow`: the decision did not get its turn at the store within
 * the bound, and is made alone with the link as it stands. The core decides what a failure or a
 * late reply costs (SPEC.md §19.5).
 */
export function* exchange(link, callerMs, decide, aloneNow = false) {
  const ex = new Uint8Array(STORE_EXCHANGE_SIZE);
  let step = call(link, aloneNow ? LINK_BEGIN_ALONE : LINK_BEGIN, callerMs, { ex });
  let out;
  for (;;) {
    const [action, a, b, c] = step.action;
    if (action === LINK_DONE) {
      const s = link.stats;
      s.decisions++;
      if (!a) s.alone++;
      s.conflicts += b;
      return out;
    }
    if (action === LINK_DECIDE) {
      let words;
      [out, words] = decide(step.read(), join(b, c));
      step = call(link, LINK_DECIDED, 0, { ex, words });
      continue;
    }
    let io = null;
    if (action === LINK_COMPARE_AND_SET) {
      const u8 = step.p.u8;
      io = [a ? u8.slice(STORE_VALUE_AT, STORE_VALUE_AT + a) : null, u8.slice(NEW_AT, NEW_AT + b)];
    } else if (action !== LINK_READ) {
      throw new Error(`seeded-backoff: the ${link.kind.name} link asked for an unknown step`);
    }
    const reply = yield io;
    if (reply === null) step = call(link, LINK_FAILED, 0, { ex });
    else if (!Array.isArray(reply)) step = call(link, LINK_TIMED_OUT, 0, { ex });
    else {
      const [set, value, timeMs] = reply;
      const code = io === null ? LINK_REPLY_VALUE : set ? LINK_REPLY_SET : LINK_REPLY_CONFLICT;
      let len = 0xffffffff;
      if (value != null) {
        const p = part();
        // At most the room before the records: a longer value is refused by its length.
        p.u8.set(value.subarray(0, STORE_LINK_AT - STORE_VALUE_AT), STORE_VALUE_AT);
        len = Math.min(value.length, 0xfffffffe);
      }
      step = call(link, LINK_REPLIED, timeMs, { ex, arg: code, len });
    }
  }
}
