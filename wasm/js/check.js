// Type checks for JS values, run before anything reaches the core, so that a rejected call changes
// nothing. Messages name the option and what is allowed; ranges beyond "fits the boundary" are the
// core's, and so are their messages (pkg/tables.js).

export const U32_MAX = 4294967295;

/** A description of `v` for a message, that runs none of `v`'s code (no toString, no traps). */
export function show(v) {
  const t = typeof v;
  if (t === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (t === 'bigint') return `${v}n`;
  if (t === 'symbol') return 'a symbol';
  if (t === 'function') return 'a function';
  if (t === 'object' && v !== null) return Array.isArray(v) ? 'an array' : 'an object';
  return String(v);
}

/** An error of class `Err` whose message is `rule` (a message that starts with the option's name). */
export function failRule(Err, rule, v) {
  throw new Err(`${rule}, got ${show(v)}`);
}

export function fail(Err, name, rule, v) {
  failRule(Err, `${name} must be ${rule}`, v);
}

/** `rule` (the core's "x must be in a..=b") saying that x is a number: the TypeError's message. */
const numberRule = (rule) => (rule.includes(' must be in ') ? rule.replace(' must be in ', ' must be a number in ') : rule);

/** An integer in `min..=max`; `rule` is the core's message for the option, if it has one. */
export function int(name, v, min, max, rule = `${name} must be an integer in ${min}..=${max}`) {
  if (typeof v !== 'number') failRule(TypeError, numberRule(rule), v);
  if (!Number.isInteger(v) || v < min || v > max) failRule(RangeError, rule, v);
  return v;
}

/** A non-negative number with at most three decimals, returned × 1000. */
export function milli(v, rule) {
  if (typeof v !== 'number') failRule(TypeError, numberRule(rule), v);
  const m = Math.round(v * 1000);
  if (!(v >= 0) || m > U32_MAX || m / 1000 !== v) failRule(RangeError, rule, v);
  return m;
}

/**
 * The name of `names` that `v` most likely means, as a message's tail: ` (did you mean 'full'?)`,
 * or ''. The nearest in edits (Levenshtein, ignoring case), within a third of the longer name (at
 * least 2): 'fulll' is 'full', 'retries' 'maxRetries'.
 */
export function didYouMean(v, names) {
  let near = '';
  let least = 99;
  if (typeof v === 'string' && v.length < 65) {
    for (const n of names) {
      let row = [...Array(n.length + 1).keys()];
      for (let i = 0; i < v.length; i++) {
        const next = [i + 1];
        for (let j = 0; j < n.length; j++) next[j + 1] = Math.min(row[j + 1] + 1, next[j] + 1, row[j] + (v[i].toLowerCase() !== n[j].toLowerCase()));
        row = next;
      }
      const d = row[n.length];
      if (d < least && d <= Math.max(2, Math.max(v.length, n.length) / 3)) [near, least] = [` (did you mean '${n}'?)`, d];
    }
  }
  return near;
}

/** One of `names`; returns its index. */
export function oneOf(name, v, names) {
  const rule = `one of ${names.map((n) => `'${n}'`).join(', ')}`;
  if (typeof v !== 'string') fail(TypeError, name, rule, v);
  const i = names.indexOf(v);
  if (i < 0) throw new RangeError(`${name} must be ${rule}, got ${show(v)}${didYouMean(v, names)}`);
  return i;
}

/**
 * An options object with only the known keys (an unknown key is most likely a typo). Inherited
 * enumerable keys are checked and read like own ones; a Map, Set or array is refused rather than
 * read as empty.
 */
export function keys(name, obj, allowed) {
  if (obj === null || typeof obj !== 'object') fail(TypeError, name, 'an object', obj);
  const found = [];
  let list;
  try {
    list = typeof obj[Symbol.iterator] === 'function';
    for (const k in obj) found.push(k);
  } catch (e) {
    // A revoked proxy, or a proxy trap that threw: the options cannot be read.
    throw new TypeError(`${name} could not be read: ${e instanceof Error ? e.message : show(e)}`, { cause: e });
  }
  if (list) fail(TypeError, name, 'an object', obj);
  for (const k of found) {
    if (!allowed.includes(k)) {
      const near = didYouMean(k, allowed);
      throw new TypeError(`unknown option ${show(k)} in ${name}${near || ' (a typo?)'}; known: ${allowed.join(', ')}`);
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

/** A monotonic clock reading in ms as u64 halves: a number (its fraction dropped, as performance.now()'s) or a bigint. */
export function clockMs(v, name = 'nowMs') {
  if (typeof v === 'number' && v >= 0 && v < Infinity) return u64(name, Math.floor(v));
  return u64(name, v);
}

export function bool(name, v) {
  if (typeof v !== 'boolean') fail(TypeError, name, 'a boolean', v);
  return v;
}

export function fn(name, v) {
  if (typeof v !== 'function') fail(TypeError, name, 'a function', v);
  return v;
}

/** An error of class `Err` from a core `[name, message]`, with `code` = name. */
export function coded(Err, [code, message]) {
  return Object.assign(new Err(message), { code });
}

// Marked pure, so that a bundle whose code never writes text (retry()'s first attempt) drops it.
const encoder = /* @__PURE__ */ new TextEncoder();

/** `text` (a string, as UTF-8, or bytes) in `u8` (a part's shared bytes): its length, or -1 if it does not fit. */
export function tryPut(text, u8) {
  if (text instanceof Uint8Array) {
    if (text.length > u8.length) return -1;
    u8.set(text);
    return text.length;
  }
  const { read, written } = encoder.encodeInto(text, u8);
  return read < text.length ? -1 : written;
}

/** As `tryPut`, with a RangeError naming `name` when it does not fit. */
export function put(name, text, u8) {
  const len = tryPut(text, u8);
  if (len < 0) {
    const bytes = text instanceof Uint8Array ? text.length : encoder.encode(text).length;
    fail(RangeError, name, `at most ${u8.length} bytes`, bytes);
  }
  return len;
}
