// Type and range checks for JS values, run before anything reaches the core, so that a rejected
// call changes nothing. Messages name the option and what is allowed.

export const U32_MAX = 4294967295;
export const MAX_DELAY_MS = 2147483647;

const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : String(v));

export function fail(Err, name, rule, v) {
  throw new Err(`${name} must be ${rule}, got ${show(v)}`);
}

/** An integer number in `min..=max`; `range` is how the message states the range. */
export function int(name, v, min, max, range = `${min}..=${max}`) {
  const rule = `an integer in ${range}`;
  if (typeof v !== 'number') fail(TypeError, name, rule, v);
  if (!Number.isInteger(v) || v < min || v > max) fail(RangeError, name, rule, v);
  return v;
}

/** A non-negative number with at most three decimals, returned × 1000. */
export function milli(name, v, range) {
  const rule = `a number in ${range} with at most 3 decimals`;
  if (typeof v !== 'number') fail(TypeError, name, rule, v);
  const m = Math.round(v * 1000);
  if (!(v >= 0) || m > U32_MAX || m / 1000 !== v) fail(RangeError, name, rule, v);
  return m;
}

/** One of `names`; returns its index. */
export function oneOf(name, v, names) {
  const rule = `one of ${names.map((n) => `'${n}'`).join(', ')}`;
  if (typeof v !== 'string') fail(TypeError, name, rule, v);
  const i = names.indexOf(v);
  if (i < 0) fail(RangeError, name, rule, v);
  return i;
}

/** A plain options object with only the known keys (an unknown key is most likely a typo). */
export function keys(name, obj, allowed) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) fail(TypeError, name, 'an object', obj);
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) {
      throw new TypeError(`unknown option '${k}' in ${name} (a typo?); known: ${allowed.join(', ')}`);
    }
  }
  return obj;
}

/**
 * A u64 as [lo, hi] u32 halves: a safe-integer number, or a bigint up to 2^64 − 1.
 * (A number above 2^53 − 1 has already lost digits, so it is refused.)
 */
export function u64(name, v) {
  const rule = 'an integer in 0..=2^53-1 (a number) or 0n..=2^64-1 (a bigint)';
  if (typeof v === 'bigint') {
    if (v < 0n || v > 0xffffffffffffffffn) fail(RangeError, name, rule, v);
    return [Number(v & 0xffffffffn), Number(v >> 32n)];
  }
  if (typeof v !== 'number') fail(TypeError, name, rule, v);
  if (Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER) {
    fail(RangeError, name, 'a bigint when above 2^53-1 (as a number it has lost precision)', v);
  }
  if (!Number.isInteger(v) || v < 0) fail(RangeError, name, rule, v);
  return [v % 4294967296, Math.floor(v / 4294967296)];
}

export function bool(name, v) {
  if (typeof v !== 'boolean') fail(TypeError, name, 'a boolean', v);
  return v;
}

export function fn(name, v) {
  if (typeof v !== 'function') fail(TypeError, name, 'a function', v);
  return v;
}

/** An error of class `Err` from the core's `"name message"`, with `code` = name. */
export function coded(Err, text) {
  const i = text.indexOf(' ');
  return Object.assign(new Err(text.slice(i + 1)), { code: text.slice(0, i) });
}
