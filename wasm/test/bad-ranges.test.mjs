// Values at and past the edges of each range: zeros, several faults at once, numbers above 2^32-1
// (refused, not truncated), names in the wrong case, clocks near 2^64-1, huge hints, status codes
// out of range, budget parameters; and a given-up Backoff that changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

const refusedWith = (Err, message) => (e) => {
  assert.ok(e instanceof Err, `${e}`);
  assert.match(e.message, message);
  return true;
};

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, Policy, RetryBudget, snapshot } = api;

  test(`${how}: no NaN, no negative delay, null at give-up`, () => {
    for (const preset of ['google', 'google_64s', 'aws_standard', 'grpc', 'mobile']) {
      const b = new Backoff({ preset });
      const all = [...b];
      assert.ok(all.length > 0);
      for (const d of all) assert.ok(Number.isInteger(d) && d >= 0, `${preset}: ${d}`);
      assert.equal(b.nextDelay(), null);
      assert.equal(b.giveUpReason, 'max_retries');
    }
  });

  test(`${how}: zero options: refused where the range starts above 0, meaningful where 0 is allowed`, () => {
    assert.throws(() => new Backoff({ maxBackoffMs: 0 }), refusedWith(RangeError, /^maxBackoffMs must be in initialMs\.\.=2147483647, got 0$/));
    assert.throws(() => new Backoff({ multiplier: 0 }), refusedWith(RangeError, /^multiplier must be a number in 1\.\.=1000 with at most 3 decimals, got 0$/));
    assert.throws(() => new Policy({ initialMs: 0 }), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got 0$/));
    assert.throws(() => new Policy({ initialMs: -0 }), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got 0$/));
    const none = new Backoff({ maxRetries: 0, seed: 1 });
    assert.equal(none.nextDelay(), null);
    assert.equal(none.giveUpReason, 'max_retries');
    // maxHintMs 0: only a zero hint is taken; any longer server wait gives up (SPEC §5 step 4).
    assert.equal(new Backoff({ maxHintMs: 0, seed: 1 }).nextDelayWithHint(0), new Backoff({ maxHintMs: 0, seed: 1 }).nextDelay());
    const refusing = new Backoff({ maxHintMs: 0, seed: 1 });
    assert.equal(refusing.nextDelayWithHint(20000), null);
    assert.equal(refusing.giveUpReason, 'hint_exceeds_max');
    // jitterMs 0: Google's jitter of width 0 is the plain exponential base.
    assert.deepEqual([...new Backoff({ jitter: 'google', jitterMs: 0, maxRetries: 5, seed: 1 })], [1000, 2000, 4000, 8000, 16000]);
    // maxElapsedMs 0: no time budget, even for the largest clock.
    const unlimited = new Backoff({ maxElapsedMs: 0, seed: 1 });
    assert.notEqual(unlimited.nextDelay({ elapsedMs: 2n ** 64n - 1n }), null);
  });

  test(`${how}: several faults: the first in SPEC §2 order is reported`, () => {
    // Cap below initial, multiplier below 1 and jitterMs above the cap: the cap comes first.
    assert.throws(
      () => new Policy({ initialMs: 1000, maxBackoffMs: 500, multiplier: 0.5, jitterMs: 99999 }),
      refusedWith(RangeError, /^maxBackoffMs must be in initialMs\.\.=2147483647, got 500$/),
    );
    assert.throws(() => new Policy({ multiplier: 0.5, jitterMs: 99999 }), refusedWith(RangeError, /^multiplier must be a number in 1\.\.=1000 with at most 3 decimals, got 0\.5$/));
    assert.throws(() => new Policy({ maxBackoffMs: 2000, jitterMs: 2001 }), refusedWith(RangeError, /^jitterMs must be in 0\.\.=maxBackoffMs, got 2001$/));
    // A type fault is reported before any range fault, whatever the order of the keys.
    assert.throws(() => new Policy({ initialMs: 0, jitter: 5 }), refusedWith(TypeError, /^jitter must be one of/));
  });

  test(`${how}: numbers above 2^32-1 are refused, not truncated into range; the largest valid values run in bounds`, () => {
    const wrapped = [
      ['initialMs', 2 ** 32 + 1000, /^initialMs must be in 1\.\.=2147483647, got 4294968296$/],
      ['maxBackoffMs', 2 ** 32 + 32000, /^maxBackoffMs must be in initialMs\.\.=2147483647, got 4294999296$/],
      ['maxRetries', 2 ** 32 + 3, /^maxRetries must be in 0\.\.=4294967295, got 4294967299$/],
      ['maxElapsedMs', 2 ** 32, /^maxElapsedMs must be in 0\.\.=4294967295, got 4294967296$/],
      ['maxHintMs', 2 ** 32 + 5, /^maxHintMs must be in 0\.\.=2147483647, got 4294967301$/],
      ['jitterMs', 2 ** 32 + 5, /^jitterMs must be in 0\.\.=maxBackoffMs, got 4294967301$/],
      ['multiplier', 2 ** 32 + 2, /^multiplier must be a number in 1\.\.=1000 with at most 3 decimals, got 4294967298$/],
    ];
    for (const [key, v, message] of wrapped) {
      assert.throws(() => new Backoff({ [key]: v }), refusedWith(RangeError, message), key);
    }
    assert.throws(() => new Backoff({ jitter: 'proportional', spreadPerMille: 2 ** 32 + 200 }), refusedWith(RangeError, /^spreadPerMille must be in 0\.\.=1000, got 4294967496$/));
    const max = 2 ** 31 - 1;
    const b = new Backoff({
      initialMs: max, maxBackoffMs: max, multiplier: 1000, maxRetries: 2 ** 32 - 1,
      jitter: 'google', jitterMs: max, maxHintMs: max, maxElapsedMs: 2 ** 32 - 1, seed: 5,
    });
    const delays = [...b];
    // min(base + jitter, cap) with base = cap; two fit in the u32 time budget, a third would cross it.
    assert.deepEqual(delays, [max, max]);
    assert.equal(b.giveUpReason, 'deadline');
    assert.equal(b.elapsedMs, 2 * max);
  });

  test(`${how}: unknown names, including names in the wrong case`, () => {
    for (const [options, message] of [
      [{ jitter: 'Full' }, /^jitter must be one of .*, got "Full" \(did you mean 'full'\?\)$/],
      [{ jitter: 'GOOGLE' }, /^jitter must be one of/],
      [{ deadline: 'CLAMP' }, /^deadline must be one of 'give_up', 'clamp', got "CLAMP" \(did you mean 'clamp'\?\)$/],
      [{ preset: 'Google' }, /^preset must be one of/],
    ]) {
      assert.throws(() => new Backoff(options), refusedWith(RangeError, message));
    }
    // Codes are the C API's; here only names are accepted.
    assert.throws(() => new Backoff({ deadline: 1 }), refusedWith(TypeError, /^deadline must be one of/));
    assert.throws(() => new Backoff({ jitter: 6 }), refusedWith(TypeError, /^jitter must be one of/));
    assert.throws(() => new Backoff({ MaxRetries: 3 }), refusedWith(TypeError, /^unknown option "MaxRetries" in Backoff options \(did you mean 'maxRetries'\?\); known: .*maxRetries.*, seed$/));
  });

  test(`${how}: elapsed near 2^64-1 saturates; above it, negative or imprecise is refused`, () => {
    for (const deadline of ['give_up', 'clamp']) {
      const b = new Backoff({ seed: 3, maxElapsedMs: 60000, deadline });
      assert.equal(b.nextDelay({ elapsedMs: 2n ** 64n - 1n }), null, deadline);
      assert.equal(b.giveUpReason, 'deadline');
    }
    const b = new Backoff({ seed: 3 });
    const d = b.nextDelay({ elapsedMs: 2n ** 64n - 1n });
    assert.ok(d >= 1000 && d <= 2000, `${d}`);
    assert.equal(b.elapsedMs, 2 ** 32 - 1);
    assert.ok(b.nextDelay({ elapsedMs: Number.MAX_SAFE_INTEGER }) > 0);
    assert.equal(b.elapsedMs, 2 ** 32 - 1);
    const before = snapshot(b);
    const any = /^elapsedMs must be an integer in 0\.\.=2\^53-1 \(a number\) or 0n\.\.=2\^64-1 \(a bigint\)/;
    assert.throws(() => b.nextDelay({ elapsedMs: 2n ** 64n }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: -1 }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: -1n }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: 2 ** 53 }), refusedWith(RangeError, /^elapsedMs must be a bigint when above 2\^53-1/));
    assert.throws(() => b.nextDelay({ elapsedMs: '5' }), refusedWith(TypeError, any));
    assert.deepEqual(snapshot(b), before);
  });

  test(`${how}: a hint beyond maxHintMs gives up, never back before the server allows (SPEC §5 step 4)`, () => {
    const huge = new Backoff({ seed: 1 });
    assert.equal(huge.nextDelayWithHint(2 ** 32 - 1), null);
    assert.equal(huge.giveUpReason, 'hint_exceeds_max');
    // The default limit is 300000 ms whatever the cap; at the limit the hint is honoured.
    assert.equal(new Backoff({ seed: 1 }).nextDelayWithHint(300000), 300000);
    assert.equal(new Backoff({ seed: 1, maxBackoffMs: 1000 }).nextDelayWithHint(2000), 2000);
    assert.equal(new Backoff({ seed: 1, maxHintMs: 90000 }).nextDelay({ retryAfterMs: 90000 }), 90000);
    assert.equal(new Backoff({ seed: 1, maxHintMs: 90000 }).nextDelay({ retryAfterMs: 90001 }), null);
    assert.throws(() => new Backoff().nextDelayWithHint(2 ** 32), refusedWith(RangeError, /^retryAfterMs must be an integer in 0\.\.=4294967295, got 4294967296$/));
  });

  test(`${how}: out-of-range status and gRPC codes are 'invalid'; non-integers are refused`, () => {
    for (const s of [0, 99, 600, 2 ** 32 - 1, 2 ** 32, -1]) assert.equal(api.classifyHttp(s), 'invalid', `${s}`);
    for (const c of [17, 2 ** 32 - 1, -1]) assert.equal(api.classifyGrpc(c), 'invalid', `${c}`);
    assert.equal(api.isRetryableHttp(2 ** 32 + 503), false);
    assert.equal(api.isRetryableHttp(-503), false);
    assert.equal(api.classifyHttp(2 ** 40), 'invalid');
    assert.throws(() => api.classifyGrpc(14.5), refusedWith(RangeError, /^code must be an integer, got 14\.5$/));
    assert.throws(() => api.classifyGrpc('14'), refusedWith(TypeError, /^code must be an integer, got "14"$/));
    assert.throws(() => api.classifyHttp(NaN), refusedWith(RangeError, /^status must be an integer, got NaN$/));
    assert.throws(() => api.classifyHttp(null), refusedWith(TypeError, /^status must be an integer, got null$/));
    assert.throws(() => api.isRetryableHttp('503'), refusedWith(TypeError, /^status must be an integer, got "503"$/));
    assert.throws(() => api.isRetryableHttp(503.5), RangeError);
  });

  test(`${how}: parseRetryAfter refuses what is not a header value or a time`, () => {
    assert.throws(() => api.parseRetryAfter(120), { name: 'TypeError', message: /^Retry-After value must be a string or a Uint8Array, got 120$/ });
    assert.throws(() => api.parseRetryAfter('120', -1), { name: 'RangeError', message: /^nowMs must be an integer in 0\.\.=9007199254740991, got -1$/ });
    assert.throws(() => api.parseRetryAfter('120', NaN), RangeError);
    assert.throws(() => api.parseRetryAfter('120', '5'), TypeError);
    assert.throws(() => api.parseRetryAfter('soon', 0), { name: 'SyntaxError', code: 'invalid_format' });
    assert.throws(() => api.parseRetryAfter('', 0), { name: 'SyntaxError', code: 'empty' });
    assert.throws(() => api.parseRetryAfter(new Uint8Array(0), 0), { name: 'SyntaxError', code: 'empty' });
  });

  test(`${how}: bad budget parameters name the field; a refused call leaves the budget unchanged`, () => {
    const cases = [
      [{ mode: 'grpc', maxTokens: 1001, tokenRatio: 1 }, /^maxTokens must be in 1\.\.=1000, got 1001$/],
      [{ mode: 'grpc', maxTokens: 0, tokenRatio: 1 }, /^maxTokens must be in 1\.\.=1000, got 0$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: 0 }, /^tokenRatio must be in 0\.001\.\.=maxTokens, got 0$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: 10.5 }, /^tokenRatio must be in 0\.001\.\.=maxTokens, got 10\.5$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: NaN }, /^tokenRatio must be in 0\.001\.\.=maxTokens, got NaN$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: 0.0001 }, /^tokenRatio must be in 0\.001\.\.=maxTokens, got 0\.0001$/],
      [{ capacity: 0 }, /^capacity must be in 1\.\.=1000000, got 0$/],
      [{ capacity: 1000001 }, /^capacity must be in 1\.\.=1000000, got 1000001$/],
      // The costs share a rule: both values, the default retry cost (5) among them.
      [{ timeoutCost: 0 }, /^retryCost and timeoutCost must be in 1\.\.=capacity, got 5 and 0$/],
      [{ retryCost: 501 }, /^retryCost and timeoutCost must be in 1\.\.=capacity, got 501 and 10$/],
      [{ capacity: 10, retryCost: 11 }, /^retryCost and timeoutCost must be in 1\.\.=capacity, got 11 and 10$/],
      [{ capacity: 10, noRetryIncrement: 11 }, /^noRetryIncrement must be in 0\.\.=capacity, got 11$/],
      [{ mode: 'token' }, /^mode must be one of 'aws_quota', 'grpc', got "token"$/],
    ];
    for (const [options, message] of cases) {
      assert.throws(() => new RetryBudget(options), refusedWith(RangeError, message), JSON.stringify(options));
    }
    assert.throws(() => new RetryBudget({ mode: 'grpc', maxTokens: '10', tokenRatio: 1 }), refusedWith(TypeError, /^maxTokens must be a number in 1\.\.=1000, got "10"$/));
    assert.throws(() => new RetryBudget({ mode: 'grpc', capacity: 5 }), refusedWith(TypeError, /^capacity applies only to mode 'aws_quota'$/));
    assert.throws(() => new RetryBudget({ maxTokens: 5 }), refusedWith(TypeError, /^maxTokens applies only to mode 'grpc'$/));
    assert.throws(() => new RetryBudget({ mode: 'grpc' }), refusedWith(TypeError, /^mode grpc needs maxTokens and tokenRatio$/));
    assert.throws(() => new RetryBudget({ mode: 'grpc', maxTokens: 5 }), refusedWith(TypeError, /^mode grpc needs maxTokens and tokenRatio$/));
    assert.throws(() => new RetryBudget({ bucket: 5 }), refusedWith(TypeError, /^unknown option "bucket" in RetryBudget options/));
    const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
    budget.recordFailure();
    const tokens = budget.tokensMilli;
    assert.equal(tokens, 9000);
    assert.throws(() => budget.recordFailure('slow'), refusedWith(RangeError, /kind must be one of 'error', 'timeout', got "slow"$/));
    assert.throws(() => budget.recordSuccess('Timeout'), refusedWith(RangeError, /^retriedKind must be one of 'error', 'timeout', got "Timeout" \(did you mean 'timeout'\?\)$/));
    assert.throws(() => budget.tryAcquire(1), refusedWith(TypeError, /^kind must be one of/));
    assert.equal(budget.tokensMilli, tokens);
    assert.equal(new RetryBudget().tokensMilli, 500000);
  });

  test(`${how}: retry() checks its arguments before calling fn`, async () => {
    let called = 0;
    const fn = () => { called++; };
    await assert.rejects(api.retry('not a function'), { name: 'TypeError', message: /^fn must be a function, got "not a function"$/ });
    await assert.rejects(api.retry(fn, { maxRetries: -1 }), { name: 'RangeError', message: /^maxRetries must be in 0\.\.=4294967295, got -1$/ });
    await assert.rejects(api.retry(fn, { onRetry: 5 }), { name: 'TypeError', message: /^onRetry must be a function, got 5$/ });
    await assert.rejects(api.retry(fn, { signal: {} }), { name: 'TypeError', message: /^signal must be an AbortSignal, got an object$/ });
    await assert.rejects(api.retry(fn, { retries: 3 }), { name: 'TypeError', message: /^unknown option "retries" in retry options \(did you mean 'maxRetries'\?\)/ });
    await assert.rejects(api.retry(fn, null), { name: 'TypeError', message: /^retry options must be an object, got null$/ });
    await assert.rejects(api.retry(fn, { seed: -1 }), { name: 'RangeError', message: /^seed must be/ });
    await assert.rejects(api.fetchWithBackoff('http://127.0.0.1:9/', {}, { maxRetries: 'x' }), { name: 'TypeError', message: /^maxRetries must be/ });
    assert.equal(called, 0);
  });

  test(`${how}: a given-up Backoff answers every call with its reason and changes nothing`, () => {
    const b = new Backoff({ preset: 'google', maxRetries: 1, seed: 9 });
    assert.notEqual(b.nextDelay(), null);
    assert.equal(b.nextDelay(), null);
    const given = snapshot(b);
    const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
    for (const call of [
      () => b.nextDelay(),
      () => b.nextDelayWithHint(5),
      () => b.nextDelay({ elapsedMs: 100 }),
      () => b.nextDelay({ doNotRetry: true }),
      () => b.nextDelay({ budget }),
      () => b.nextDelay({ budget, failureKind: 'timeout' }),
    ]) {
      assert.equal(call(), null);
      assert.equal(b.giveUpReason, 'max_retries');
      assert.deepEqual(snapshot(b), given);
    }
    assert.equal(budget.tokensMilli, 10000);
    // The give-up itself consumes no draw: after reset the schedule is a twin's.
    const x = new Backoff({ seed: 4 });
    const y = new Backoff({ seed: 4 });
    assert.equal(x.nextDelay({ doNotRetry: true }), null);
    x.reset();
    assert.equal(x.nextDelay(), y.nextDelay());
  });
}
