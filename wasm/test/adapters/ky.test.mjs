// seeded-backoff/ky against the real ky (pinned in package.json) and a local HTTP server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ky from 'ky';
import { Policy } from 'seeded-backoff';
import { kyRetry } from 'seeded-backoff/ky';
import { modelDelays, secondCallSeed, recordWaits, startServer } from './helpers.mjs';

const SEED = 20261201;
let server;
before(async () => {
  server = await startServer({
    '/flaky': [[503], [500], [429], [200]],
    '/once': [[503], [200]],
    '/hints': [[503, { 'retry-after': '7' }], [429, { 'x-ratelimit-reset': '3' }], [503, { 'retry-after': 'soon' }], [200]],
    '/down': [[503]],
    '/missing': [[404]],
    '/slow-hint': [[503, { 'retry-after': '2' }], [200]],
  });
});
after(() => server.close());

test('ky waits the model delays; each request takes the next seed', async () => {
  const api = ky.create({ ...kyRetry({ preset: 'google' }, SEED), timeout: false });
  const first = await recordWaits('ky', () => api.get(`${server.url}/flaky`).text());
  assert.equal(first.value, '200 #4');
  assert.deepEqual(first.waits, modelDelays(SEED, [null, null, null]));
  const second = await recordWaits('ky', () => api.get(`${server.url}/once`).text());
  assert.deepEqual(second.waits, modelDelays(secondCallSeed(SEED), [null]));
});

test('Retry-After and a 429 rate-limit header are read by the core', async () => {
  const api = ky.create({ ...kyRetry(new Policy({ preset: 'google' }), SEED), timeout: false });
  const { value, waits } = await recordWaits('ky', () => api.get(`${server.url}/hints`).text());
  assert.equal(value, '200 #4');
  assert.deepEqual(waits, modelDelays(SEED, [{ retryAfter: 7000 }, { rateLimit: 3000 }, null]));
});

test('a give-up of the policy stops ky', async () => {
  const before = server.hits('/down');
  const api = ky.create({ ...kyRetry({ preset: 'google', maxRetries: 2 }, SEED), timeout: false });
  const { error, waits } = await recordWaits('ky', () => api.get(`${server.url}/down`).text());
  assert.equal(error?.name, 'HTTPError');
  assert.equal(error.response.status, 503);
  assert.equal(server.hits('/down') - before, 3);
  assert.deepEqual(waits, modelDelays(SEED, [null, null], { max_retries: 2 }));
});

test('a status the core does not retry is not retried', async () => {
  const api = ky.create({ ...kyRetry({ preset: 'google' }, SEED), timeout: false });
  const { error, waits } = await recordWaits('ky', () => api.get(`${server.url}/missing`).text());
  assert.equal(error?.response?.status, 404);
  assert.equal(server.hits('/missing'), 1);
  assert.deepEqual(waits, []);
});

test('bad arguments: the TypeError or RangeError of new Backoff()', () => {
  assert.throws(() => kyRetry('google'), TypeError);
  assert.throws(() => kyRetry({ preset: 'fastest' }), /preset/);
  assert.throws(() => kyRetry({ initialMs: 0 }), RangeError);
  assert.throws(() => kyRetry({ unknown: 1 }), TypeError);
  assert.throws(() => kyRetry({}, -1), RangeError);
  assert.throws(() => kyRetry({}, '42'), TypeError);
});

test('a request timeout shorter than Retry-After: ky waits the core\'s delay', async () => {
  const api = ky.create({ ...kyRetry({ preset: 'google' }, SEED), timeout: 500 });
  const { value, waits } = await recordWaits('ky', () => api.get(`${server.url}/slow-hint`).text());
  assert.equal(value, '200 #2');
  assert.deepEqual(waits, modelDelays(SEED, [{ retryAfter: 2000 }]));
});
