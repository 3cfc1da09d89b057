// Policy: options checked once. The core resolves the preset, the overrides and every range and
// cross-field rule; this layer only checks types and names and reports the core's answer.
import { main } from '../pkg/main-part.js';
import { DEADLINES, JITTERS, OPTIONS, POLICY_ERRORS, PRESETS, RULES } from '../pkg/tables.js';
import { bool, failRule, int, keys, milli, oneOf, U32_MAX, u64 } from './check.js';
import { get } from './engine.js';
import { WORDS } from './internal.js';

export { WORDS };
const NAMES = { preset: PRESETS, jitter: JITTERS, deadline: DEADLINES };

// The Policy whose words the main part has loaded.
let active;

export class Policy {
  /** @param {object} [options] a preset and overrides: see index.d.ts. */
  // `name` and `extra` (keys the caller reads itself) serve the package's own sugar.
  constructor(options = {}, name = 'Policy options', extra = []) {
    keys(name, options, [...OPTIONS, ...extra]);
    // Each value is read once: a getter or proxy gets no second chance to differ.
    const values = OPTIONS.map((k) => options[k]);
    const { u32, x } = get(main);
    let present = 0;
    values.forEach((v, i) => {
      if (v === undefined) return;
      const k = OPTIONS[i];
      present |= 1 << i;
      if (k === 'paced') u32[1 + i] = Number(bool(k, v));
      else u32[1 + i] = NAMES[k] ? oneOf(k, v, NAMES[k]) : k === 'multiplier' ? milli(v, RULES[i]) : int(k, v, 0, U32_MAX, RULES[i]);
    });
    u32[0] = present;
    const e = x.policyResolve();
    if (e) {
      const [at, rule = RULES[at]] = POLICY_ERRORS[e - 1];
      // The value at fault may be one the preset gave, not one in `options`.
      if (values[at] === undefined) throw new RangeError(`${rule}, got the preset's value (set ${OPTIONS[at]} too)`);
      failRule(RangeError, rule, values[at]);
    }
    this[WORDS] = u32.slice(0, 1 + OPTIONS.length);
    active = this;
  }
}

/** Whether `v` is a Policy of this package (of either build: ESM or CommonJS). */
export const isPolicy = (v) => v?.[WORDS] instanceof Uint32Array;

/** Makes `policy` the main part's active one; returns the main part's exports. */
export function activate(policy) {
  const { u32, x } = get(main);
  if (active !== policy) {
    u32.set(policy[WORDS]);
    x.policyResolve();
    active = policy;
  }
  return x;
}

// Random seeds come from a pool, refilled 128 at a time: crypto.getRandomValues costs more than
// a whole schedule.
let pool = new Uint32Array(0);
let next = 0;

/** The seed as u32 halves; omitted, a random one (never a constant: equal seeds retry in step). */
export function seedHalves(seed) {
  if (seed !== undefined) return u64('seed', seed);
  if (next >= pool.length) {
    pool = crypto.getRandomValues(new Uint32Array(256));
    next = 0;
  }
  return [pool[next++], pool[next++]];
}
