// Bad input: each value is refused with a TypeError or RangeError whose message names the option
// and the allowed range, before it reaches the core; a refused call leaves the object unchanged.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as esm from 'seeded-backoff';

const cjs = createRequire(import.meta.url)('seeded-backoff');

// [options, error class, message pattern (the option name and its range)]
const BAD_OPTIONS = [
  [{ initialMs: NaN }, RangeError, /initialMs must be an integer in 1\.\.=2147483647, got NaN/],
  [{ initialMs: Infinity }, RangeError, /initialMs .*1\.\.=2147483647/],
  [{ initialMs: -Infinity }, RangeError, /initialMs .*1\.\.=2147483647/],
  [{ initialMs: -1 }, RangeError, /initialMs .*1\.\.=2147483647, got -1/],
  [{ initialMs: 0 }, RangeError, /initialMs .*1\.\.=2147483647/],
  [{ initialMs: 1.5 }, RangeError, /initialMs .*got 1\.5/],
  [{ initialMs: '1000' }, TypeError, /initialMs must be an integer .*got "1000"/],
  [{ initialMs: null }, TypeError, /initialMs .*got null/],
  [{ initialMs: 1000n }, TypeError, /initialMs .*got 1000n/],
  [{ initialMs: 2 ** 31 }, RangeError, /initialMs .*2147483647/],
  [{ maxBackoffMs: 500 }, RangeError, /maxBackoffMs must be in initialMs\.\.=2147483647/],
  [{ maxBackoffMs: -5 }, RangeError, /maxBackoffMs .*initialMs\.\.=2147483647/],
  [{ maxRetries: -1 }, RangeError, /maxRetries .*0\.\.=4294967295/],
  [{ maxRetries: 2 ** 32 }, RangeError, /maxRetries .*0\.\.=4294967295/],
  [{ maxRetries: 3.2 }, RangeError, /maxRetries/],
  [{ maxRetries: true }, TypeError, /maxRetries .*got true/],
  [{ multiplier: 0.5 }, RangeError, /multiplier must be in 1\.\.=1000/],
  [{ multiplier: 1001 }, RangeError, /multiplier must be in 1\.\.=1000/],
  [{ multiplier: 1.0005 }, RangeError, /multiplier .*at most 3 decimals/],
  [{ multiplier: NaN }, RangeError, /multiplier/],
  [{ multiplier: -2 }, RangeError, /multiplier/],
  [{ multiplier: '2' }, TypeError, /multiplier/],
  [{ jitter: 'fulll' }, RangeError, /jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got "fulll"/],
  [{ jitter: 2 }, TypeError, /jitter must be one of/],
  [{ jitter: null }, TypeError, /jitter/],
  [{ jitterMs: 40000 }, RangeError, /jitterMs must be in 0\.\.=maxBackoffMs/],
  [{ jitter: 'full', jitterMs: 5 }, RangeError, /jitterMs applies only to jitter 'google'/],
  [{ spreadPerMille: 5 }, RangeError, /spreadPerMille applies only to jitter 'proportional'/],
  [{ jitter: 'proportional', spreadPerMille: 1001 }, RangeError, /spreadPerMille .*0\.\.=1000/],
  [{ maxHintMs: 2 ** 31 }, RangeError, /maxHintMs .*0\.\.=2147483647/],
  [{ maxElapsedMs: -1 }, RangeError, /maxElapsedMs .*0\.\.=4294967295/],
  [{ deadline: 'later' }, RangeError, /deadline must be one of 'give_up', 'clamp'/],
  [{ preset: 'gogle' }, RangeError, /preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc'/],
  [{ maxRetry: 3 }, TypeError, /unknown option 'maxRetry'/],
  [{ seed: -1 }, RangeError, /seed must be .*0\.\.=2\^53-1.*2\^64-1/],
  [{ seed: 1.5 }, RangeError, /seed/],
  [{ seed: NaN }, RangeError, /seed/],
  [{ seed: 2 ** 53 }, RangeError, /seed must be a bigint when above 2\^53-1/],
  [{ seed: 2n ** 64n }, RangeError, /seed .*0n\.\.=2\^64-1/],
  [{ seed: -1n }, RangeError, /seed/],
  [{ seed: '42' }, TypeError, /seed/],
  [{ seed: null }, TypeError, /seed/],
];

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  test(`${how}: bad Backoff options are refused with the option and its range`, () => {
    for (const [options, Err, message] of BAD_OPTIONS) {
      assert.throws(() => new api.Backoff(options), (e) => {
        assert.ok(e instanceof Err, `${JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}: ${e}`);
        assert.match(e.message, message);
        return true;
      });
    }
    assert.throws(() => new api.Backoff(null), TypeError);
    assert.throws(() => new api.Backoff('google'), TypeError);
  });

  test(`${how}: a refused call leaves the Backoff unchanged and usable`, () => {
    const b = new api.Backoff({ preset: 'google', seed: 7 });
    const twin = new api.Backoff({ preset: 'google', seed: 7 });
    assert.equal(b.nextDelay(), twin.nextDelay());
    const before = b.snapshot();
    const bad = [
      () => b.nextDelayWithHint(-1),
      () => b.nextDelayWithHint(NaN),
      () => b.nextDelayWithHint(2 ** 32),
      () => b.nextDelayWithHint('5'),
      () => b.nextDelayWithHint(null),
      () => b.nextDelay({ retryAfterMs: 1.5 }),
      () => b.nextDelay({ elapsedMs: -1 }),
      () => b.nextDelay({ elapsedMs: 2 ** 53 }),
      () => b.nextDelay({ doNotRetry: 'yes' }),
      () => b.nextDelay({ doNotRetry: true, retryAfterMs: 5 }),
      () => b.nextDelay({ budget: {} }),
      () => b.nextDelay({ failureKind: 'oops' }),
      () => b.nextDelay({ retryAfter: 5 }),
      () => b.nextDelay(null),
      () => api.Backoff.restore({ preset: 'google' }, [1, 2, 3]),
    ];
    for (const call of bad) {
      assert.throws(call, (e) => e instanceof TypeError || e instanceof RangeError);
      assert.deepEqual(b.snapshot(), before);
    }
    // Under another policy, or damaged, a snapshot is refused with the core's reason.
    assert.throws(() => api.Backoff.restore({ preset: 'grpc' }, before), { name: 'RangeError', code: 'policy_mismatch' });
    const damaged = before.slice();
    damaged[21] ^= 1;
    assert.throws(() => api.Backoff.restore({ preset: 'google' }, damaged), { code: 'bad_checksum' });
    assert.throws(() => api.Backoff.restore({ preset: 'google' }, before.slice(0, 39)), { code: 'wrong_length' });
    assert.equal(b.nextDelay(), twin.nextDelay());
    assert.equal(b.retries, 2);
  });

  test(`${how}: no NaN, no negative delay, null at give-up`, () => {
    for (const preset of ['google', 'google_64s', 'aws_standard', 'grpc']) {
      const b = new api.Backoff({ preset });
      const all = [...b];
      assert.ok(all.length > 0);
      for (const d of all) assert.ok(Number.isInteger(d) && d >= 0, `${preset}: ${d}`);
      assert.equal(b.nextDelay(), null);
      assert.equal(b.giveUpReason, 'max_retries');
    }
  });

  test(`${how}: other functions refuse bad input`, () => {
    assert.throws(() => api.parseRetryAfter(120), { name: 'TypeError', message: /Retry-After value must be a string/ });
    assert.throws(() => api.parseRetryAfter('120', -1), { name: 'RangeError', message: /nowMs/ });
    assert.throws(() => api.parseRetryAfter('120', NaN), RangeError);
    assert.throws(() => api.parseRetryAfter('soon', 0), { name: 'SyntaxError', code: 'invalid_format' });
    assert.throws(() => api.isRetryableStatus('503'), TypeError);
    assert.throws(() => api.isRetryableStatus(503.5), RangeError);
    assert.equal(api.isRetryableStatus(-503), false);
    assert.equal(api.classifyStatus(-1), 'invalid');
    assert.equal(api.classifyStatus(2 ** 40), 'invalid');
    assert.throws(() => new api.RetryBudget({ mode: 'grpc', maxTokens: 0, tokenRatio: 1 }), { message: /maxTokens .*1\.\.=1000/ });
    assert.throws(() => new api.RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 10.5 }), { message: /tokenRatio must be in 0\.001\.\.=maxTokens/ });
    assert.throws(() => new api.RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.0001 }), { message: /tokenRatio .*3 decimals/ });
    assert.throws(() => new api.RetryBudget({ capacity: 0 }), { message: /capacity must be in 1\.\.=1000000/ });
    assert.throws(() => new api.RetryBudget({ retryCost: 501 }), { message: /retryCost and timeoutCost must be in 1\.\.=capacity/ });
    assert.throws(() => new api.RetryBudget({ mode: 'grpc', capacity: 5 }), { name: 'TypeError', message: /capacity applies only to mode 'aws_quota'/ });
    assert.throws(() => new api.RetryBudget({ mode: 'token' }), RangeError);
    const budget = new api.RetryBudget();
    assert.throws(() => budget.tryAcquire('slow'), RangeError);
    assert.equal(budget.tokensMilli, 500000);
  });

  test(`${how}: retry() checks its arguments`, async () => {
    await assert.rejects(api.retry('not a function'), { name: 'TypeError', message: /fn must be a function/ });
    await assert.rejects(api.retry(() => 1, { maxRetries: -1 }), { name: 'RangeError', message: /maxRetries/ });
    await assert.rejects(api.retry(() => 1, { onRetry: 5 }), { name: 'TypeError', message: /onRetry/ });
    await assert.rejects(api.retry(() => 1, { signal: {} }), { name: 'TypeError', message: /signal/ });
    await assert.rejects(api.retry(() => 1, { retries: 3 }), { name: 'TypeError', message: /unknown option 'retries'/ });
  });
}
