// seeded-backoff/google-cloud with Google's real Memorystore client (@google-cloud/memorystore over
// google-gax in REST fallback mode, pinned in this folder's package-lock.json) against the local
// stand-in of the v1 API: 503, 503, 429 with Retry-After, then the Instance. callWithBackoff gets
// through in 4 requests, waiting what the independent model says (the 429's wait is its
// Retry-After); the library's own retry on the same script, in the same test, stops at the 429
// after 3 requests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import memorystorePackage from '@google-cloud/memorystore';
import { PassThroughClient } from 'google-auth-library';
import { GoogleError } from 'google-gax';
import { createServer } from 'node:net';
import { memorystore } from './memorystore-server.mjs';
import { modelDelays } from './model.mjs';
import { importEntry } from './package-entry.mjs';

const { v1 } = memorystorePackage;
const { callWithBackoff, captureResponses, classifyGoogleError } = await importEntry('./google-cloud');
const { Policy, RetryError } = await importEntry('.');

const SEED = 20240611;
const NAME = 'projects/p/locations/us-central1/instances/cache';
const RETRY_AFTER_S = 7;
const SCRIPT = [[503, {}], [503, {}], [429, { 'Retry-After': String(RETRY_AFTER_S) }], [200, {}]];

function client(port, authClient = captureResponses(new PassThroughClient())) {
  return new v1.MemorystoreClient({ fallback: true, apiEndpoint: '127.0.0.1', port, protocol: 'http', authClient });
}

/** A virtual clock: sleeping advances it at once and records the wait. */
function virtualClock() {
  const clock = { t: 1000, waits: [] };
  clock.sleep = async (ms) => {
    clock.waits.push(ms);
    clock.t += ms;
  };
  clock.now = () => clock.t;
  return clock;
}

test('4 requests with callWithBackoff, waits from the model, then 3 with the library default', async () => {
  const [expected] = modelDelays([{ seed: SEED, elapsed: true, steps: [{}, {}, { retryAfterMs: RETRY_AFTER_S * 1000 }] }]);
  assert.equal(expected[2], RETRY_AFTER_S * 1000, "the 429's wait is its Retry-After");

  const server = await memorystore(SCRIPT);
  const c = client(server.port);
  try {
    const clock = virtualClock();
    const retried = [];
    const [instance] = await callWithBackoff((o) => c.getInstance({ name: NAME }, o), {
      seed: SEED, sleep: clock.sleep, now: clock.now,
      onRetry: ({ attempt, delayMs, error }) => retried.push([attempt, delayMs, error.code, error.httpStatusCode]),
    });
    assert.equal(instance.name, NAME);
    assert.equal(server.paths.length, 4);
    assert.deepEqual(clock.waits, expected);
    // gax's GoogleError: gRPC code 14 (UNAVAILABLE) for the 503s, 8 (RESOURCE_EXHAUSTED) for the 429.
    // Attempts count from 1 (SPEC.md §14): the attempt that just failed.
    assert.deepEqual(retried, [[1, expected[0], 14, 503], [2, expected[1], 14, 503], [3, expected[2], 8, 429]]);
  } finally {
    await c.close();
    await server.close();
  }

  // The library's default retry (UNAVAILABLE only): the 429 is final.
  const again = await memorystore(SCRIPT);
  const d = client(again.port);
  try {
    await assert.rejects(d.getInstance({ name: NAME }), (e) => e.code === 8 && e.httpStatusCode === 429);
    assert.equal(again.paths.length, 3);
  } finally {
    await d.close();
    await again.close();
  }
});

test('without captureResponses gax shows no Retry-After: the plain schedule', async () => {
  const [expected] = modelDelays([{ seed: SEED, elapsed: true, steps: [{}, {}, {}] }]);
  const server = await memorystore(SCRIPT);
  const c = client(server.port, new PassThroughClient());
  try {
    const clock = virtualClock();
    await callWithBackoff((o) => c.getInstance({ name: NAME }, o), { seed: SEED, sleep: clock.sleep, now: clock.now });
    assert.deepEqual(clock.waits, expected);
    assert.notEqual(expected[2], RETRY_AFTER_S * 1000);
  } finally {
    await c.close();
    await server.close();
  }
});

test('a 404 is thrown at once; giving up throws RetryError with the last error', async () => {
  const server = await memorystore([[404, {}]]);
  const c = client(server.port);
  try {
    await assert.rejects(callWithBackoff((o) => c.getInstance({ name: NAME }, o), { seed: 1, sleep: () => {} }),
      (e) => e.httpStatusCode === 404 && e.code === 5);
    assert.equal(server.paths.length, 1);
  } finally {
    await c.close();
    await server.close();
  }
  const down = await memorystore([[503, {}]]);
  const d = client(down.port);
  try {
    const clock = virtualClock();
    await assert.rejects(
      callWithBackoff((o) => d.getInstance({ name: NAME }, o),
        { policy: new Policy({ preset: 'google', maxRetries: 2 }), seed: SEED, sleep: clock.sleep, now: clock.now }),
      // The class gax's users catch, as gax reports its own retries running out (DEADLINE_EXCEEDED).
      (e) => e instanceof RetryError && e instanceof GoogleError && e.code === 4 && e.attempts === 3 &&
        e.reason === 'max_retries' && e.cause.code === 14 && /^gave up after 3 attempts \(max_retries\)/.test(e.message));
    assert.equal(down.paths.length, 3);
  } finally {
    await d.close();
    await down.close();
  }
});

test('classification: httpStatusCode first, else the gRPC code (SPEC.md section 7)', () => {
  assert.equal(classifyGoogleError({ httpStatusCode: 503, code: 14 }), 'retry');
  assert.equal(classifyGoogleError({ httpStatusCode: 429, code: 8 }), 'retry');
  assert.equal(classifyGoogleError({ httpStatusCode: 400, code: 3 }), 'do_not_retry');
  assert.equal(classifyGoogleError({ code: 14 }), 'retry');
  assert.equal(classifyGoogleError({ code: 8 }), 'retry');
  assert.equal(classifyGoogleError({ code: 10 }), 'do_not_retry');
  assert.equal(classifyGoogleError(new Error('no code')), 'invalid');
  return assert.rejects(callWithBackoff(() => {}, { retries: 3 }), TypeError);
});

test('a connection refused is retried by default, and giving up is a GoogleError too', async () => {
  // A port that was just closed: nothing listens there.
  const srv = createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  const c = client(port);
  const retries = [];
  try {
    const clock = virtualClock();
    await assert.rejects(
      callWithBackoff((o) => c.getInstance({ name: NAME }, o), {
        policy: new Policy({ preset: 'google', maxRetries: 2 }), seed: SEED, sleep: clock.sleep, now: clock.now,
        onRetry: (r) => retries.push(r.attempt),
      }),
      (e) => e instanceof RetryError && e instanceof GoogleError && e.attempts === 3 && /ECONNREFUSED/.test(String(e.cause?.message)));
    assert.deepEqual(retries, [1, 2]);
  } finally {
    await c.close();
  }
});
