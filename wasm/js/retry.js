// retry() and fetchWithBackoff(): their options checked, then the one driver of a run
// (driver.js, SPEC.md §15) makes the attempts.
import { IDEMPOTENT_METHODS, NORMALIZED_METHODS } from '../pkg/tables.js';
import { fail, fn, keys } from './check.js';
import { drive } from './driver.js';
import { RetryError } from './retry-error.js';
import { RETRY_KEYS, settings } from './settings.js';

// The give-up error, re-exported for the `seeded-backoff/retry` entry.
export { RetryError };

/** The methods `fetchWithBackoff()` retries by default: RFC 9110 §9.2.2's idempotent methods (the core's list). */
export { IDEMPOTENT_METHODS };

export async function retry(fnToRetry, options = {}) {
  fn('fn', fnToRetry);
  return drive(fnToRetry, settings(options, 'retry options'), true);
}

/**
 * fetch with retry(). Only a request that is safe to repeat is retried: an idempotent method (or
 * one of `retryMethods`), or one that carries an Idempotency-Key header; another is tried once.
 * A Request `input` is cloned for each attempt, so that its body can be sent again.
 */
export async function fetchWithBackoff(input, init, options = {}) {
  const given = init === null || typeof init !== 'object' ? undefined : RETRY_KEYS.concat('retryMethods').find((k) => k in init && k !== 'signal');
  if (given) throw new TypeError(`${given} is a retry option: give it in fetchWithBackoff's third argument (fetchWithBackoff(url, init, { ${given} })), not in fetch's init`);
  const { retryMethods = IDEMPOTENT_METHODS, ...rest } = keys('fetchWithBackoff options', options, [...RETRY_KEYS, 'retryMethods']);
  if (!Array.isArray(retryMethods)) fail(TypeError, 'retryMethods', 'an array of HTTP method names', retryMethods);
  for (const m of retryMethods) {
    if (typeof m !== 'string') fail(TypeError, 'retryMethods', 'an array of HTTP method names', m);
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(m)) fail(RangeError, 'retryMethods', 'HTTP method names (tokens such as "POST")', m);
  }
  // Each method as fetch sends it, the form SPEC.md §7.1's rule reads (the core's
  // normalize_method): equal but for ASCII case to one of the core's NORMALIZED_METHODS, that
  // name; any other as given.
  const sent = (m) => NORMALIZED_METHODS.find((n) => n === m.replace(/[a-z]+/g, (s) => s.toUpperCase())) ?? m;
  const method = sent(String(init?.method ?? input?.method ?? 'GET'));
  const idempotent = retryMethods.some((m) => sent(m) === method) ||
    new Headers(init?.headers ?? input?.headers).has('idempotency-key');
  const signal = rest.signal ?? init?.signal ?? input?.signal;
  const s = settings({ ...rest, signal }, 'fetchWithBackoff options');
  return drive(({ signal: sig }) => fetch(input?.clone?.() ?? input, { ...init, signal: sig }), s, idempotent);
}
