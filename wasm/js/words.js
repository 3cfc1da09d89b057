// Each Policy's option words, by Policy: set by its constructor, or read once from a Policy made
// by another copy of the package (brand.js). A module of its own so that retry() can take a
// Policy without bringing in the engine, which it loads while its first attempt is in flight.
import { OPTIONS } from '../pkg/tables.js';
import { brandOf } from './brand.js';

export const policyWords = new WeakMap();

/**
 * Whether `v` is a Policy of this package, made by this copy or another of the same version (its
 * words are then kept here, so that `policyWords.get(v)` has them); a TypeError naming `name` for
 * a Policy of another version.
 */
export function isPolicy(v, name = 'policy') {
  if (policyWords.has(v)) return true;
  const b = brandOf(v, 'Policy', name);
  const w = b?.words();
  if (!(w instanceof Uint32Array) || w.length !== 1 + OPTIONS.length) return false;
  policyWords.set(v, w);
  return true;
}
