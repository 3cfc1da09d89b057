// `seeded-backoff/retry-after`: a server's answers as the core reads them: status classes,
// Retry-After in all three forms, the rate-limit headers (the date wasm part for HTTP-dates).
export { type HeaderHint, hintFromHeaders } from './index.js';

/** Why `parseRetryAfter()` refused a value: the `code` of its SyntaxError. */
export type RetryAfterErrorCode =
  | 'empty'
  | 'negative'
  | 'invalid_format'
  | 'bad_day_name'
  | 'bad_month'
  | 'bad_day'
  | 'bad_hour'
  | 'bad_minute'
  | 'bad_second'
  | 'bad_year'
  | 'too_long';

/**
 * Milliseconds to wait for a `Retry-After` value (delta-seconds or any of RFC 9110's three
 * HTTP-date forms), from `nowMs` (Unix ms, default `Date.now()`). A date in the past gives 0.
 * A value over 8192 bytes is `too_long` (SPEC.md §8), whatever it holds.
 *
 * @throws SyntaxError with `code` (a {@link RetryAfterErrorCode}) if it does not parse.
 *
 * @example
 * ```
 * import { parseRetryAfter } from 'seeded-backoff/retry-after';
 *
 * parseRetryAfter('120'); // 120000
 * parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 48, 7)); // 90000
 * ```
 */
export function parseRetryAfter(value: string | Uint8Array, nowMs?: number): number;

/** A rate-limit header `parseRateLimit()` reads (any case), in the order `retry()` tries them. */
export type RateLimitHeaderName =
  | 'ratelimit'
  | 'ratelimit-reset'
  | 'x-ratelimit-retry-after'
  | 'x-ratelimit-reset';

/** The rate-limit headers in lower case, in the order a 429 is searched (the core's table). */
export const RATE_LIMIT_HEADERS: readonly RateLimitHeaderName[];

/**
 * Whether a response with this status is read for rate-limit headers: a 429 only (on a 5xx the
 * reset time describes a quota, not the server's recovery), and only without a valid Retry-After.
 *
 * @example
 * ```
 * rateLimitApplies(429); // true
 * rateLimitApplies(503); // false
 * ```
 */
export function rateLimitApplies(status: number): boolean;

/** Why `parseRateLimit()` refused a value: the `code` of its SyntaxError. */
export type RateLimitErrorCode = 'empty' | 'negative' | 'invalid_format' | 'too_long';

/**
 * Milliseconds until a rate-limit quota resets, from a 429's `RateLimit` (IETF structured field:
 * the largest `t` among quotas with `r=0`), `RateLimit-Reset`, `X-RateLimit-Retry-After` or
 * `X-RateLimit-Reset` (seconds, fractions rounded up to whole ms; above 10^9 a Unix time, counted
 * from `nowMs`, default `Date.now()`). Pass it to `nextDelay({ rateLimitMs })`; `retry()` reads
 * these headers itself.
 *
 * @throws SyntaxError with `code` (a {@link RateLimitErrorCode}) if it does not parse; TypeError
 * or RangeError for an unknown header name. A value over 8192 bytes is `too_long`.
 *
 * @example
 * ```
 * import { parseRateLimit } from 'seeded-backoff/retry-after';
 *
 * parseRateLimit('RateLimit', '"default";r=0;t=30'); // 30000
 * parseRateLimit('X-RateLimit-Reset', '1.5'); // 1500
 * parseRateLimit('x-ratelimit-reset', '1700000060', 1700000000000); // 60000
 * ```
 */
export function parseRateLimit(
  name: RateLimitHeaderName | (string & {}),
  value: string | Uint8Array,
  nowMs?: number,
): number;

/**
 * 429 and 5xx.
 *
 * @example
 * ```
 * if (isRetryableHttp(res.status)) await sleep(backoff.nextDelay());
 * ```
 */
export function isRetryableHttp(status: number): boolean;

/** An HTTP status's or gRPC code's class; `'invalid'` for an integer outside the defined ones. */
export type Classification = 'success' | 'retry' | 'do_not_retry' | 'invalid';

/**
 * The class of an HTTP status: `classifyHttp(503) === 'retry'`, `classifyHttp(404) === 'do_not_retry'`.
 * @throws TypeError for a non-number, RangeError for a non-integer.
 */
export function classifyHttp(status: number): Classification;

/**
 * The class of a gRPC status code: `classifyGrpc(14) === 'retry'` (UNAVAILABLE).
 * @throws TypeError for a non-number, RangeError for a non-integer.
 */
export function classifyGrpc(code: number): Classification;
