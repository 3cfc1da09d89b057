// seeded-backoff/outbox with a `sendRate` (SPEC.md §15.2, §17), in Node over fake-indexeddb and a
// local HTTP server on 127.0.0.1: every delivery attempt, first and retries, leaves (the driver's
// fetch call) no sooner than a fixed rate lets it (the k-th at least k intervals after the
// start); a 429 without a hint cuts the learnt rate and a 500 does not; a fail-fast
// rate refuses before anything is sent. Rates and intervals are derived by hand in
// send-rate-fixtures.mjs.
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SendRate } from 'seeded-backoff/send-rate';
import { Outbox, OutboxError } from 'seeded-backoff/outbox';
import { assertPaced, CUT, fixedRate, learntRate, refusingRate } from './send-rate-fixtures.mjs';
import { startServer } from './server.mjs';

const POLICY = { initialMs: 10, multiplier: 2, maxBackoffMs: 40, jitter: 'none', maxRetries: 5, maxElapsedMs: 0 };
const N = 5;
const routes = { '/ok': [[201]], '/limited': [[429], [201]], '/broken': [[500], [201]] };
for (let i = 0; i < N; i++) routes[`/r${i}`] = [[503], [201]];
let server;
before(async () => {
  server = await startServer(routes);
});
after(() => server.close());

test(`${N} concurrent deliveries, each a 503 then a 201, leave 20/s apart: every attempt paced`, async () => {
  // The times the driver calls fetch, each after the send rate let its attempt go.
  const left = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (...args) => {
    if (String(args[0]).includes('/r')) left.push(performance.now());
    return realFetch(...args);
  };
  const start = performance.now();
  const box = new Outbox({ name: 'rate-a', policy: POLICY, sendRate: fixedRate(SendRate, 20) });
  try {
    const res = await Promise.all(Array.from({ length: N }, (_, i) => box.send(`${server.url}/r${i}`, { method: 'POST' })));
    assert.deepEqual(res.map((r) => r.status), Array(N).fill(201));
    assert.equal(Array.from({ length: N }, (_, i) => server.hits(`/r${i}`)).reduce((x, y) => x + y), 2 * N);
    assert.equal(left.length, 2 * N);
    // 20/s: an interval of 10^9 ÷ 20 000 µs = 50 ms (§17.4 step 3).
    assertPaced(left, start, 50, 'outbox');
  } finally {
    globalThis.fetch = realFetch;
    box.close();
  }
});

test('a 429 without a hint cuts the learnt rate; a 500 leaves it', async () => {
  const rate = await learntRate(SendRate);
  const box = new Outbox({ name: 'rate-b', policy: POLICY, sendRate: rate });
  try {
    assert.equal((await box.send(`${server.url}/broken`, { method: 'POST' })).status, 201);
    assert.equal(server.hits('/broken'), 2);
    // Both answers were accepted (§17.3: a 500 is no throttle): no cut, and no probe within 60 s.
    assert.equal(rate.rateMilli, 98_000);
    assert.equal((await box.send(`${server.url}/limited`, { method: 'POST' })).status, 201);
    assert.equal(server.hits('/limited'), 2);
    const r = rate.rateMilli;
    assert.ok(r >= CUT[0] && r <= CUT[1], `${r} outside ${CUT}`);
  } finally {
    box.close();
  }
});

test("a fail-fast rate that refuses sends nothing: OutboxError gave-up 'throttled'", async () => {
  const box = new Outbox({ name: 'rate-c', policy: POLICY, sendRate: refusingRate(SendRate) });
  try {
    await assert.rejects(box.send(`${server.url}/ok`, { method: 'POST' }),
      (e) => e instanceof OutboxError && e.code === 'gave-up' && e.reason === 'throttled' && /after 0 attempts/.test(e.message));
    assert.equal(server.hits('/ok'), 0);
    assert.deepEqual(await box.pending(), []);
  } finally {
    box.close();
  }
});

test('a sendRate that is no SendRate: every send rejects with the TypeError naming it', async () => {
  const box = new Outbox({ name: 'rate-d', sendRate: {} });
  await assert.rejects(box.send(`${server.url}/ok`), /^TypeError: sendRate must be a SendRate/);
  box.close();
});
