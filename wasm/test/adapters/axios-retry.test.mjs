// seeded-backoff/axios-retry against the real axios and axios-retry (pinned in package.json) and a
// local HTTP server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import axios from 'axios';
import axiosRetry from 'axios-retry';
import { Policy } from 'seeded-backoff';
import { axiosRetryOptions } from 'seeded-backoff/axios-retry';
import { modelDelays, secondCallSeed, recordWaits, startServer } from './helpers.mjs';

const SEED = 20261201;
let server;
before(async () => {
  server = await startServer({
    '/flaky': [[503], [500], [429], [200]],
    '/once': [[503], [200]],
    '/hints': [[503, { 'retry-after': '7' }], [429, { ratelimit: '"default";r=0;t=5' }], [503, { 'retry-after': '-1' }], [200]],
    '/down': [[503]],
    '/missing': [[404]],
    '/slow-hint': [[503, { 'retry-after': '2' }], [200]],
  });
});
after(() => server.close());

function client(policy, seed) {
  const instance = axios.create();
  axiosRetry(instance, axiosRetryOptions(policy, seed));
  return instance;
}

test('axios-retry waits the model delays; each request takes the next seed', async () => {
  const api = client({ preset: 'google' }, SEED);
  const first = await recordWaits('axios-retry', () => api.get(`${server.url}/flaky`));
  assert.equal(first.value.data, '200 #4');
  assert.deepEqual(first.waits, modelDelays(SEED, [null, null, null]));
  const second = await recordWaits('axios-retry', () => api.get(`${server.url}/once`));
  assert.deepEqual(second.waits, modelDelays(secondCallSeed(SEED), [null]));
});

test('Retry-After and a 429 RateLimit header are read by the core from error.response', async () => {
  const api = client(new Policy({ preset: 'google' }), SEED);
  const { value, waits } = await recordWaits('axios-retry', () => api.get(`${server.url}/hints`));
  assert.equal(value.data, '200 #4');
  assert.deepEqual(waits, modelDelays(SEED, [{ retryAfter: 7000 }, { rateLimit: 5000 }, null]));
});

test('a give-up of the policy stops axios-retry', async () => {
  const api = client({ preset: 'google', maxRetries: 2 }, SEED);
  const { error, waits } = await recordWaits('axios-retry', () => api.get(`${server.url}/down`));
  assert.equal(error?.response?.status, 503);
  assert.equal(server.hits('/down'), 3);
  assert.deepEqual(waits, modelDelays(SEED, [null, null], { max_retries: 2 }));
});

test('a status the core does not retry is not retried', async () => {
  const api = client({ preset: 'google' }, SEED);
  const { error, waits } = await recordWaits('axios-retry', () => api.get(`${server.url}/missing`));
  assert.equal(error?.response?.status, 404);
  assert.equal(server.hits('/missing'), 1);
  assert.deepEqual(waits, []);
});

test('bad arguments: the TypeError or RangeError of new Backoff()', () => {
  assert.throws(() => axiosRetryOptions(42), TypeError);
  assert.throws(() => axiosRetryOptions({ maxBackoffMs: 1, initialMs: 2 }), RangeError);
  assert.throws(() => axiosRetryOptions({}, 2 ** 64), RangeError);
  assert.throws(() => axiosRetryOptions({}, 1.5), RangeError);
  assert.throws(() => axiosRetryOptions({}, '7'), TypeError);
});

test('a request timeout shorter than Retry-After: axios-retry waits the core\'s delay', async () => {
  const api = client({ preset: 'google' }, SEED);
  const { value, waits } = await recordWaits('axios-retry', () => api.get(`${server.url}/slow-hint`, { timeout: 500 }));
  assert.equal(value.data, '200 #2');
  assert.deepEqual(waits, modelDelays(SEED, [{ retryAfter: 2000 }]));
});
