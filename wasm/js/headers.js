// Retry-After and status classes, answered by the core.
import * as glue from '../pkg/seeded_backoff.js';
import { coded, int, U32_MAX } from './check.js';
import { ensure } from './wasm.js';

const encoder = new TextEncoder();
// The core's classes by the binding's class code.
const CLASSES = ['success', 'retry', 'do_not_retry', 'invalid'];

/** Milliseconds to wait from `nowMs` (a Unix time in ms) for a `Retry-After` value. */
export function parseRetryAfter(value, nowMs = Date.now()) {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    throw new TypeError(`Retry-After value must be a string or a Uint8Array, got ${typeof value}`);
  }
  int('nowMs', nowMs, 0, Number.MAX_SAFE_INTEGER);
  ensure();
  const bytes = typeof value === 'string' ? encoder.encode(value) : value;
  const ms = glue.parseRetryAfterBytes(bytes, Math.floor(nowMs / 1000));
  if (ms < 0) throw coded(SyntaxError, glue.retryAfterError(-ms - 1));
  return ms;
}

// Statuses and codes are unsigned in the core; SPEC §7 has a binding treat any other integer as
// invalid.
function code(name, v) {
  int(name, v, -Infinity, Infinity, '100..=599 (others classify as invalid)');
  ensure();
  return v >= 0 && v <= U32_MAX;
}

/** Whether an HTTP status is worth retrying: 429 and 5xx. */
export function isRetryableStatus(status) {
  return code('status', status) && glue.isRetryableHttp(status);
}

/** `'success'`, `'retry'`, `'do_not_retry'` or `'invalid'` for an HTTP status. */
export function classifyStatus(status) {
  return CLASSES[code('status', status) ? glue.classifyHttp(status) : 3];
}

/** The same classes for a gRPC status code. */
export function classifyGrpcCode(grpcCode) {
  return CLASSES[code('code', grpcCode) ? glue.classifyGrpc(grpcCode) : 3];
}

/** The wasm heap's size in bytes (it only grows; a steady value under load means no leak). */
export function wasmMemoryBytes() {
  ensure();
  return glue.memoryBytes();
}
