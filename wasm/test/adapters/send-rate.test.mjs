// The adapters' `sendRate` (SPEC.md §15.2, §17) against the real ky, axios-retry and got and a
// local HTTP server on 127.0.0.1: every attempt, first and retries, reaches the server no sooner
// than a fixed rate lets it (the k-th at least k intervals after the start); a 429 without a hint
// cuts the learnt rate and a 500 does not; a fail-fast rate refuses before anything is sent. Expected rates and intervals are derived by hand in
// ../send-rate-fixtures.mjs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import axios from 'axios';
import axiosRetry from 'axios-retry';
import got from 'got';
import ky from 'ky';
import { RetryError } from 'seeded-backoff';
import { SendRate } from 'seeded-backoff/send-rate';
import { axiosRetryOptions } from 'seeded-backoff/axios-retry';
import { gotRetry } from 'seeded-backoff/got';
import { kyRetry } from 'seeded-backoff/ky';
import { assertPaced, CUT, fixedRate, learntRate, refusingRate } from '../send-rate-fixtures.mjs';
import { startServer } from './helpers.mjs';

const SEED = 7;
// Short retry delays: the send rate's spacing, not the schedule, is what is measured.
const POLICY = { preset: 'google', initialMs: 1, maxBackoffMs: 5, jitterMs: 0 };
const N = 5;
const routes = {
  '/ok': [[200]],
};
for (const lib of ['ky', 'axios', 'got']) {
  for (let i = 0; i < N; i++) routes[`/${lib}/${i}`] = [[500], [200]];
  routes[`/${lib}/limited`] = [[429], [200]];
  routes[`/${lib}/broken`] = [[500], [200]];
}
let server;
before(async () => {
  server = await startServer(routes);
});
after(() => server.close());

/** Each library's client with the adapter and `sendRate`, as a function fetching a URL's text. */
const CLIENTS = {
  ky(sendRate) {
    const api = ky.create({ ...kyRetry(POLICY, SEED, { sendRate }), timeout: false });
    return (url) => api.get(url).text();
  },
  axios(sendRate) {
    const api = axios.create();
    axiosRetry(api, axiosRetryOptions(POLICY, SEED, { sendRate, axios: api }));
    return async (url) => (await api.get(url)).data;
  },
  got(sendRate) {
    const api = got.extend(gotRetry(POLICY, SEED, { sendRate }));
    return (url) => api.get(url).text();
  },
};

/** A refusal as each library reports it: the RetryError itself, or wrapped as its cause. */
const refusal = (e) => [e, e?.cause].find((x) => x instanceof RetryError);

for (const [lib, make] of Object.entries(CLIENTS)) {
  test(`${lib}: ${N} concurrent requests, each a 500 then a 200, leave 20/s apart: every attempt paced`, async () => {
    const start = performance.now();
    const get = make(fixedRate(SendRate, 20));
    const bodies = await Promise.all(Array.from({ length: N }, (_, i) => get(`${server.url}/${lib}/${i}`)));
    assert.deepEqual(bodies, Array(N).fill('200 #2'));
    const at = Array.from({ length: N }, (_, i) => server.times(`/${lib}/${i}`)).flat();
    assert.equal(at.length, 2 * N);
    // 20/s: an interval of 10^9 ÷ 20 000 µs = 50 ms (§17.4 step 3).
    assertPaced(at, start, 50, lib);
  });

  test(`${lib}: a 429 without a hint cuts the learnt rate; a 500 leaves it`, async () => {
    const rate = await learntRate(SendRate);
    const get = make(rate);
    assert.equal(await get(`${server.url}/${lib}/broken`), '200 #2');
    // Both answers were accepted (§17.3: a 500 is no throttle): no cut, and no probe within 60 s.
    assert.equal(rate.rateMilli, 98_000);
    assert.equal(await get(`${server.url}/${lib}/limited`), '200 #2');
    const r = rate.rateMilli;
    assert.ok(r >= CUT[0] && r <= CUT[1], `${r} outside ${CUT}`);
  });

  test(`${lib}: a fail-fast rate that refuses sends nothing: a RetryError 'throttled' after 0 attempts`, async () => {
    const get = make(refusingRate(SendRate));
    const before = server.hits('/ok');
    const error = await get(`${server.url}/ok`).then(() => null, (e) => e);
    const e = refusal(error);
    assert.ok(e, `${error}`);
    assert.equal(e.reason, 'throttled');
    assert.equal(e.attempts, 0);
    // The one give-up of a refused first attempt, as retry() and callWithBackoff() give it.
    assert.ok(!('cause' in e), `a cause: ${e.cause}`);
    assert.equal(server.hits('/ok'), before);
  });
}

test('a sendRate that is no SendRate, and axios without its instance, are TypeErrors naming them', () => {
  for (const bad of [{}, 1, null]) {
    assert.throws(() => kyRetry(POLICY, SEED, { sendRate: bad }), /^TypeError: sendRate must be a SendRate/);
    assert.throws(() => gotRetry(POLICY, SEED, { sendRate: bad }), /^TypeError: sendRate must be a SendRate/);
    assert.throws(() => axiosRetryOptions(POLICY, SEED, { sendRate: bad, axios: axios.create() }), /^TypeError: sendRate must be a SendRate/);
  }
  assert.throws(() => axiosRetryOptions(POLICY, SEED, { sendRate: new SendRate() }), /^TypeError: axios must be the axios instance/);
  assert.throws(() => kyRetry(POLICY, SEED, { rate: 1 }), /^TypeError: unknown option "rate" in kyRetry options/);
});
