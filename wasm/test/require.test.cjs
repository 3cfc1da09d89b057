// The package from a CommonJS module, with plain require(): every vector, and a retry() that
// recovers. (The ESM tests also load the require() build through createRequire.)
const assert = require('node:assert/strict');
const { test } = require('node:test');
// Every entry's require() module, as one object (the main entry holds the everyday names).
const api = Object.assign({}, ...['', '/retry', '/retry-after', '/snapshot', '/budget', '/fleet', '/pacer', '/send-rate']
  .map((e) => require(`seeded-backoff${e}`)));

test('require(): every vector file, bit-identical to Rust', async () => {
  const { expectedChecks, replayFile } = await import('./replay.mjs');
  const { vectorFiles } = await import('./vectors-fs.mjs');
  let checks = 0;
  for (const { json } of vectorFiles()) {
    const n = replayFile(api, json);
    assert.equal(n, expectedChecks(json));
    checks += n;
  }
  assert.ok(checks > 5000, `${checks} checks`);
});

test('require(): retry() recovers after thrown errors, with the core delays', async () => {
  const delays = [];
  let calls = 0;
  const value = await api.retry(
    () => {
      calls++;
      if (calls < 3) throw new Error('flaky');
      return 'ok';
    },
    { initialMs: 5, maxBackoffMs: 50, jitter: 'full', seed: 3n, onRetry: ({ delayMs }) => delays.push(delayMs) },
  );
  assert.equal(value, 'ok');
  const twin = new api.Backoff({ initialMs: 5, maxBackoffMs: 50, jitter: 'full', seed: 3n });
  assert.deepEqual(delays, [twin.nextDelay(), twin.nextDelay()]);
});
