// Retry-After in milliseconds. Delta-seconds, what servers send most, is parsed by the main part;
// the first value that is not loads the date part, which parses all three RFC 9110 forms.
import * as dateGlue from '../pkg/seeded_backoff_date_bg.js';
import * as glue from '../pkg/seeded_backoff_main_bg.js';
import { NOT_SECONDS } from '../pkg/tables.js';
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
