// Rate-limit headers (SPEC.md §8.3) through the package: parseRateLimit for every header form,
// nextDelay({ rateLimitMs }), and retry() against a real HTTP server on 127.0.0.1 answering 429
// with each header. Expected values are derived by hand from the SPEC.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';
import * as sub from 'seeded-backoff/retry-after';
import { startServer } from './server.mjs';

const cjs = cjsAll;
const ALL = {
  ratelimit: '"q";r=0;t=0',
  'ratelimit-reset': '0.2',
  'x-ratelimit-retry-after': '0.3',
  'x-ratelimit-reset': '0.4',
};
const ROUTES = {
  // Each header alone: its own reset time.
  '/ratelimit': [[429, { ratelimit: ALL.ratelimit }], [200]],
  '/ratelimit-reset': [[429, { 'ratelimit-reset': ALL['ratelimit-reset'] }], [200]],
  '/x-ratelimit-retry-after': [[429, { 'x-ratelimit-retry-after': ALL['x-ratelimit-retry-after'] }], [200]],
  '/x-ratelimit-reset': [[429, { 'x-ratelimit-reset': ALL['x-ratelimit-reset'] }], [200]],
  // All of them and an invalid Retry-After: the first in the core's order wins.
  '/all': [[429, { ...ALL, 'retry-after': 'soon' }], [200]],
  // A present header that does not parse passes to the next one.
  '/bad-first': [[429, { ratelimit: 'garbage', 'ratelimit-reset': '0.2' }], [200]],
  // A valid Retry-After wins over every rate-limit header.
  '/retry-after-wins': [[429, { 'retry-after': '1', 'x-ratelimit-reset': '0.4' }], [200]],
  // On a 5xx the reset time is a quota's, not the server's recovery: not used.
  '/503': [[503, { 'x-ratelimit-reset': '1' }], [200]],
};
const POLICY = { initialMs: 20, maxBackoffMs: 2000, jitter: 'full', seed: 11 };

let server;
before(async () => {
  // Each API gets its own copy of every route (a route answers its script once, in turn).
  const routes = {};
  for (const how of ['import', 'require']) {
    for (const [path, script] of Object.entries(ROUTES)) routes[`/${how}${path}`] = script;
  }
  server = await startServer(routes);
});
after(() => server.close());

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  test(`${how}: parseRateLimit reads every header form`, () => {
    const p = api.parseRateLimit;
    assert.equal(p('RateLimit', '"default";r=0;t=30'), 30_000);
    assert.equal(p('ratelimit', '"a";r=5;t=10, "b";r=0;t=3'), 3_000);
    assert.equal(p('ratelimit', '"a";r=5;t=10, "b";r=6;t=3'), 10_000);
    assert.equal(p('ratelimit', 'limit=100, remaining=0, reset=7'), 7_000);
    assert.equal(p('ratelimit', ' "x,y;z" ; r = 0 ; t = 12 '), 12_000);
    for (const name of ['RateLimit-Reset', 'X-RateLimit-Retry-After', 'X-RATELIMIT-RESET']) {
      assert.equal(p(name, '12'), 12_000);
      assert.equal(p(name, '1.2341'), 1_235); // rounded up
      assert.equal(p(name, '0.0001'), 1);
      assert.equal(p(name, new TextEncoder().encode(' 2.5 ')), 2_500);
      // 10^9 is a delay (saturated); 10^9 + 1 a Unix time.
      assert.equal(p(name, '1000000000', 1_000_000_000_000), 4294967295);
      assert.equal(p(name, '1000000001', 1_000_000_000_000), 1_000);
      assert.equal(p(name, '1700000060', 1_700_000_000_000), 60_000);
      assert.equal(p(name, '1700000000', 1_700_000_001_000), 0);
    }
    // Sub-second nowMs counts in whole seconds, as the header does.
    assert.equal(p('x-ratelimit-reset', '1700000060', 1_700_000_000_999), 60_000);
    const now = Math.floor(Date.now() / 1000);
    const fromClock = p('x-ratelimit-reset', String(now + 100));
    assert.ok(fromClock > 98_000 && fromClock <= 100_000, `${fromClock}`);
  });

  test(`${how}: parseRateLimit refuses bad values and names`, () => {
    const p = api.parseRateLimit;
    const code = (name, value) => (e) => e instanceof SyntaxError && e.code === name;
    assert.throws(() => p('ratelimit-reset', ''), code('empty'));
    assert.throws(() => p('ratelimit-reset', '-1'), code('negative'));
    for (const v of ['1.', '.5', '+1', '1e3', 'soon']) assert.throws(() => p('x-ratelimit-reset', v), code('invalid_format'));
    assert.throws(() => p('ratelimit', ''), code('empty'));
    assert.throws(() => p('ratelimit', '"a";r=0'), code('invalid_format'));
    assert.throws(() => p('retry-after', '5'), RangeError);
    assert.throws(() => p(7, '5'), TypeError);
    assert.throws(() => p('ratelimit-reset', 5), TypeError);
    assert.throws(() => p('ratelimit-reset', '9'.repeat(9000)), code('too_long'));
    // A lone surrogate has no UTF-8 form: refused as in Python and C, even inside a quoted name.
    assert.throws(() => p('ratelimit', '"a\uD800";r=0;t=7'), code('invalid_format'));
    assert.equal(p('ratelimit', '"a";r=0;t=7', 0), 7000);
    assert.equal(p('ratelimit-reset', '9'.repeat(300), 0), 4294967295);
    assert.throws(() => p('ratelimit-reset', '5', -1), RangeError);
  });

  test(`${how}: nextDelay({ rateLimitMs }) waits the reset plus up to 1 s + 10 %`, () => {
    const options = { initialMs: 1000, maxBackoffMs: 32_000, jitter: 'none', seed: 0n };
    // Seed 0's first output is 0x4653DAA3; uniform(2000) = 0x4653DAA3 * 2001 >> 32 = 549.
    const b = new api.Backoff(options);
    assert.equal(b.nextDelay({ rateLimitMs: 10_000 }), 10_549);
    assert.equal(b.nextDelay(), 2000); // the level grows as without the hint
    assert.throws(() => b.nextDelay({ rateLimitMs: -1 }), RangeError);
    assert.throws(() => b.nextDelay({ rateLimitMs: 1, retryAfterMs: 1 }), TypeError);
    assert.throws(() => b.nextDelay({ rateLimitMs: 1, doNotRetry: true }), TypeError);
    assert.equal(b.retries, 2, 'a refused input leaves the state unchanged');
  });

  const twin = (input) => new api.Backoff(POLICY).nextDelay(input);
  const cases = [
    ['/ratelimit', { rateLimitMs: 0 }],
    ['/ratelimit-reset', { rateLimitMs: 200 }],
    ['/x-ratelimit-retry-after', { rateLimitMs: 300 }],
    ['/x-ratelimit-reset', { rateLimitMs: 400 }],
    ['/all', { rateLimitMs: 0 }],
    ['/bad-first', { rateLimitMs: 200 }],
    ['/retry-after-wins', { retryAfterMs: 1000 }],
    ['/503', undefined],
  ];
  for (const [path, input] of cases) {
    test(`${how}: retry() on ${path} steps with ${JSON.stringify(input ?? 'no hint')}`, async () => {
      const delays = [];
      const res = await api.retry(({ signal }) => fetch(`${server.url}/${how}${path}`, { signal }), {
        ...POLICY,
        onRetry: ({ delayMs }) => delays.push(delayMs),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(delays, [twin(input)]);
    });
  }
}

test('the retry-after entry exports parseRateLimit', () => {
  assert.equal(sub.parseRateLimit('x-ratelimit-reset', '3'), 3000);
  assert.equal(sub.parseRateLimit, esm.parseRateLimit);
});

test('the twins differ by hint, so the retry() checks can fail', () => {
  const d = (input) => new esm.Backoff(POLICY).nextDelay(input);
  const all = [d({ rateLimitMs: 0 }), d({ rateLimitMs: 200 }), d({ rateLimitMs: 300 }), d({ rateLimitMs: 400 }), d({ retryAfterMs: 1000 }), d()];
  assert.equal(new Set(all).size, all.length, `${all}`);
});
