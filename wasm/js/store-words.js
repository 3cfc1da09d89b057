// What the shared parts (shared/) read and write of a local part, under a symbol no entry
// exports: its words (`part[STATE]()` a copy; `new Part({ [STATE]: words })` a part of those
// words), and its stored value through its wasm part, the core's encoding (SPEC.md §19.2).
import { STORE_VALUE_AT } from '../pkg/tables.js';

export const STATE = /* @__PURE__ */ Symbol('seeded-backoff state words');

/** The words a part is made of, when `options` carries them (a copy), else undefined. */
export const wordsOf = (options) => (options !== null && typeof options === 'object' && options[STATE] ? options[STATE].slice() : undefined);

/** The stored value the export `encode` of part `p` (words in place) wrote: `n` bytes. */
export const valueOf = (p, n) => p.u8.slice(STORE_VALUE_AT, STORE_VALUE_AT + n);

/**
 * `bytes` (a stored value) into part `p`'s shared bytes for its `decode(len)` export: at most a
 * value's room is copied (a longer value is refused by its length, which the core checks before
 * its words).
 */
export function putValue(p, bytes) {
  p.u8.set(bytes.subarray(0, 256), STORE_VALUE_AT);
  return Math.min(bytes.length, 0xffffffff);
}
