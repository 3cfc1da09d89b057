// The link between a process's part and its key in a store (SPEC.md §19.3 to §19.6), as the
// core's `shared::StoreLink` and `Exchange` define it: where the process stands (joining, joined,
// local), the value it last saw, and the steps of one decision. It does no I/O and decides
// nothing: `exchange` yields what to read or compare-and-set; the local part's own method makes
// the decision on the words the link gives it; stored values are the core's encoding (the wasm
// parts' encode and decode). The rejoin delay and the try limit are the core's (tables.js).
import { STORE_LATE_LIMIT, STORE_MAX_TRIES, STORE_REJOIN_MS } from '../pkg/tables.js';

export const JOINING = 'joining';
export const JOINED = 'joined';
export const LOCAL = 'local';
/** No reply within the bound (a store or machine busy for a moment), told from a failure (null). */
export const LATE = 'late';

const same = (a, b) => a === b || (a != null && b != null && a.length === b.length && a.every((x, i) => x === b[i]));

export class Link {
  /**
   * `kind`: { encode(words) → bytes, decode(freshWords, bytes) → words or an error code }.
   * `fresh`: the cold start's words. `storeClock`: decide on the store's TIME (else the caller's
   * readings as given).
   */
  constructor(kind, fresh, storeClock) {
    this.kind = kind;
    this.fresh = fresh;
    this.local = fresh;
    this.seen = null;
    this.state = JOINING;
    this.rejoinAt = 0;
    this.storeClock = storeClock;
    this.fleetBase = 0;
    this.callerBase = 0;
    this.error = 0;
    this.late = 0; // decisions in a row past the bound (a reply resets it)
    this.stats = { decisions: 0, alone: 0, conflicts: 0 };
  }

  /**
   * A caller's reading (a number, or a bigint up to 2^64 − 1) on the fleet's clock (SPEC.md
   * §19.3): as given on the caller's clock, else a number of the store's ms.
   */
  fleetMs(callerMs) {
    return this.storeClock ? Math.max(0, this.fleetBase + Number(callerMs) - this.callerBase) : callerMs;
  }

  fallBack(callerMs) {
    this.state = LOCAL;
    this.rejoinAt = Number(callerMs) + STORE_REJOIN_MS;
  }

  adopt(value, callerMs) {
    if (value == null) {
      // A key gone under a joined process (a flush, a failover) is a cold start; a joining one
      // publishes its own state.
      if (this.state === JOINED) this.local = this.fresh;
    } else {
      const words = this.kind.decode(this.fresh, value);
      if (typeof words === 'number') {
        this.error = words;
        this.fallBack(callerMs);
        return false;
      }
      this.local = words;
    }
    this.error = 0;
    return true;
  }
}

/**
 * Whether a decision at `callerMs` goes to the store: not while the process is local and its
 * rejoin is not due (it then needs no turn at the store).
 */
export const needsStore = (link, callerMs) => link.state !== LOCAL || callerMs >= link.rejoinAt;

/**
 * One decision: yields each I/O (null: read; [expected, new]: compare-and-set, expected null for
 * absent) and is given its reply ([set, value or null, timeMs], null when the store failed, LATE
 * when it did not answer within the bound); returns `decide(words, fleetMs)`'s answer, `decide` returning [answer, new
 * words]. `decide` may be called again after a conflict: the last call's answer stands. `aloneNow`: the decision did not get its turn at the store within
 * the bound, and is made alone with the link as it stands. A failure (null) makes the process
 * local; a late reply (LATE) costs its decision only, until STORE_LATE_LIMIT decisions in a row
 * were late (SPEC.md §19.5).
 */
export function* exchange(link, callerMs, decide, aloneNow = false) {
  let stored = false;
  let tries = 0;
  let base = null;
  let replied = false;
  const alone = () => {
    const [out, words] = decide(link.local, link.fleetMs(callerMs));
    link.local = words;
    return out;
  };
  const note = (timeMs) => {
    link.fleetBase = timeMs;
    link.callerBase = Number(callerMs);
    link.late = 0;
  };
  const unanswered = (reply) => {
    if (reply !== LATE || ++link.late >= STORE_LATE_LIMIT) link.fallBack(callerMs);
    return alone();
  };
  try {
    if (aloneNow || (link.state === LOCAL && callerMs < link.rejoinAt)) return alone();
    if (link.state === JOINED) {
      base = link.seen;
    } else {
      if (link.state === LOCAL) link.rejoinAt = Number(callerMs) + STORE_REJOIN_MS;
      const reply = yield null;
      if (!Array.isArray(reply)) return unanswered(reply);
      note(reply[2]);
      if (!link.adopt(reply[1], callerMs)) return alone();
      link.state = JOINING;
      base = reply[1];
      replied = true;
      link.seen = base;
    }
    for (;;) {
      const [out, words] = decide(link.local, link.fleetMs(callerMs));
      const value = link.kind.encode(words);
      if (replied && same(base, value)) {
        // A decision that changed nothing on the value the store just gave writes nothing.
        link.local = words;
        link.state = JOINED;
        stored = true;
        return out;
      }
      const reply = yield [base, value];
      if (!Array.isArray(reply)) return unanswered(reply);
      note(reply[2]);
      if (reply[0]) {
        Object.assign(link, { seen: value, local: words, state: JOINED, error: 0 });
        stored = true;
        return out;
      }
      tries++;
      if (!link.adopt(reply[1], callerMs)) return alone();
      base = reply[1];
      replied = true;
      link.seen = base;
      if (tries >= STORE_MAX_TRIES) return alone();
    }
  } finally {
    link.stats.decisions++;
    if (!stored) link.stats.alone++;
    link.stats.conflicts += tries;
  }
}
