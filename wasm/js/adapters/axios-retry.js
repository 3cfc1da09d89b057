// axios-retry 4: options whose retry delays come from one seeded schedule per request.
// axios-retry asks `retryCondition(error)` (and awaits it) and then `retryDelay(retryCount, error)`: the first
// steps the request's Backoff (with `error.response`, through the core) and stops axios-retry when
// the core gives up; the second answers the delay it computed. The request's state rides in the
// state axios-retry keeps on its config (`config['axios-retry']`) and carries to its retries.
// axios-retry otherwise spends the request's `timeout` over all attempts and the waits between
// them, so a Retry-After longer than the timeout would end the retries: the timeout is each
// attempt's (`shouldResetTimeout`), as in ky and got, and the policy's maxElapsedMs bounds the whole.
import { isRetryableStatus } from '../index.js';
import { requests } from './common.js';

/** Options for `axiosRetry(axios, options)` retrying with seeded schedules. */
export function axiosRetryOptions(policy, seed) {
  const next = requests(policy, seed);
  const delays = new WeakMap();
  return {
    retries: Number.MAX_SAFE_INTEGER,
    shouldResetTimeout: true,
    async retryCondition(error) {
      const r = error?.response;
      const state = error?.config?.['axios-retry'];
      // A response with a status the core does not retry, or a request the caller cancelled.
      if (r ? !isRetryableStatus(r.status) : error?.code === 'ERR_CANCELED' || !state) return false;
      const req = (state.seededBackoff ??= next());
      const d = r ? await req.after(r.status, r.headers) : req.next();
      delays.set(error, d);
      return d !== null;
    },
    retryDelay: (_retryCount, error) => delays.get(error) ?? 0,
  };
}
