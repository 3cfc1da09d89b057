// Retry-After and the rate-limit headers in milliseconds. Delta-seconds, what servers send most, is parsed by the main part;
// the first value that is not loads the date part, which parses all three RFC 9110 forms.
import * as dateGlue from '../pkg/seeded_backoff_date_bg.js';
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { HINT_NONE, HINT_RATE_LIMIT, HINT_RETRY_AFTER, NOT_SECONDS, RATE_LIMIT_HEADERS } from '../pkg/tables.js';
import { tryPut } from './check.js';
import { main } from './policy.js';
import { ensure, glueOf, load, part } from './wasm.js';


/** The date part; `eager` where a module needs it synchronously. */
export const datePart = (eager) => part('date', glueOf(dateGlue.__wbg_set_wasm, dateGlue.dateIo, dateGlue.__wbindgen_init_externref_table), eager);

/**
 * Milliseconds for the value in the main part's first `len` shared bytes from `nowMs`, or minus
 * (1 + the index of a parse error). With `wait`, loads the date part if needed (a promise);
 * without, it must be loaded.
 */
export function retryAfter(len, nowMs, wait) {
  const ms = glue.retryAfterSeconds(len);
  if (ms !== NOT_SECONDS) return ms;
  const date = datePart();
  const parse = () => {
    date.u8.set(main.u8.subarray(0, len));
    const s = Math.floor(nowMs / 1000);
    return dateGlue.retryAfter(len, s % 4294967296, Math.floor(s / 4294967296));
  };
  return wait ? load(date).then(parse) : (ensure(date), parse());
}

/**
 * Milliseconds until a rate-limit quota resets, for the value in the date part's first `len`
 * shared bytes read as header `code` of RATE_LIMIT_HEADERS, from `nowMs`; or minus (1 + the index
 * of a parse error). The date part must be loaded.
 */
export function rateLimit(code, len, nowMs) {
  const s = Math.floor(nowMs / 1000);
  return dateGlue.rateLimit(code, len, s % 4294967296, Math.floor(s / 4294967296));
}

/**
 * The hint a retryable Response's headers give, as [hint kind, ms] (SPEC.md §8.3): a valid
 * Retry-After; else, for a status the core reads them for (429), the first rate-limit header of
 * the core's list that is present and parses; else none. Absent, oversized or unparseable values
 * are ignored, as RFC 9110 lets a recipient do.
 */
export async function responseHint(response) {
  const u8 = ensure(main).u8;
  const header = response.headers.get('retry-after');
  const len = header === null ? -1 : tryPut(header, u8);
  if (len >= 0) {
    const ms = await retryAfter(len, Date.now(), true);
    if (ms >= 0) return [HINT_RETRY_AFTER, ms];
  }
  if (glue.rateLimitApplies(response.status)) {
    for (const [code, name] of RATE_LIMIT_HEADERS.entries()) {
      const value = response.headers.get(name);
      if (value === null) continue;
      const date = datePart();
      await load(date);
      const n = tryPut(value, date.u8);
      const ms = n < 0 ? -1 : rateLimit(code, n, Date.now());
      if (ms >= 0) return [HINT_RATE_LIMIT, ms];
    }
  }
  return [HINT_NONE, 0];
}
