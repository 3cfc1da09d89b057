// Backoff options to the core's policy fields. Only types and the static ranges are checked here;
// the core applies the preset and checks the cross-field rules (e.g. maxBackoffMs >= initialMs).
import { int, keys, milli, MAX_DELAY_MS, oneOf, u64, U32_MAX } from './check.js';

const PRESETS = ['google', 'google_64s', 'aws_standard', 'grpc'];
const JITTERS = ['none', 'google', 'full', 'equal', 'decorrelated', 'proportional'];
const DEADLINES = ['give_up', 'clamp'];

// [option, range as the message states it, min, max]; the position is the core's field bit.
const FIELDS = [
  ['initialMs', '1..=2147483647', 1, MAX_DELAY_MS],
  ['multiplier', '1..=1000'],
  ['maxBackoffMs', 'initialMs..=2147483647', 1, MAX_DELAY_MS],
  ['maxRetries', '0..=4294967295', 0, U32_MAX],
  ['jitter', JITTERS],
  ['jitterMs', '0..=maxBackoffMs', 0, MAX_DELAY_MS],
  ['spreadPerMille', '0..=1000', 0, 1000],
  ['maxHintMs', '0..=2147483647', 0, MAX_DELAY_MS],
  ['maxElapsedMs', '0..=4294967295 (0: no time budget)', 0, U32_MAX],
  ['deadline', DEADLINES],
];

export const OPTION_KEYS = ['preset', 'seed', ...FIELDS.map((f) => f[0])];

/** The core's policy fields for `options`: [preset, present bits, ...values]. */
export function policyFields(options, name = 'options') {
  keys(name, options, OPTION_KEYS);
  const out = [0, 0];
  if (options.preset !== undefined) out[0] = oneOf('preset', options.preset, PRESETS) + 1;
  FIELDS.forEach(([key, range, min, max], bit) => {
    const v = options[key];
    let value = 0;
    if (v !== undefined) {
      out[1] |= 1 << bit;
      value = Array.isArray(range)
        ? oneOf(key, v, range)
        : max === undefined
          ? milli(key, v, range)
          : int(key, v, min, max, range);
    }
    out.push(value);
  });
  return out;
}

/** The seed as u32 halves; omitted, a random one (never a constant: equal seeds retry in step). */
export function seedHalves(seed) {
  return seed === undefined ? crypto.getRandomValues(new Uint32Array(2)) : u64('seed', seed);
}

/** The core's give-up reasons by code (1–4). */
export const GIVE_UP = [null, 'max_retries', 'deadline', 'budget', 'server_stop'];
