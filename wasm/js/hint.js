// Retry-After and the rate-limit headers in milliseconds, by the core's rules. The main part
// answers what servers send most (no header, or delta-seconds); a value that needs the HTTP-date or
// rate-limit parser loads the date part (pkg/date-part.js, a dynamic import: bundlers make it a chunk
// of its own, fetched the first time such a value arrives).
import { main } from '../pkg/main-part.js';
import { HINT_ASK_DATE_PART, LENS_AT, MAX_HEADER_VALUE, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { get, imported, load } from './engine.js';

/**
 * The date part, loaded: the program's own where it imports it statically (a module service worker
 * refuses `import()` at run time: importing `seeded-backoff/retry-after` there brings the part in).
 */
export const datePart = async () => load(imported('date') ?? (await import('../pkg/date-part.js')).date);

const HEADERS = ['retry-after', ...RATE_LIMIT_HEADERS];

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
 * The hint a retryable Response's headers give, as [hint kind, ms]: the core's
 * `ServerHint::from_http_headers` (SPEC.md §8.3): a valid Retry-After; else, for a 429, the first
 * rate-limit header of the core's list that is present and parses; else none.
 */
export async function responseHint(response) {
  const values = HEADERS.map((name) => response.headers.get(name));
  const m = get(main);
  putHeaders(m, values);
  let r = m.x.hint(response.status);
  if (Math.floor(r / 4294967296) === HINT_ASK_DATE_PART) {
    const d = await datePart();
    putHeaders(d, values);
    const s = Math.floor(Date.now() / 1000);
    r = d.x.fromHttpHeaders(response.status, s % 4294967296, Math.floor(s / 4294967296));
  }
  return [Math.floor(r / 4294967296), r % 4294967296];
}
