// The server pacer (SPEC.md §16) through the public API: values hand-derived from §16.2 and §16.4
// (a capacity of 1000 a second leaves no spread, w = 1000 / rate = 1, so every reset is exact),
// bad configuration per field, and a real node:http server answering 429 through pace().
// The cross-language vectors are replayed in vectors.test.mjs.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';
import * as part from 'seeded-backoff/pacer';
import { runReadmeSnippet } from './readme-snippet.mjs';
import { pacerHeaders } from './replay.mjs';

const cjs = cjsAll;

for (const [how, api] of [['import', esm], ['require', cjs], ['seeded-backoff/pacer', part]]) {
  test(`${how}: 1000 a second fill second 3, then second 4, one millisecond apart (§16.2)`, () => {
    const p = new api.Pacer({ capacityPerS: 1000, seed: 1 });
    // now = 2500: s = 3, at = 3000 + i, reset = 500 + i.
    const slots = Array.from({ length: 1001 }, () => p.assign(2500));
    assert.deepEqual(slots[0], { retryAfterS: 1, resetMs: 500, full: false, headers: pacerHeaders(1, 500) });
    assert.deepEqual(slots[0].headers, { 'retry-after': '1', 'ratelimit-reset': '0.500', ratelimit: '"pacer";r=0;t=1' });
    assert.equal(slots[999].resetMs, 1499);
    assert.deepEqual([slots[1000].retryAfterS, slots[1000].resetMs], [2, 1500]);
    assert.equal(p.pending(2500), 1001);
  });

  test(`${how}: the reserve, pending, a full schedule and a backwards clock`, () => {
    // rate = 100 − 100 · 250 / 1000 = 75.
    const r = new api.Pacer({ capacityPerS: 100, reservePerMille: 250, seed: 3n });
    const waits = Array.from({ length: 76 }, () => r.assign(0).retryAfterS);
    assert.deepEqual([waits[74], waits[75]], [1, 2]);
    // 25 at rate 10: seconds 1 and 2 hold 10 each, second 3 holds 5.
    const q = new api.Pacer({ capacityPerS: 10, seed: 1 });
    for (let i = 0; i < 25; i++) q.assign(0);
    assert.deepEqual([q.pending(0), q.pending(1500), q.pending(3000)], [25, 15, 0]);
    // maxWaitS 2 at rate 1: seconds 1 and 2, then the last second with full set.
    const f = new api.Pacer({ capacityPerS: 1, maxWaitS: 2, seed: 1 });
    const got = Array.from({ length: 4 }, () => f.assign(0)).map((s) => [s.retryAfterS, s.full]);
    assert.deepEqual(got, [[1, false], [2, false], [2, true], [2, true]]);
    // An earlier clock reads as the latest seen (10.5 s): second 11, then 12.
    const b = new api.Pacer({ capacityPerS: 1000, seed: 1 });
    assert.equal(b.assign(10_500).resetMs, 500);
    assert.deepEqual([b.assign(2_000).retryAfterS, b.assign(2_000).resetMs], [1, 502]);
    // The default clock is performance.now(): a first return is 1 s to 2 s away.
    const d = new api.Pacer({ capacityPerS: 5 }).assign();
    assert.ok(d.retryAfterS === 1 && d.resetMs >= 1 && d.resetMs <= 1999, JSON.stringify(d));
    // A fraction of a millisecond is dropped; a bigint clock reads as a number one.
    const e1 = new api.Pacer({ capacityPerS: 1000, seed: 9 });
    const e2 = new api.Pacer({ capacityPerS: 1000, seed: 9 });
    assert.deepEqual(e1.assign(2500.9), e2.assign(2500n));
  });

  test(`${how}: bad configuration names the field and its range, bad clocks change nothing`, () => {
    const bad = [
      [{ capacityPerS: 0 }, RangeError, /^capacityPerS must be in 1\.\.=1000000, got 0$/],
      [{ capacityPerS: 1_000_001 }, RangeError, /^capacityPerS must be in 1\.\.=1000000/],
      [{ capacityPerS: 1.5 }, RangeError, /^capacityPerS must be in 1\.\.=1000000/],
      [{ capacityPerS: '5' }, TypeError, /^capacityPerS must be a number in 1\.\.=1000000/],
      [{}, TypeError, /capacityPerS/],
      [{ capacityPerS: 5, reservePerMille: 1000 }, RangeError, /^reservePerMille must be in 0\.\.=999, got 1000$/],
      [{ capacityPerS: 5, reservePerMille: -1 }, RangeError, /^reservePerMille must be in 0\.\.=999/],
      [{ capacityPerS: 5, maxWaitS: 0 }, RangeError, /^maxWaitS must be in 1\.\.=86400, got 0$/],
      [{ capacityPerS: 5, maxWaitS: 86_401 }, RangeError, /^maxWaitS must be in 1\.\.=86400/],
      [{ capacityPerS: 5, maxWaitS: null }, TypeError, /^maxWaitS must be a number in 1\.\.=86400/],
      [{ capacityPerS: 5, seed: -1 }, RangeError, /^seed must be/],
      [{ capacityPerS: 5, capacity: 5 }, TypeError, /unknown option "capacity"/],
    ];
    for (const [options, Err, message] of bad) {
      assert.throws(() => new api.Pacer(options), (e) => e instanceof Err && message.test(e.message), JSON.stringify(options));
    }
    // The first field out of range is named (SPEC §16.1's order).
    assert.throws(() => new api.Pacer({ capacityPerS: 0, reservePerMille: 1000, maxWaitS: 0 }), /^RangeError: capacityPerS/);
    const p = new api.Pacer({ capacityPerS: 1000, seed: 1 });
    for (const now of [-1, Number.NaN, Infinity, '5', 2n ** 64n]) {
      assert.throws(() => p.assign(now), (e) => (e instanceof RangeError || e instanceof TypeError) && /^nowMs/.test(e.message));
      assert.throws(() => p.pending(now), /Error: nowMs/);
    }
    assert.equal(p.pending(0), 0);
    assert.equal(p.assign(0).resetMs, 1000);
    assert.throws(() => p.pace({ statusCode: 429 }), TypeError);
    assert.throws(() => p.pace({ statusCode: 503, headersSent: true, setHeader() {} }), /already sent its headers/);
    assert.equal(p.pending(0), 1);
    assert.equal(p.pace({ statusCode: 200, setHeader: assert.fail }), undefined);
    // The core's list: 429 and 503 only (SPEC.md §16.4), whatever else is a failure.
    for (const statusCode of [500, 502, 504, 408, 428, 65965, 503.5, -503]) assert.equal(p.pace({ statusCode, setHeader: assert.fail }), undefined);
    assert.throws(() => api.pace({ statusCode: 429, setHeader() {} }, {}), /^TypeError: pacer must be a Pacer/);
  });
}

test('a node:http server answers 429 through pace(), the client reads the three headers', async () => {
  const pacer = new esm.Pacer({ capacityPerS: 1000, seed: 5 });
  const server = createServer((req, res) => {
    res.statusCode = req.url === '/ok' ? 200 : 429;
    // The request's clock: 2.5 s on the server's monotonic clock, so the values are exact.
    const slot = req.url === '/method' ? pacer.pace(res, 2500) : esm.pace(res, pacer, 2500);
    res.end(slot ? '' : 'fine');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const seen = [];
    for (const path of ['/a', '/method', '/b', '/ok']) {
      const res = await fetch(base + path);
      await res.arrayBuffer();
      seen.push([res.status, res.headers.get('retry-after'), res.headers.get('ratelimit-reset'), res.headers.get('ratelimit')]);
    }
    assert.deepEqual(seen, [
      [429, '1', '0.500', '"pacer";r=0;t=1'],
      [429, '1', '0.501', '"pacer";r=0;t=1'],
      [429, '1', '0.502', '"pacer";r=0;t=1'],
      // Another status gets no headers and takes no return.
      [200, null, null, null],
    ]);
    assert.equal(pacer.pending(2500), 3);
  } finally {
    server.close();
  }
});

test("wasm/README.md's pacer snippet runs as pasted and prints the first second's headers", () => {
  const out = runReadmeSnippet('## Servers: telling refused clients');
  assert.equal(out, '429 1 "pacer";r=0;t=1\n');
});
