// The stored value of a budget's, pacer's or send rate's words (SPEC.md §19.2), through the store
// part: the core's encoding, in a wasm part of its own that only seeded-backoff/shared loads.
import { store } from '../pkg/store-part.js';
import { BUDGET_AT, PACER_WORDS, RUN_AT, SEND_RATE_AREA, STORE_VALUE_AT } from '../pkg/tables.js';
import { get } from './engine.js';

const corrupt = (what) => {
  throw new Error(`seeded-backoff: the ${what} state is corrupt`);
};

/** The store part, with a word view of its shared bytes (where a send rate's words go). */
export function part() {
  const p = get(store);
  p.rateWords ??= new Uint32Array(p.u8.buffer, p.u8.byteOffset, SEND_RATE_AREA);
  return p;
}

/**
 * `bytes` (a stored value) into the part's shared bytes for a `decode(len)` export: at most a
 * value's room is copied (a longer value is refused by its length, which the core checks before
 * its words).
 */
function putValue(p, bytes) {
  p.u8.set(bytes.subarray(0, 256), STORE_VALUE_AT);
  return Math.min(bytes.length, 0xffffffff);
}

/** Where each kind's words go in the part, and its exports. */
const KINDS = {
  budget: { at: (p) => [p.u32, BUDGET_AT, 6], encode: 'budgetEncode', decode: 'budgetDecode' },
  pacer: { at: (p) => [p.u32, RUN_AT, PACER_WORDS], encode: 'pacerEncode', decode: 'pacerDecode' },
  'send rate': { at: (p) => [p.rateWords, 0, SEND_RATE_AREA], encode: 'sendRateEncode', decode: 'sendRateDecode' },
};

/** `kind`'s words `w` into the part's words of that kind: a copy in, `read()` a copy out. */
export function area(p, kind, w) {
  const [view, at, n] = KINDS[kind].at(p);
  if (w) view.set(w, at);
  return () => view.slice(at, at + n);
}

/** The stored value of `kind`'s words `w`. */
export function encode(kind, w) {
  const p = part();
  const k = KINDS[kind];
  const [view, at] = k.at(p);
  view.set(w, at);
  const n = p.x[k.encode]();
  if (!n) corrupt(kind);
  return p.u8.slice(STORE_VALUE_AT, STORE_VALUE_AT + n);
}

/** The words `bytes` hold under the configuration of `kind`'s words `w`, or 1 + the store error's index. */
export function decode(kind, w, bytes) {
  const p = part();
  const k = KINDS[kind];
  const [view, at, n] = k.at(p);
  view.set(w, at);
  const e = p.x[k.decode](putValue(p, bytes));
  return e || view.slice(at, at + n);
}
