// Retry-After, the rate-limit headers and status classes, answered by the core. Importing this
// module brings the date part (HTTP-dates, rate-limit headers) into the program.
import { date } from '../pkg/date-part.js';
import { main } from '../pkg/main-part.js';
import { MAX_HEADER_VALUE, NOT_SECONDS, PARSE_ERRORS, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { coded, fail, int, oneOf, tryPut } from './check.js';
import { get } from './engine.js';

export { hintFromHeaders } from './hint.js';

/** `value` (a string, as UTF-8, or bytes) in part `p`'s bytes: its length, or the core's bound + 1 (too long: refused unread). */
function put(name, value, p) {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) fail(TypeError, name, 'a string or a Uint8Array', value);
  // A lone surrogate has no UTF-8 form: not in its header's format, as in every binding (rather
  // than TextEncoder's U+FFFD, which a quoted RateLimit name would accept).
  if (typeof value === 'string' && !value.isWellFormed()) throw coded(SyntaxError, PARSE_ERRORS[-1 - NOT_SECONDS]);
  const n = tryPut(value, p.u8.subarray(0, MAX_HEADER_VALUE));
  return n < 0 ? MAX_HEADER_VALUE + 1 : n;
}

/** `ms` from a parse export, or the core's parse error as a SyntaxError with its `code`. */
function parsed(ms) {
  if (ms < 0) throw coded(SyntaxError, PARSE_ERRORS[-ms - 1]);
  return ms;
}

/** Unix seconds of `nowMs` as u32 halves. */
function now(nowMs) {
  const s = Math.floor(int('nowMs', nowMs, 0, Number.MAX_SAFE_INTEGER) / 1000);
  return [s % 4294967296, Math.floor(s / 4294967296)];
}

/** Milliseconds to wait from `nowMs` (a Unix time in ms) for a `Retry-After` value. */
export function parseRetryAfter(value, nowMs = Date.now()) {
  const m = get(main);
  const len = put('Retry-After value', value, m);
  const [lo, hi] = now(nowMs);
  const ms = m.x.retryAfterSeconds(len);
  if (ms !== NOT_SECONDS) return parsed(ms);
  const d = get(date);
  d.u8.set(m.u8.subarray(0, Math.min(len, MAX_HEADER_VALUE)));
  return parsed(d.x.retryAfter(len, lo, hi));
}

/**
 * Milliseconds until a rate-limit quota resets from `nowMs`, for the value of the rate-limit header
 * `name` (any case): `RateLimit`, `RateLimit-Reset`, `X-RateLimit-Retry-After`, `X-RateLimit-Reset`.
 */
export function parseRateLimit(name, value, nowMs = Date.now()) {
  const code = oneOf('name', typeof name === 'string' ? name.toLowerCase() : name, RATE_LIMIT_HEADERS);
  const d = get(date);
  const len = put(`${RATE_LIMIT_HEADERS[code]} value`, value, d);
  const [lo, hi] = now(nowMs);
  return parsed(d.x.rateLimit(code, len, lo, hi));
}

export { classifyGrpc, classifyHttp, isRetryableHttp, RATE_LIMIT_HEADERS, rateLimitApplies } from './classify.js';
