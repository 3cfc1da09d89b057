// got 16: options whose retry delays come from one seeded schedule per request. got asks
// `retry.calculateDelay({ attemptCount, error })` for each retry (and awaits it) and stops at 0: it steps the
// request's Backoff (with `error.response`, through the core) and answers 0 when the core gives
// up. The request's state rides in its `context`, which got copies to the request's retries.
// got checks its `statusCodes` first: every status, so that the core decides in calculateDelay
// (which answers 0 for a status the core does not retry), and making the options asks no engine
// (a module's top level on a page that refuses WebAssembly runs it). got also cancels a
// retry whose Retry-After exceeds `retry.maxRetryAfter`, which defaults to the request timeout,
// before asking for a delay: no limit there, so that the core's hint, clamped to the policy's
// maxHintMs, is the wait whatever the timeout. With a `sendRate`, a beforeRequest hook (got runs
// it before every attempt, retries included) awaits the request's gate, and an afterResponse hook
// tells the core the answer of a response that is not retried (a retried one is told in
// calculateDelay).
import { isRetryableHttp } from '../classify.js';
import { adapterOptions, requests } from './common.js';

/** got options (for `got.extend` or one call) retrying with seeded schedules. */
export function gotRetry(policy, seed, options = {}) {
  const { sendRate } = adapterOptions('gotRetry', options);
  const next = requests(policy, seed, sendRate);
  const statusCodes = Array.from({ length: 500 }, (_, i) => 100 + i);
  const calculateDelay = async ({ attemptCount, error }) => {
    const r = error.response;
    if (r && !isRetryableHttp(r.statusCode)) return 0;
    const c = error.options.context;
    // A request's first failure starts its schedule (a paced one's first attempt did); its
    // retries keep it.
    const req = (attemptCount === 1 && sendRate === undefined) || !c.seededBackoff ? (c.seededBackoff = next()) : c.seededBackoff;
    const d = r ? await req.after(r.statusCode, r.headers) : req.next();
    // 0 stops got: a delay of 0 ms is got's own "now", 1 ms.
    return d === null ? 0 : Math.max(1, d);
  };
  const out = { retry: { limit: Number.MAX_SAFE_INTEGER, statusCodes, calculateDelay, maxRetryAfter: Number.POSITIVE_INFINITY } };
  if (sendRate === undefined) return out;
  const gate = (o, { retryCount }) => {
    if (retryCount === 0 || !o.context.seededBackoff) o.context.seededBackoff = next();
    return o.context.seededBackoff.gate(o.signal);
  };
  const told = (response) => {
    if (!isRetryableHttp(response.statusCode)) response.request.options.context.seededBackoff?.settle(response.statusCode);
    return response;
  };
  return { ...out, hooks: { beforeRequest: [gate], afterResponse: [told] } };
}
