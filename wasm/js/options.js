// Policy options as words, the core's answer on them, and seeds: what retry() needs before it
// has the engine (the check takes the engine's part as an argument).
import { DEADLINES, JITTERS, OPTIONS, POLICY_ERRORS, PRESETS, RULES } from '../pkg/tables.js';
import { bool, failRule, int, milli, oneOf, U32_MAX, u64 } from './check.js';
import { release } from './engine.js';

const NAMES = { preset: PRESETS, jitter: JITTERS, deadline: DEADLINES };

/**
 * The option words of `options`, each value read once (a getter or proxy gets no second chance to
 * differ) and its type checked; `values` receives the values read, for the core's message.
 */
export function optionWords(options, values = []) {
  const w = new Uint32Array(1 + OPTIONS.length);
  OPTIONS.forEach((k, i) => {
    const v = (values[i] = options[k]);
    if (v === undefined) return;
    w[0] |= 1 << i;
    w[1 + i] = k === 'paced' ? +bool(k, v) : NAMES[k] ? oneOf(k, v, NAMES[k]) : k === 'multiplier' ? milli(v, RULES[i]) : int(k, v, 0, U32_MAX, RULES[i]);
  });
  return w;
}

/** Throws the core's RangeError if part `p` refuses the option words `w` (`values` as given). */
export function check(p, w, values) {
  release(p);
  p.u32.set(w);
  const e = p.x.policyResolve();
  if (!e) return;
  const [at, rule = RULES[at]] = POLICY_ERRORS[e - 1];
  // The value at fault may be one the preset gave, not one in the options.
  if (values[at] === undefined) throw new RangeError(`${rule}, got the preset's value (set ${OPTIONS[at]} too)`);
  failRule(RangeError, rule, values[at]);
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
