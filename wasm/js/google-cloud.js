// Google Cloud's Node client libraries (GAPIC clients over google-gax) retried by the core's
// schedule. gax's own retry for Memorystore reads retries UNAVAILABLE only (full jitter, 1 s × 1.3
// up to 10 s) and never a 429; `{ retry: null }` turns it off for one call, and callWithBackoff
// makes every attempt so, over one seeded run of the core (default: Google's published preset).
//
// Errors are gax GoogleErrors: in REST fallback mode `httpStatusCode` is the HTTP status and is
// classified as one; otherwise the gRPC `code` is. gax keeps no response headers on the error, so
// Retry-After is read from the HTTP response itself: captureResponses(authClient) wraps the auth
// client's fetch (which the REST fallback sends every request through) and hands each attempt's
// response to the attempt that made it (AsyncLocalStorage), so concurrent calls do not mix.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HINT_NONE, HINT_RATE_LIMIT, HINT_RETRY_AFTER, TOLD_HTTP } from '../pkg/tables.js';
import { classifyGrpc, classifyHttp, drive, hintFromHeaders, Policy, RetryError, settings } from './all.js';
import { giveUpAs } from './retry-error.js';
import { keys } from './check.js';

const attempt = new AsyncLocalStorage();
const WRAPPED = Symbol('seeded-backoff responses');
const KEYS = ['policy', 'seed', 'budget', 'onRetry', 'sleep', 'now', 'signal', 'sendRate'];

const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'function' ? 'a function' : String(v));

/**
 * Wraps `authClient.fetch` (google-auth-library's AuthClient, e.g. a PassThroughClient) so that
 * callWithBackoff sees each attempt's HTTP response and its Retry-After. Returns the same client.
 */
export function captureResponses(authClient) {
  if (typeof authClient?.fetch !== 'function') {
    throw new TypeError(`authClient must be an auth client with a fetch method, got ${show(authClient)}`);
  }
  if (authClient[WRAPPED]) return authClient;
  const fetch = authClient.fetch.bind(authClient);
  authClient.fetch = async (...args) => {
    const response = await fetch(...args);
    const seen = attempt.getStore();
    if (seen) seen.response = response;
    return response;
  };
  authClient[WRAPPED] = true;
  return authClient;
}

/** The core's class of a gax error: by `httpStatusCode` when present, else by gRPC `code`. */
export function classifyGoogleError(error) {
  const http = error?.httpStatusCode;
  if (Number.isInteger(http)) return classifyHttp(http);
  const code = error?.code;
  return Number.isInteger(code) ? classifyGrpc(code) : 'invalid';
}

/**
 * The server's hint for a failed attempt as nextDelay input, by the rule retry() follows
 * (`hintFromHeaders`: Retry-After, else a 429's rate-limit header), as [hint kind, ms]: from the
 * response the attempt received, when it is the error's (gaxios gives a fetch Headers, older
 * versions a plain object).
 */
async function hintOf(error, response) {
  if (!response || response.status !== error?.httpStatusCode) return [HINT_NONE, 0];
  const h = await hintFromHeaders(response.status, response.headers ?? {});
  return 'retryAfterMs' in h ? [HINT_RETRY_AFTER, h.retryAfterMs] : 'rateLimitMs' in h ? [HINT_RATE_LIMIT, h.rateLimitMs] : [HINT_NONE, 0];
}

/**
 * The give-up error, as gax's own retry reports running out: a GoogleError (the last error's
 * class, so the `catch` clauses written for gax see it) with code DEADLINE_EXCEEDED (4), which
 * is also a RetryError (`cause`, `attempts`, `reason`). An error that is not a GoogleError (no
 * numeric `code`) gives a plain RetryError.
 */
function giveUp(error, attempts, reason) {
  const Base = error instanceof Error && Number.isInteger(error.code) ? error.constructor : null;
  if (Base) {
    try {
      return Object.assign(giveUpAs(Base, error, attempts, reason), { code: 4, details: error.details, metadata: error.metadata });
    } catch {
      // A class whose constructor does not take a message: the plain RetryError below.
    }
  }
  return new RetryError(error, attempts, reason);
}

/**
 * Runs `call(callOptions)` (a gax method, given `{ retry: null }` to spread into its options) until
 * it succeeds, retrying what the core classifies as retryable after the core's delay: gax makes
 * each attempt with its own retry off, and the package's one driver of a run (driver.js) does the
 * rest. This host tells the run what each failure was.
 */
export async function callWithBackoff(call, options = {}) {
  if (typeof call !== 'function') throw new TypeError(`call must be a function, got ${show(call)}`);
  keys('callWithBackoff options', options, KEYS);
  const { policy, seed, budget, onRetry, signal, sendRate, sleep, now } = options;
  for (const k of ['onRetry', 'sleep', 'now']) {
    if (options[k] !== undefined && typeof options[k] !== 'function') {
      throw new TypeError(`${k} must be a function, got ${show(options[k])}`);
    }
  }
  const s = settings({ policy: policy ?? new Policy({ preset: 'google' }), seed, budget, onRetry, signal, sendRate,
    offline: 'ignore', whenHidden: 'continue' }, 'callWithBackoff options');
  // The attempt's context: the HTTP response captureResponses() saw for it, if any.
  let seen;
  // The send rate's answer (SPEC.md §17.3): the HTTP status of the response the attempt received
  // (REST fallback), which the core reads; else (gRPC) the outcome's own.
  const told = (error) => {
    const r = seen.response;
    return r && (!error || r.status === error.httpStatusCode) ? [TOLD_HTTP, r.status] : undefined;
  };
  return drive(() => attempt.run((seen = {}), () => call({ retry: null })), s, true, {
    async failure(error) {
      const permanent = classifyGoogleError(error) !== 'retry';
      return {
        permanent,
        hint: permanent ? [HINT_NONE, 0] : await hintOf(error, seen.response),
        // gRPC DEADLINE_EXCEEDED is the attempt's timeout: a budget charges it as one.
        timeout: error?.code === 4 && !Number.isInteger(error?.httpStatusCode),
        told: told(error),
      };
    },
    told: () => told(),
    giveUp,
    clock: now && (() => Math.max(0, Math.floor(now()))),
    sleep,
  });
}
