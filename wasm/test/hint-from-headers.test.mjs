// hintFromHeaders(status, headers, nowMs): SPEC.md §8.3's rule for a response's headers as any
// HTTP client holds them (fetch Headers, a get(name) object, a plain object of values). Expected
// values are derived by hand from SPEC §8.1–8.3, not from the package.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;
// Sun, 06 Nov 1994 08:49:37 GMT is 90 s after this.
const NOW = Date.UTC(1994, 10, 6, 8, 48, 7);

for (const [how, { hintFromHeaders }] of [['import', esm], ['require', cjs]]) {
  test(`${how}: Retry-After on any status; rate-limit headers on a 429 only, in the core's order`, async () => {
    const cases = [
      [503, { 'Retry-After': '120' }, { retryAfterMs: 120000 }],
      [200, { 'retry-after': '3' }, { retryAfterMs: 3000 }],
      [503, { 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }, { retryAfterMs: 90000 }],
      [429, { 'retry-after': 'Sunday, 06-Nov-94 08:49:37 GMT' }, { retryAfterMs: 90000 }],
      [503, { 'retry-after': 'Sun, 06 Nov 1994 08:47:00 GMT' }, { retryAfterMs: 0 }],
      [503, {}, {}],
      [503, { 'x-ratelimit-reset': '1.5' }, {}],
      [429, { 'x-ratelimit-reset': '1.5' }, { rateLimitMs: 1500 }],
      [429, { 'retry-after': 'soon', 'x-ratelimit-reset': '1.5' }, { rateLimitMs: 1500 }],
      [429, { 'retry-after': '1', 'x-ratelimit-reset': '0.4' }, { retryAfterMs: 1000 }],
      // Every rate-limit header: RateLimit is first; a present one that does not parse passes on.
      [429, { 'x-ratelimit-reset': '4', 'x-ratelimit-retry-after': '3', 'ratelimit-reset': '2', ratelimit: '"q";r=0;t=1' }, { rateLimitMs: 1000 }],
      [429, { 'x-ratelimit-reset': '4', 'x-ratelimit-retry-after': '3', 'ratelimit-reset': '2', ratelimit: 'garbage' }, { rateLimitMs: 2000 }],
      [429, { 'x-ratelimit-reset': '4', 'x-ratelimit-retry-after': '3' }, { rateLimitMs: 3000 }],
      [429, { 'retry-after': '-5' }, {}],
    ];
    for (const [status, headers, expected] of cases) {
      assert.deepEqual(await hintFromHeaders(status, headers, NOW), expected, `${status} ${JSON.stringify(headers)}`);
      assert.deepEqual(await hintFromHeaders(status, new Headers(headers), NOW), expected, `${status} Headers`);
    }
    // Above 10^9 a reset value is a Unix time: 1700000060 is 60 s after 1700000000.
    assert.deepEqual(await hintFromHeaders(429, { 'x-ratelimit-reset': '1700000060' }, 1700000000000), { rateLimitMs: 60000 });
  });

  test(`${how}: header names in any case, the first of several values, numbers as text`, async () => {
    assert.deepEqual(await hintFromHeaders(503, { 'RETRY-AFTER': '5' }), { retryAfterMs: 5000 });
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': ['7', '9'] }), { retryAfterMs: 7000 });
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': 3 }), { retryAfterMs: 3000 });
    assert.deepEqual(await hintFromHeaders(503, { 'Retry-After': '7', 'retry-after': '9' }), { retryAfterMs: 7000 });
    assert.deepEqual(await hintFromHeaders(429, { 'X-RateLimit-Reset': '2' }), { rateLimitMs: 2000 });
    // Anything with get(name): a Map stands for axios' AxiosHeaders.
    assert.deepEqual(await hintFromHeaders(503, new Map([['retry-after', '4']])), { retryAfterMs: 4000 });
    assert.deepEqual(await hintFromHeaders(503, { get: () => undefined }), {});
  });

  test(`${how}: a value no header can hold is passed over, not truncated into one that parses`, async () => {
    // U+0131 and U+0132 are not bytes; truncated to one byte each they would read "12".
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': '\u0131\u0132' }), {});
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': '\ud800' }), {});
    assert.deepEqual(await hintFromHeaders(429, { 'retry-after': '\u0131', 'ratelimit-reset': '2' }), { rateLimitMs: 2000 });
    // SPEC §8: up to 8192 bytes every value gets its answer; a longer one is too_long (passed over).
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': `${'0'.repeat(8190)}12` }), { retryAfterMs: 12000 });
    assert.deepEqual(await hintFromHeaders(503, { 'retry-after': `${'0'.repeat(8191)}12` }), {});
  });

  test(`${how}: bad arguments reject with a TypeError or RangeError naming them`, async () => {
    await assert.rejects(hintFromHeaders('503', {}), { name: 'TypeError', message: /status/ });
    await assert.rejects(hintFromHeaders(503.5, {}), { name: 'RangeError', message: /status/ });
    await assert.rejects(hintFromHeaders(-1, {}), { name: 'RangeError', message: /status/ });
    await assert.rejects(hintFromHeaders(2 ** 32, {}), { name: 'RangeError', message: /status/ });
    await assert.rejects(hintFromHeaders(503, null), { name: 'TypeError', message: /headers/ });
    await assert.rejects(hintFromHeaders(503, 'retry-after: 5'), { name: 'TypeError', message: /headers/ });
    await assert.rejects(hintFromHeaders(503, {}, -1), { name: 'RangeError', message: /nowMs/ });
  });
}

test("wasm/README.md's hintFromHeaders example prints what its comments say", async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = readme.split('```js\n').map((b) => b.split('```')[0]).find((b) => b.includes('await hintFromHeaders(') && b.includes('rateLimitMs: 20000'));
  const logged = [];
  const log = (v) => logged.push(v);
  const run = new Function('m', 'log', `return (async () => { const { Backoff, hintFromHeaders } = m; ${block.replace(/^import .*$/m, '').replaceAll('console.log', 'log')} })();`);
  await run(esm, log);
  assert.deepEqual(logged[0], { rateLimitMs: 20000 });
  // A 429's reset plus the core's upward jitter of up to 1 s + 10 % (SPEC.md §5): 20000..=23000.
  assert.ok(logged[1] >= 20000 && logged[1] <= 23000, `${logged[1]}`);
  assert.match(block, /\/\/ \{ rateLimitMs: 20000 \}/);
  assert.match(block, /\/\/ 20000\.\.=23000/);
});

test('a character outside ASCII is invalid_format in parseRateLimit and passed over by hintFromHeaders alike (SPEC.md §8)', async () => {
  // One rule for every entry point: whether the character is one byte (Latin-1, as fetch's
  // Headers give it) or more, quoted or not.
  for (const value of ['"d\u00e9faut";r=0;t=30', '"q";r=0;t=30;note=\u{1f600}', '"\u0100";r=0;t=30']) {
    assert.throws(() => esm.parseRateLimit('RateLimit', value, 0), (e) => e instanceof SyntaxError && e.code === 'invalid_format', value);
    assert.deepEqual(await esm.hintFromHeaders(429, { RateLimit: value, 'X-RateLimit-Reset': '5' }, 0), { rateLimitMs: 5000 }, value);
    assert.deepEqual(await esm.hintFromHeaders(429, new Headers({ 'X-RateLimit-Reset': '5' }), 0), { rateLimitMs: 5000 });
  }
  assert.throws(() => esm.parseRetryAfter('1\u00e9', 0), (e) => e.code === 'invalid_format');
  assert.deepEqual(await esm.hintFromHeaders(503, { 'Retry-After': '1\u00e9' }, 0), {});
});
