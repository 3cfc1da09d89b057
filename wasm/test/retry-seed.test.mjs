// retry()'s seed: a given one gives the same delays every time; without one, each run draws its
// own, after its first attempt has been made (so that the first attempt waits for no random draw).
import assert from 'node:assert/strict';
import { test } from 'node:test';

// Counts the draws from before the package is loaded: its pool of random words is filled on demand.
const draw = crypto.getRandomValues.bind(crypto);
let draws = 0;
crypto.getRandomValues = (a) => { draws++; return draw(a); };
const { retry } = await import('seeded-backoff');

/** The first retry's delay of a run whose attempts all fail (the run is aborted there). */
async function firstDelay(options) {
  const ac = new AbortController();
  let delay;
  await assert.rejects(retry(() => { throw new Error('down'); }, {
    ...options,
    signal: ac.signal,
    onRetry: ({ delayMs }) => { delay = delayMs; ac.abort(); },
  }));
  return delay;
}

test('the first attempt of an unseeded run is made before any random draw', async () => {
  let atFirst;
  await retry(() => { atFirst = draws; return 1; });
  assert.equal(atFirst, 0);
});

test('a given seed gives the same first delay in every run', async () => {
  const delays = [];
  for (let i = 0; i < 4; i++) delays.push(await firstDelay({ seed: 42 }));
  assert.equal(new Set(delays).size, 1);
  // SPEC §4.2: google's first retry waits 2^0 s plus random_ms in [0, 1000].
  assert.ok(delays[0] >= 1000 && delays[0] <= 2000, `${delays[0]}`);
});

test('unseeded runs draw their own seeds', async () => {
  const delays = [];
  // Four equal draws of random_ms (one value in 1001) would come once in 10^9 runs of this test.
  for (let i = 0; i < 4; i++) delays.push(await firstDelay({}));
  assert.ok(new Set(delays).size > 1, `${delays}`);
  for (const d of delays) assert.ok(d >= 1000 && d <= 2000, `${d}`);
});

// (bad-input.test.mjs names every refused seed type; here, that no attempt comes first.)
test('a bad seed is refused before the first attempt', async () => {
  let calls = 0;
  await assert.rejects(retry(() => { calls++; }, { seed: -1 }), (e) => e instanceof RangeError && /seed/.test(e.message));
  assert.equal(calls, 0);
});
