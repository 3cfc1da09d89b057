// axios-retry 4: options whose retry delays come from one seeded schedule per request.
// axios-retry asks `retryCondition(error)` (and awaits it) and then `retryDelay(retryCount, error)`: the first
// steps the request's Backoff (with `error.response`, through the core) and stops axios-retry when
// the core gives up; the second answers the delay it computed. The request's state rides in the
// state axios-retry keeps on its config (`config['axios-retry']`) and carries to its retries.
// axios-retry otherwise spends the request's `timeout` over all attempts and the waits between
// them, so a Retry-After longer than the timeout would end the retries: the timeout is each
// attempt's (`shouldResetTimeout`), as in ky and got, and the policy's maxElapsedMs bounds the whole.
// With a `sendRate`, axios-retry has no hook before an attempt: interceptors on the `axios`
// instance given do it. A request interceptor (axios runs it before every attempt, as axios-retry
// retries through the instance) awaits the request's gate; the request's state then rides on the
// config itself (`config.seededBackoff`, a class instance axios merges by reference). A response
// interceptor tells the core the answer of a response that is not retried (a retried one is told
// in retryCondition).
import { isRetryableHttp } from '../classify.js';
import { adapterOptions, requests } from './common.js';

/** Options for `axiosRetry(axios, options)` retrying with seeded schedules. */
export function axiosRetryOptions(policy, seed, options = {}) {
  const { sendRate, axios } = adapterOptions('axiosRetryOptions', options, ['axios']);
  if (sendRate !== undefined && typeof axios?.interceptors?.request?.use !== 'function') {
    throw new TypeError(`axios must be the axios instance given to axiosRetry (its interceptors pace each attempt), got ${String(axios)}`);
  }
  const next = requests(policy, seed, sendRate);
  const delays = new WeakMap();
  if (sendRate !== undefined) {
    axios.interceptors.request.use(async (config) => {
      await (config.seededBackoff ??= next()).gate(config.signal);
      return config;
    });
    const told = (r) => {
      if (r && !isRetryableHttp(r.status)) r.config?.seededBackoff?.settle(r.status);
    };
    axios.interceptors.response.use((r) => {
      told(r);
      return r;
    }, (error) => {
      told(error?.response);
      return Promise.reject(error);
    });
  }
  return {
    retries: Number.MAX_SAFE_INTEGER,
    shouldResetTimeout: true,
    async retryCondition(error) {
      const r = error?.response;
      const state = error?.config?.['axios-retry'];
      // A response with a status the core does not retry, or a request the caller cancelled.
      if (r ? !isRetryableHttp(r.status) : error?.code === 'ERR_CANCELED' || !state) return false;
      const req = sendRate === undefined ? (state.seededBackoff ??= next()) : error.config.seededBackoff;
      if (!req) return false;
      const d = r ? await req.after(r.status, r.headers) : req.next();
      delays.set(error, d);
      return d !== null;
    },
    retryDelay: (_retryCount, error) => delays.get(error) ?? 0,
  };
}
