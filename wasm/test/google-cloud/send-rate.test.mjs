// callWithBackoff's `sendRate` (SPEC.md §15.2, §17) with Google's real Memorystore client in REST
// fallback mode against the local stand-in: every attempt, first and retries, leaves (the call
// made by callWithBackoff) no sooner than a fixed rate lets it (the k-th at least k intervals after
// the start); a 429 without a hint cuts the learnt rate and a 500 does not; a fail-fast rate
// refuses before anything is sent. Rates and intervals are derived by hand in
// ../send-rate-fixtures.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import memorystorePackage from '@google-cloud/memorystore';
import { PassThroughClient } from 'google-auth-library';
import { assertPaced, CUT, fixedRate, learntRate, refusingRate } from '../send-rate-fixtures.mjs';
import { memorystore } from './memorystore-server.mjs';
import { importEntry } from './package-entry.mjs';

const { v1 } = memorystorePackage;
const { callWithBackoff, captureResponses } = await importEntry('./google-cloud');
const { Policy, RetryError } = await importEntry('.');
const { SendRate } = await importEntry('./send-rate');

const NAME = 'projects/p/locations/us-central1/instances/cache';
const POLICY = new Policy({ preset: 'google', initialMs: 1, maxBackoffMs: 5, jitterMs: 0 });
const N = 5;

/**
 * Runs `f(call, server, left)` against a stand-in answering `script`: `call(sendRate?)` is one
 * callWithBackoff, `left` the times its attempts are made, each after the send rate let it go.
 */
async function withServer(script, f) {
  const server = await memorystore(script);
  const left = [];
  const c = new v1.MemorystoreClient({ fallback: true, apiEndpoint: '127.0.0.1', port: server.port, protocol: 'http', authClient: captureResponses(new PassThroughClient()) });
  try {
    const call = (sendRate) => callWithBackoff((o) => {
      if (sendRate) left.push(performance.now());
      return c.getInstance({ name: NAME }, o);
    }, { policy: POLICY, seed: 7, sendRate });
    return await f(call, server, left);
  } finally {
    await c.close();
    await server.close();
  }
}

test(`${N} concurrent calls leave 20/s apart: first attempts paced`, async () => {
  await withServer([[200, {}]], async (call, server, left) => {
    const start = performance.now();
    const sendRate = fixedRate(SendRate, 20);
    const out = await Promise.all(Array.from({ length: N }, () => call(sendRate)));
    assert.ok(out.every(([i]) => i.name === NAME));
    assert.equal(server.times.length, N);
    // 20/s: an interval of 10^9 ÷ 20 000 µs = 50 ms (§17.4 step 3).
    assertPaced(left, start, 50, 'google-cloud');
  });
});

test(`${N} concurrent calls, each a 503 then the Instance, leave 20/s apart: retries paced too`, async () => {
  await withServer([...Array(N).fill([503, {}]), [200, {}]], async (call, server, left) => {
    const start = performance.now();
    const sendRate = fixedRate(SendRate, 20);
    await Promise.all(Array.from({ length: N }, () => call(sendRate)));
    assert.equal(server.times.length, 2 * N);
    assert.equal(left.length, 2 * N);
    assertPaced(left, start, 50, 'google-cloud retries');
  });
});

test('a 429 without a hint cuts the learnt rate; a 500 leaves it', async () => {
  const rate = await learntRate(SendRate);
  await withServer([[200, {}], [500, {}], [200, {}], [429, {}], [200, {}]], async (call, server) => {
    await call();
    await call(rate);
    assert.equal(server.paths.length, 3);
    // Both answers were accepted (§17.3: a 500 is no throttle): no cut, and no probe within 60 s.
    assert.equal(rate.rateMilli, 98_000);
    await call(rate);
    assert.equal(server.paths.length, 5);
    const r = rate.rateMilli;
    assert.ok(r >= CUT[0] && r <= CUT[1], `${r} outside ${CUT}`);
  });
});

test("a fail-fast rate that refuses sends nothing: RetryError 'throttled' after 0 attempts", async () => {
  await withServer([[200, {}]], async (call, server) => {
    await assert.rejects(call(refusingRate(SendRate)),
      (e) => e instanceof RetryError && e.reason === 'throttled' && e.attempts === 0 && !('cause' in e));
    assert.equal(server.paths.length, 0);
    await assert.rejects(call({}), /^TypeError: sendRate must be a SendRate/);
  });
});
