// Policy: options checked once. The core resolves the preset, the overrides and every range and
// cross-field rule; this layer checks types and names, and reports the core's answer. A Policy
// holds its option words (a word of presence bits, then one word per option) and every call that
// needs it writes them to the engine: no policy is kept in the engine between calls.
import { main } from '../pkg/main-part.js';
import { OPTIONS } from '../pkg/tables.js';
import { BRAND, VERSION } from './brand.js';
import { keys, u64 } from './check.js';
import { get, release } from './engine.js';
import { check, optionWords } from './options.js';
import { isPolicy, policyWords } from './words.js';

export { check, optionWords, seedHalves } from './options.js';
export { isPolicy };

/** A Policy's option words. */
export const wordsOf = (p) => policyWords.get(p);

export class Policy {
  /** @param {object} [options] a preset and overrides: see index.d.ts. */
  constructor(options = {}) {
    // A Policy (of either module format) as the options: the same policy.
    if (isPolicy(options, 'Policy options')) {
      policyWords.set(this, wordsOf(options).slice());
      return;
    }
    keys('Policy options', options, OPTIONS);
    const values = [];
    const w = optionWords(options, values);
    check(get(main), w, values);
    policyWords.set(this, w);
  }

  /** What another copy of the package reads of this Policy (brand.js): a copy of its words. */
  get [BRAND]() {
    const w = policyWords.get(this);
    return w && { kind: 'Policy', version: VERSION, words: () => w.slice() };
  }
}

/**
 * The seed of call `index` (0, 1, 2, … in the order a loop's calls start) of a loop seeded `seed`
 * (SPEC.md §14): call 0 keeps `seed`, every other call gets one of its own, so calls made
 * together retry apart and the same calls in the same order replay.
 */
export function callSeed(seed, index) {
  const [lo, hi] = u64('seed', seed);
  const [ilo, ihi] = u64('index', index);
  const m = get(main);
  release(m);
  m.x.callSeed(lo, hi, ilo, ihi);
  return (BigInt(m.u32[1]) << 32n) | BigInt(m.u32[0]);
}
