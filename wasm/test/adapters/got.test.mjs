// seeded-backoff/got against the real got (pinned in package.json) and a local HTTP server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import got from 'got';
import { Policy } from 'seeded-backoff';
import { gotRetry } from 'seeded-backoff/got';
import { modelDelays, secondCallSeed, recordWaits, startServer } from './helpers.mjs';

const SEED = 20261201;
let server;
before(async () => {
  server = await startServer({
    '/flaky': [[503], [500], [429], [200]],
    '/once': [[503], [200]],
    '/hints': [[503, { 'retry-after': '7' }], [429, { 'ratelimit-reset': '2.5' }], [507], [200]],
    '/down': [[503]],
    '/missing': [[404]],
    '/slow-hint': [[503, { 'retry-after': '2' }], [200]],
    '/slow-hint-clamped': [[503, { 'retry-after': '2' }], [200]],
  });
});
after(() => server.close());

test('got waits the model delays; each request takes the next seed', async () => {
  const api = got.extend(gotRetry({ preset: 'google' }, SEED));
  const first = await recordWaits('got', () => api.get(`${server.url}/flaky`).text());
  assert.equal(first.value, '200 #4');
  assert.deepEqual(first.waits, modelDelays(SEED, [null, null, null]));
  const second = await recordWaits('got', () => api.get(`${server.url}/once`).text());
  assert.deepEqual(second.waits, modelDelays(secondCallSeed(SEED), [null]));
});

test('Retry-After, a 429 rate-limit header and any 5xx are the core\'s', async () => {
  // 507 is not in got's own statusCodes: the core's classification retries it.
  const api = got.extend(gotRetry(new Policy({ preset: 'google' }), SEED));
  const { value, waits } = await recordWaits('got', () => api.get(`${server.url}/hints`).text());
  assert.equal(value, '200 #4');
  assert.deepEqual(waits, modelDelays(SEED, [{ retryAfter: 7000 }, { rateLimit: 2500 }, null]));
});

test('a give-up of the policy stops got', async () => {
  const api = got.extend(gotRetry({ preset: 'google', maxRetries: 2 }, SEED));
  const { error, waits } = await recordWaits('got', () => api.get(`${server.url}/down`).text());
  assert.equal(error?.response?.statusCode, 503);
  assert.equal(server.hits('/down'), 3);
  assert.deepEqual(waits, modelDelays(SEED, [null, null], { max_retries: 2 }));
});

test('a status the core does not retry is not retried', async () => {
  const api = got.extend(gotRetry({ preset: 'google' }, SEED));
  const { error, waits } = await recordWaits('got', () => api.get(`${server.url}/missing`).text());
  assert.equal(error?.response?.statusCode, 404);
  assert.equal(server.hits('/missing'), 1);
  assert.deepEqual(waits, []);
});

test('bad arguments: the TypeError or RangeError of new Backoff()', () => {
  assert.throws(() => gotRetry(null), TypeError);
  assert.throws(() => gotRetry({ jitter: 'random' }), /jitter/);
  assert.throws(() => gotRetry({ multiplier: 0.5 }), RangeError);
  assert.throws(() => gotRetry({}, -1n), RangeError);
});

test('a request timeout shorter than Retry-After: got waits the core\'s delay; a wait beyond maxHintMs gives up', async () => {
  // got caps a server's wait at its request timeout unless told otherwise; the core's hint decides.
  const api = got.extend(gotRetry({ preset: 'google' }, SEED));
  const timed = await recordWaits('got', () => api.get(`${server.url}/slow-hint`, { timeout: { request: 500 } }).text());
  assert.equal(timed.value, '200 #2');
  assert.deepEqual(timed.waits, modelDelays(SEED, [{ retryAfter: 2000 }]));
  // Never back before the server allows (SPEC §5 step 4): the request ends with the server's 503.
  const limited = got.extend(gotRetry({ preset: 'google', maxHintMs: 300 }, SEED));
  await assert.rejects(limited.get(`${server.url}/slow-hint-clamped`, { timeout: { request: 500 } }).text(),
    (e) => e.response?.statusCode === 503);
});
