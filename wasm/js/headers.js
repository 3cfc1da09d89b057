// Retry-After, the rate-limit headers and status classes, answered by the core.
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { CLASSES, PARSE_ERRORS, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { coded, fail, int, oneOf, put, U32_MAX } from './check.js';
import { datePart, rateLimit, retryAfter } from './hint.js';
import { main } from './policy.js';
import { ensure } from './wasm.js';

// A program that imports parseRetryAfter gets the date part from `init()`.
datePart(true);

/** Milliseconds to wait from `nowMs` (a Unix time in ms) for a `Retry-After` value. */
export function parseRetryAfter(value, nowMs = Date.now()) {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    fail(TypeError, 'Retry-After value', 'a string or a Uint8Array', value);
  }
  int('nowMs', nowMs, 0, Number.MAX_SAFE_INTEGER);
  const ms = retryAfter(put('Retry-After value', value, ensure(main).u8), nowMs, false);
  if (ms < 0) throw coded(SyntaxError, PARSE_ERRORS[-ms - 1]);
  return ms;
}

/**
 * Milliseconds until a rate-limit quota resets from `nowMs`, for the value of the rate-limit header
 * `name` (any case): `RateLimit`, `RateLimit-Reset`, `X-RateLimit-Retry-After`, `X-RateLimit-Reset`.
 */
export function parseRateLimit(name, value, nowMs = Date.now()) {
  const code = oneOf('name', typeof name === 'string' ? name.toLowerCase() : name, RATE_LIMIT_HEADERS);
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    fail(TypeError, `${RATE_LIMIT_HEADERS[code]} value`, 'a string or a Uint8Array', value);
  }
  int('nowMs', nowMs, 0, Number.MAX_SAFE_INTEGER);
  const ms = rateLimit(code, put(`${RATE_LIMIT_HEADERS[code]} value`, value, ensure(datePart()).u8), nowMs);
  if (ms < 0) throw coded(SyntaxError, PARSE_ERRORS[-ms - 1]);
  return ms;
}

// Statuses and codes are unsigned in the core; SPEC §7 has a binding treat any other integer as
// invalid.
function code(name, v) {
  if (typeof v !== 'number') fail(TypeError, name, 'an integer', v);
  if (!Number.isInteger(v)) fail(RangeError, name, 'an integer', v);
  ensure(main);
  return v >= 0 && v <= U32_MAX;
}

/** The rate-limit headers' names in lower case, in the order a 429 is searched (the core's). */
export { RATE_LIMIT_HEADERS };

/** Whether a response with this HTTP status is read for rate-limit headers: 429 only. */
export function rateLimitApplies(status) {
  return code('status', status) && glue.rateLimitApplies(status);
}

/** Whether an HTTP status is worth retrying: 429 and 5xx. */
export function isRetryableStatus(status) {
  return classifyStatus(status) === 'retry';
}

/** `'success'`, `'retry'`, `'do_not_retry'` or `'invalid'` for an HTTP status. */
export function classifyStatus(status) {
  return code('status', status) ? CLASSES[glue.classifyHttp(status)] : 'invalid';
}

/** The same classes for a gRPC status code. */
export function classifyGrpcCode(grpcCode) {
  return code('code', grpcCode) ? CLASSES[glue.classifyGrpc(grpcCode)] : 'invalid';
}
