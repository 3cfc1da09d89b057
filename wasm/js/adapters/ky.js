// ky 2: options whose retry delays come from one seeded schedule per request. ky asks (and awaits)
// `retry.shouldRetry({ error })` before each retry, then `retry.delay(attemptCount)`: the first
// steps the request's Backoff (with the HTTPError's response, through the core) and stops ky when
// the core gives up; the second answers the delay it computed. An `init` hook, which ky runs once
// per request on a copy of the options, gives each request its own schedule. With a `sendRate`,
// the init hook also adds the request's gate as the last beforeRequest hook (the first attempt)
// and beforeRetry hook (each retry), and an afterResponse hook, last, that tells the core the
// answer of a response that is not retried (a retried one is told in shouldRetry).
import { isRetryableHttp } from '../classify.js';
import { adapterOptions, requests } from './common.js';

/** ky options (for `ky.create`, `ky.extend` or one call) retrying with seeded schedules. */
export function kyRetry(policy, seed, options = {}) {
  const { sendRate } = adapterOptions('kyRetry', options);
  const next = requests(policy, seed, sendRate);
  const init = (options) => {
    let req;
    let delay = null;
    // With a response: its step (a promise); without one: the schedule's own.
    const advance = (r) => {
      req ??= next();
      return r ? req.after(r.status, r.headers).then((d) => (delay = d)) : (delay = req.next());
    };
    options.retry = {
      ...options.retry,
      async shouldRetry({ error }) {
        const r = error?.response;
        // An error without a response (a network failure, a timeout): ky's own rules decide
        // whether it is retried at all, unless the core has given up.
        if (r && !isRetryableHttp(r.status)) return false;
        return (await advance(r)) === null ? false : r ? true : undefined;
      },
      // A retry forced by an afterResponse hook comes without shouldRetry: its own step.
      delay() {
        const d = delay ?? advance() ?? 0;
        delay = null;
        return d;
      },
    };
    if (sendRate === undefined) return;
    const gate = ({ request }) => (req ??= next()).gate(request?.signal);
    const told = ({ response }) => {
      if (!isRetryableHttp(response.status)) req?.settle(response.status);
    };
    const hooks = options.hooks ?? {};
    options.hooks = {
      ...hooks,
      beforeRequest: [...(hooks.beforeRequest ?? []), gate],
      beforeRetry: [...(hooks.beforeRetry ?? []), gate],
      afterResponse: [...(hooks.afterResponse ?? []), told],
    };
  };
  return { retry: { limit: Number.MAX_SAFE_INTEGER, jitter: false, backoffLimit: Infinity }, hooks: { init: [init] } };
}
