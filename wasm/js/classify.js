// Status classes, answered by the core's main part alone: a program that classifies statuses
// (the adapters, the integrations) does not bring the date part with it.
import { main } from '../pkg/main-part.js';
import { CLASSES, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { fail, U32_MAX } from './check.js';
import { get } from './engine.js';

// Statuses and codes are unsigned in the core; SPEC §7 has a binding treat any other integer as
// invalid.
function code(name, v) {
  if (typeof v !== 'number') fail(TypeError, name, 'an integer', v);
  if (!Number.isInteger(v)) fail(RangeError, name, 'an integer', v);
  return v >= 0 && v <= U32_MAX;
}

/** The rate-limit headers' names in lower case, in the order a 429 is searched (the core's). */
export { RATE_LIMIT_HEADERS };

/** Whether a response with this HTTP status is read for rate-limit headers: 429 only. */
export function rateLimitApplies(status) {
  return code('status', status) && get(main).x.rateLimitApplies(status);
}

/** Whether an HTTP status is worth retrying: 429 and 5xx. */
export function isRetryableHttp(status) {
  return classifyHttp(status) === 'retry';
}

/** `'success'`, `'retry'`, `'do_not_retry'` or `'invalid'` for an HTTP status. */
export function classifyHttp(status) {
  return code('status', status) ? CLASSES[get(main).x.classifyHttp(status)] : 'invalid';
}

/** The same classes for a gRPC status code. */
export function classifyGrpc(grpcCode) {
  return code('code', grpcCode) ? CLASSES[get(main).x.classifyGrpc(grpcCode)] : 'invalid';
}
