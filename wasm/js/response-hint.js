// A response's hint by the core's rule (SPEC.md §8.3). The main part answers what servers send
// most (no header, or delta-seconds); a value that needs the HTTP-date or rate-limit parser loads
// the date part (pkg/date-part.js, a dynamic import: bundlers make it a chunk of its own, fetched
// the first time such a value arrives).
import { main } from '../pkg/main-part.js';
import { HINT_ASK_DATE_PART, HINT_NONE, LENS_AT, MAX_HEADER_VALUE, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { imported, load } from './engine.js';

/**
 * The date part, loaded: the program's own where it imports it statically (a module service worker
 * refuses `import()` at run time: importing `seeded-backoff/retry-after` there brings the part in).
 */
export const datePart = async () => load(imported('date') ?? (await import('../pkg/date-part.js')).date);

export const HEADERS = ['retry-after', ...RATE_LIMIT_HEADERS];

/**
 * Writes `values` (header values or null, as HEADERS orders them) to part `p`'s area: each value's
 * bytes (a header value is a byte string: one byte per char) and its length; a value longer than the
 * core's bound takes no room and is marked as such, so that the core refuses it as too long.
 */
export function putHeaders(p, values) {
  let at = 0;
  values.forEach((v, i) => {
    let n = v === null ? -1 : v.length;
    if (n > MAX_HEADER_VALUE) n = MAX_HEADER_VALUE + 1;
    else for (let j = 0; j < n; j++) p.u8[at++] = v.charCodeAt(j);
    p.u32[LENS_AT + i] = n;
  });
}

/**
 * The hint of a response with `status` whose header values are `values` (HEADERS' order, null where
 * absent), as [hint kind, ms]: the core's `ServerHint::from_http_headers` (SPEC.md §8.3): a valid
 * Retry-After; else, for a 429, the first rate-limit header of the core's list that is present and
 * parses; else none. The main part answers what it can; the date part is loaded only for a value
 * that needs it.
 */
export async function hintOf(status, values, nowMs, lenient = false) {
  const m = main.x ? main : await load(main);
  putHeaders(m, values);
  let r = m.x.hint(status);
  if (Math.floor(r / 4294967296) === HINT_ASK_DATE_PART) {
    // Fetched now, when a value in a rarer form comes. `lenient` (retry()): where the network is
    // gone by then, the hint is none and the retry follows the schedule's own delay, so the call
    // goes on and nothing is lost.
    const d = await datePart().catch((e) => {
      if (lenient) return null;
      throw e;
    });
    if (!d) return [HINT_NONE, 0];
    putHeaders(d, values);
    const s = Math.floor(nowMs / 1000);
    r = d.x.fromHttpHeaders(status, s % 4294967296, Math.floor(s / 4294967296));
  }
  return [Math.floor(r / 4294967296), r % 4294967296];
}

/** The hint of a retryable fetch `Response`, as [hint kind, ms] (for `retry()`'s step). */
export const responseHint = (response) =>
  hintOf(response.status, HEADERS.map((name) => response.headers.get(name)), Date.now(), true);
