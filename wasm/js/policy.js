// Policy: options checked once. The core resolves the preset, the overrides and every range and
// cross-field rule; this layer checks types and names, and reports the core's answer. A Policy
// holds its option words (a word of presence bits, then one word per option) and every call that
// needs it writes them to the engine: no policy is kept in the engine between calls.
import { main } from '../pkg/main-part.js';
import { OPTIONS } from '../pkg/tables.js';
import { keys } from './check.js';
import { get } from './engine.js';
import { check, optionWords } from './options.js';
import { isPolicy, policyWords } from './words.js';

export { check, optionWords, seedHalves } from './options.js';
export { isPolicy };

/** A Policy's option words. */
export const wordsOf = (p) => policyWords.get(p);

export class Policy {
  /** @param {object} [options] a preset and overrides: see index.d.ts. */
  constructor(options = {}) {
    keys('Policy options', options, OPTIONS);
    const values = [];
    const w = optionWords(options, values);
    check(get(main), w, values);
    policyWords.set(this, w);
  }
}
