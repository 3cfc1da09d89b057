// hintFromHeaders(): the hint of any headers object by the core's rule (response-hint.js).
import { HINT_RATE_LIMIT, HINT_RETRY_AFTER, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { fail, int, U32_MAX } from './check.js';
import { HEADERS, hintOf } from './response-hint.js';

/**
 * One header's value from `headers` (anything with a `get(name)`, or a plain object of values, its
 * names in any case), as a byte string, or null: absent, the first of a list, and a value with a
 * character beyond one byte (no header can hold it, so it cannot parse) as absent.
 */
function headerValue(headers, name) {
  let v;
  if (typeof headers.get === 'function') v = headers.get(name);
  else {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    v = key === undefined ? undefined : headers[key];
  }
  if (Array.isArray(v)) v = v[0];
  if (v == null) return null;
  v = String(v);
  return /[^\0-\xff]/.test(v) ? null : v;
}

/** See index.d.ts. */
export async function hintFromHeaders(status, headers, nowMs = Date.now()) {
  int('status', status, 0, U32_MAX);
  if (headers === null || typeof headers !== 'object') fail(TypeError, 'headers', 'a Headers or an object of header values', headers);
  int('nowMs', nowMs, 0, Number.MAX_SAFE_INTEGER);
  const [kind, ms] = await hintOf(status, HEADERS.map((name) => headerValue(headers, name)), nowMs);
  return kind === HINT_RETRY_AFTER ? { retryAfterMs: ms } : kind === HINT_RATE_LIMIT ? { rateLimitMs: ms } : {};
}
