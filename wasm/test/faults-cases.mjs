// The fault cases that fetchWithBackoff() meets against tests/faults/fault_server.py, shared by
// the Node test (faults.test.mjs) and the Chromium one (browser/faults.mjs), so both runtimes'
// fetch face the same faults, options and bounds. Browser-safe: no Node imports.

/** A 1.5 s budget, attempts of at most 300 ms, small waits: every failing loop ends on the deadline. */
export const OPTIONS = { initialMs: 50, maxBackoffMs: 200, jitter: 'full', maxElapsedMs: 1500, maxRetries: 1000, seed: 3 };
export const ATTEMPT_MS = 300;
/**
 * What a loop may take: ten times its budget and one attempt, which a quiet machine's loops take
 * about once; without the deadline, 1,000 retries of up to 200 ms waits (and 300 ms attempts) would
 * take minutes. How close to the budget each loop ends is a lab figure (lab/web-faults.sh).
 */
export const BUDGET_MS = OPTIONS.maxElapsedMs + ATTEMPT_MS;
export const LIMIT_MS = 10 * BUDGET_MS;

/**
 * Faults that never answer: each loop gives up on the deadline, and its error's `cause` is the
 * last failure, which the predicate recognises (fetch's TypeError for a reset or refusal in both
 * runtimes, the attempt timeout's TimeoutError, the last 5xx/429 Response of the storm).
 */
export const FAILING = [
  ['reset-before-headers', (e) => e instanceof TypeError],
  ['stall', (e) => e?.name === 'TimeoutError'],
  ['trickle-headers', (e) => e?.name === 'TimeoutError'],
  ['refused', (e) => e instanceof TypeError],
  ['storm', (e) => e instanceof Response && [503, 429, 500, 502, 504].includes(e.status)],
];
/** Faults after the headers: the attempt answered 200, so the loop ends; the body is cut short. */
export const ANSWERED = ['reset-after-headers', 'truncated-chunked'];

/** The URL of `fault` on the server (`base`), or on the refused port; `key` separates runtimes' counters. */
export function faultUrl(fault, { base, refused }, key) {
  return fault === 'refused' ? `${refused}/x` : `${base}/${fault}?key=${key}-${fault}`;
}

/**
 * Runs fetchWithBackoff on `url` with the caller's `signal` (never aborted) and describes the
 * outcome in plain data: the error's class, reason and attempts, whether its cause is the fault's
 * expected last failure, the body's length when it answered (null when reading it rejects).
 */
export async function runFault(fetchWithBackoff, RetryError, fault, url, signal) {
  const t0 = performance.now();
  const out = { ms: 0 };
  try {
    const res = await fetchWithBackoff(url, { cache: 'no-store' }, { ...OPTIONS, attemptTimeoutMs: ATTEMPT_MS, signal });
    out.ms = performance.now() - t0;
    out.status = res.status;
    out.bodyLength = await res.text().then((b) => b.length, () => null);
  } catch (err) {
    out.ms = performance.now() - t0;
    const last = FAILING.find(([f]) => f === fault)?.[1];
    out.retryError = err instanceof RetryError;
    out.reason = err?.reason;
    out.attempts = err?.attempts;
    out.message = String(err?.message ?? err);
    out.cause = String(err?.cause?.name ?? err?.cause?.status ?? err?.cause);
    out.lastMatches = Boolean(last?.(err?.cause));
  }
  return out;
}
