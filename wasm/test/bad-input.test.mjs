// Bad input: each value is refused with a TypeError or RangeError whose message names the option
// and the allowed range, before it reaches the core; a refused call leaves the object unchanged.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as esm from 'seeded-backoff';

const cjs = createRequire(import.meta.url)('seeded-backoff');

// An independent CRC-32 (SPEC.md §9), to forge snapshots whose checksum is right but whose content
// is not, so that each later check is the one that fails.
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** `bytes` with the u32s at `fields` ({offset: value}) written LE and the CRC re-sealed. */
function forge(bytes, fields = {}) {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (const [offset, value] of Object.entries(fields)) view.setUint32(Number(offset), value, true);
  view.setUint32(36, crc32(out.subarray(0, 36)), true);
  return out;
}

const refusedWith = (Err, message) => (e) => {
  assert.ok(e instanceof Err, `${e}`);
  assert.match(e.message, message);
  return true;
};

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
  test(`${how}: zero options: refused where the range starts above 0, meaningful where 0 is allowed`, () => {
    assert.throws(() => new api.Backoff({ maxBackoffMs: 0 }), refusedWith(RangeError, /^maxBackoffMs .*initialMs\.\.=2147483647, got 0$/));
    assert.throws(() => new api.Backoff({ multiplier: 0 }), refusedWith(RangeError, /^multiplier must be in 1\.\.=1000$/));
    assert.throws(() => new api.Backoff({ initialMs: 0 }), refusedWith(RangeError, /^initialMs .*1\.\.=2147483647, got 0$/));
    const none = new api.Backoff({ maxRetries: 0, seed: 1 });
    assert.equal(none.nextDelay(), null);
    assert.equal(none.giveUpReason, 'max_retries');
    // maxHintMs 0: hints are ignored, the delay is the one without a hint.
    const ignoring = new api.Backoff({ maxHintMs: 0, seed: 1 });
    assert.equal(ignoring.nextDelayWithHint(20000), new api.Backoff({ maxHintMs: 0, seed: 1 }).nextDelay());
    // jitterMs 0: Google's jitter of width 0 is the plain exponential base.
    assert.deepEqual([...new api.Backoff({ jitter: 'google', jitterMs: 0, maxRetries: 5, seed: 1 })], [1000, 2000, 4000, 8000, 16000]);
    // maxElapsedMs 0: no time budget, even for the largest clock.
    const unlimited = new api.Backoff({ maxElapsedMs: 0, seed: 1 });
    assert.notEqual(unlimited.nextDelay({ elapsedMs: 2n ** 64n - 1n }), null);
  });

  test(`${how}: several faults: the first in SPEC §2 order is reported`, () => {
    // Cap below initial, multiplier below 1 and jitterMs above the cap: the cap comes first.
    assert.throws(
      () => new api.Backoff({ initialMs: 1000, maxBackoffMs: 500, multiplier: 0.5, jitterMs: 99999 }),
      refusedWith(RangeError, /^maxBackoffMs must be in initialMs\.\.=2147483647$/),
    );
    assert.throws(() => new api.Backoff({ multiplier: 0.5, jitterMs: 99999 }), refusedWith(RangeError, /^multiplier must be in 1\.\.=1000$/));
    assert.throws(() => new api.Backoff({ maxBackoffMs: 2000, jitterMs: 2001 }), refusedWith(RangeError, /^jitterMs must be in 0\.\.=maxBackoffMs$/));
  });

  test(`${how}: numbers above 2^32-1 are refused, not truncated into range; the largest valid values run in bounds`, () => {
    const wrapped = [
      ['initialMs', 2 ** 32 + 1000, /initialMs .*1\.\.=2147483647, got 4294968296/],
      ['maxBackoffMs', 2 ** 32 + 32000, /maxBackoffMs .*initialMs\.\.=2147483647/],
      ['maxRetries', 2 ** 32 + 3, /maxRetries .*0\.\.=4294967295, got 4294967299/],
      ['maxElapsedMs', 2 ** 32, /maxElapsedMs .*0\.\.=4294967295/],
      ['maxHintMs', 2 ** 32 + 5, /maxHintMs .*0\.\.=2147483647/],
      ['jitterMs', 2 ** 32 + 5, /jitterMs .*0\.\.=maxBackoffMs/],
      ['multiplier', 2 ** 32 + 2, /multiplier .*1\.\.=1000/],
    ];
    for (const [key, v, message] of wrapped) {
      assert.throws(() => new api.Backoff({ [key]: v }), refusedWith(RangeError, message), key);
    }
    assert.throws(() => new api.Backoff({ jitter: 'proportional', spreadPerMille: 2 ** 32 + 200 }), refusedWith(RangeError, /spreadPerMille .*0\.\.=1000/));
    const max = 2 ** 31 - 1;
    const b = new api.Backoff({
      initialMs: max, maxBackoffMs: max, multiplier: 1000, maxRetries: 2 ** 32 - 1,
      jitter: 'google', jitterMs: max, maxHintMs: max, maxElapsedMs: 2 ** 32 - 1, seed: 5,
    });
    const delays = [...b];
    // min(base + jitter, cap) with base = cap; two fit in the u32 time budget, a third would cross it.
    assert.deepEqual(delays, [max, max]);
    assert.equal(b.giveUpReason, 'deadline');
    assert.equal(b.elapsedMs, 2 * max);
  });

  test(`${how}: bad budget parameters name the field; a refused call leaves the budget unchanged`, () => {
    const cases = [
      [{ mode: 'grpc', maxTokens: 1001, tokenRatio: 1 }, /^maxTokens .*1\.\.=1000, got 1001$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: 0 }, /^tokenRatio must be in 0\.001\.\.=maxTokens$/],
      [{ mode: 'grpc', maxTokens: 10, tokenRatio: NaN }, /^tokenRatio .*0\.001\.\.=maxTokens.*got NaN$/],
      [{ capacity: 1000001 }, /^capacity must be in 1\.\.=1000000$/],
      [{ timeoutCost: 0 }, /^retryCost and timeoutCost must be in 1\.\.=capacity$/],
      [{ capacity: 10, retryCost: 11 }, /^retryCost and timeoutCost must be in 1\.\.=capacity$/],
      [{ capacity: 10, noRetryIncrement: 11 }, /^noRetryIncrement must be in 0\.\.=capacity$/],
      [{ capacity: 2 ** 32 + 5 }, /^capacity .*0\.\.=4294967295, got 4294967301$/],
    ];
    for (const [options, message] of cases) {
      assert.throws(() => new api.RetryBudget(options), refusedWith(RangeError, message), JSON.stringify(options));
    }
    assert.throws(() => new api.RetryBudget({ mode: 'grpc', maxTokens: '10', tokenRatio: 1 }), refusedWith(TypeError, /maxTokens/));
    const budget = new api.RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
    budget.recordFailure();
    const tokens = budget.tokensMilli;
    assert.equal(tokens, 9000);
    assert.throws(() => budget.recordFailure('slow'), refusedWith(RangeError, /^kind must be one of 'error', 'timeout'/));
    assert.throws(() => budget.recordSuccess('Timeout'), refusedWith(RangeError, /^retriedKind must be one of/));
    assert.throws(() => budget.tryAcquire(1), refusedWith(TypeError, /^kind must be one of/));
    assert.equal(budget.tokensMilli, tokens);
  });

  test(`${how}: unknown names, including names in the wrong case`, () => {
    for (const [options, message] of [
      [{ jitter: 'Full' }, /^jitter must be one of .*, got "Full"$/],
      [{ jitter: 'GOOGLE' }, /^jitter must be one of/],
      [{ deadline: 'CLAMP' }, /^deadline must be one of 'give_up', 'clamp', got "CLAMP"$/],
      [{ preset: 'Google' }, /^preset must be one of/],
    ]) {
      assert.throws(() => new api.Backoff(options), refusedWith(RangeError, message));
    }
    // Codes are the C API's; here only names are accepted.
    assert.throws(() => new api.Backoff({ deadline: 1 }), refusedWith(TypeError, /^deadline must be one of/));
    assert.throws(() => new api.Backoff({ jitter: 6 }), refusedWith(TypeError, /^jitter must be one of/));
  });

  test(`${how}: retry numbers near 2^32-1 (reached through a forged snapshot): no wrap`, () => {
    const options = { preset: 'google', maxRetries: 2 ** 32 - 1 };
    const fresh = new api.Backoff({ ...options, seed: 11 });
    const b = api.Backoff.restore(options, forge(fresh.snapshot(), { 20: 2 ** 32 - 2, 24: 32000 }));
    assert.equal(b.retries, 2 ** 32 - 2);
    const d = b.nextDelay();
    assert.ok(Number.isInteger(d) && d >= 1 && d <= 32000, `${d}`);
    assert.equal(b.retries, 2 ** 32 - 1);
    assert.equal(b.nextDelay(), null);
    assert.equal(b.giveUpReason, 'max_retries');
    assert.equal(b.retries, 2 ** 32 - 1);
    assert.throws(() => new api.Backoff({ maxRetries: -1 }), refusedWith(RangeError, /maxRetries .*0\.\.=4294967295/));
  });

  test(`${how}: elapsed near 2^64-1 saturates; above it, negative or imprecise is refused`, () => {
    for (const deadline of ['give_up', 'clamp']) {
      const b = new api.Backoff({ seed: 3, maxElapsedMs: 60000, deadline });
      assert.equal(b.nextDelay({ elapsedMs: 2n ** 64n - 1n }), null, deadline);
      assert.equal(b.giveUpReason, 'deadline');
    }
    const b = new api.Backoff({ seed: 3 });
    const d = b.nextDelay({ elapsedMs: 2n ** 64n - 1n });
    assert.ok(d >= 1000 && d <= 2000, `${d}`);
    assert.equal(b.elapsedMs, 2 ** 32 - 1);
    assert.ok(b.nextDelay({ elapsedMs: Number.MAX_SAFE_INTEGER }) > 0);
    assert.equal(b.elapsedMs, 2 ** 32 - 1);
    const before = b.snapshot();
    const any = /^elapsedMs must be an integer in 0\.\.=2\^53-1 \(a number\) or 0n\.\.=2\^64-1 \(a bigint\)/;
    assert.throws(() => b.nextDelay({ elapsedMs: 2n ** 64n }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: -1 }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: -1n }), refusedWith(RangeError, any));
    assert.throws(() => b.nextDelay({ elapsedMs: 2 ** 53 }), refusedWith(RangeError, /^elapsedMs must be a bigint when above 2\^53-1/));
    assert.throws(() => b.nextDelay({ elapsedMs: '5' }), refusedWith(TypeError, any));
    assert.deepEqual(b.snapshot(), before);
  });

  test(`${how}: huge hints are clamped to maxHintMs (0: ignored)`, () => {
    assert.equal(new api.Backoff({ seed: 1 }).nextDelayWithHint(2 ** 32 - 1), 32000);
    assert.equal(new api.Backoff({ seed: 1, maxHintMs: 90000 }).nextDelay({ retryAfterMs: 2 ** 32 - 1 }), 90000);
    assert.equal(new api.Backoff({ seed: 1, maxHintMs: 0 }).nextDelayWithHint(2 ** 32 - 1), new api.Backoff({ seed: 1 }).nextDelay());
    assert.throws(() => new api.Backoff().nextDelayWithHint(2 ** 32), refusedWith(RangeError, /^retryAfterMs must be an integer in 0\.\.=4294967295/));
  });

  test(`${how}: truncated, extended and bit-flipped snapshots are refused with the failing check`, () => {
    const options = { preset: 'google' };
    const live = new api.Backoff({ ...options, seed: 99 });
    live.nextDelay();
    const snap = live.snapshot();
    const before = live.snapshot();
    const extended = new Uint8Array(41);
    extended.set(snap);
    for (const bytes of [new Uint8Array(0), snap.slice(0, 1), snap.slice(0, 20), snap.slice(0, 39), extended]) {
      assert.throws(() => api.Backoff.restore(options, bytes), { name: 'RangeError', code: 'wrong_length', message: /40/ }, `${bytes.length} bytes`);
    }
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const bad = snap.slice();
        bad[i] ^= 1 << bit;
        assert.throws(() => api.Backoff.restore(options, bad), (e) => {
          assert.ok(e instanceof RangeError);
          assert.equal(e.code, i === 0 ? 'unknown_version' : 'bad_checksum', `byte ${i} bit ${bit}`);
          return true;
        });
        refused++;
      }
    }
    assert.equal(refused, 320);
    for (const bytes of [Array.from(snap), snap.buffer, 'x'.repeat(40), null]) {
      assert.throws(() => api.Backoff.restore(options, bytes), refusedWith(TypeError, /^bytes must be a Uint8Array/));
    }
    assert.deepEqual(live.snapshot(), before);
  });

  test(`${how}: foreign and forged snapshots are refused with the core's reason`, () => {
    const options = { preset: 'google' };
    const snap = new api.Backoff({ ...options, seed: 8 }).snapshot();
    const refused = (bytes, code, message) =>
      assert.throws(() => api.Backoff.restore(options, bytes), (e) => {
        assert.ok(e instanceof RangeError, `${e}`);
        assert.equal(e.code, code);
        assert.match(e.message, message);
        return true;
      });
    refused(new Uint8Array(40), 'unknown_version', /version/);
    refused(new Uint8Array(40).fill(0xff), 'unknown_version', /version/);
    const v2 = snap.slice();
    v2[0] = 2;
    refused(forge(v2), 'unknown_version', /version must be 1/);
    assert.throws(() => api.Backoff.restore({ preset: 'google_64s' }, snap), { name: 'RangeError', code: 'policy_mismatch' });
    assert.throws(() => api.Backoff.restore({ preset: 'google', maxRetries: 11 }, snap), { code: 'policy_mismatch' });
    refused(forge(snap, { 4: 0, 8: 0, 12: 0, 16: 0 }), 'zero_rng_state', /./);
    // Zero rng words are reported before a reserved-byte fault (SPEC §9 order).
    const both = snap.slice();
    both[2] = 1;
    refused(forge(both, { 4: 0, 8: 0, 12: 0, 16: 0 }), 'zero_rng_state', /./);
    const reserved = snap.slice();
    reserved[2] = 1;
    refused(forge(reserved), 'invalid_state', /./);
    const code5 = snap.slice();
    code5[1] = 5;
    refused(forge(code5), 'invalid_state', /./);
    refused(forge(snap, { 20: 11 }), 'invalid_state', /./);
    refused(forge(snap, { 24: 999 }), 'invalid_state', /./);
    refused(forge(snap, { 24: 32001 }), 'invalid_state', /./);
    // The largest reachable values restore and run.
    const edge = api.Backoff.restore(options, forge(snap, { 20: 10, 24: 32000 }));
    assert.equal(edge.retries, 10);
    assert.equal(edge.nextDelay(), null);
    assert.equal(edge.giveUpReason, 'max_retries');
  });

  test(`${how}: out-of-range status and gRPC codes are 'invalid'; non-integers are refused`, () => {
    for (const s of [0, 99, 600, 2 ** 32 - 1, 2 ** 32, -1]) assert.equal(api.classifyStatus(s), 'invalid', `${s}`);
    for (const c of [17, 2 ** 32 - 1, -1]) assert.equal(api.classifyGrpcCode(c), 'invalid', `${c}`);
    assert.equal(api.isRetryableStatus(2 ** 32 + 503), false);
    assert.throws(() => api.classifyGrpcCode(14.5), refusedWith(RangeError, /^code must be an integer/));
    assert.throws(() => api.classifyGrpcCode('14'), refusedWith(TypeError, /^code must be an integer/));
    assert.throws(() => api.classifyStatus(NaN), refusedWith(RangeError, /^status must be an integer in 100\.\.=599/));
    assert.throws(() => api.classifyStatus(null), refusedWith(TypeError, /^status must be an integer/));
  });

  test(`${how}: a given-up Backoff answers every call with its reason and changes nothing`, () => {
    const b = new api.Backoff({ preset: 'google', maxRetries: 1, seed: 9 });
    assert.notEqual(b.nextDelay(), null);
    assert.equal(b.nextDelay(), null);
    const given = b.snapshot();
    const budget = new api.RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
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
      assert.deepEqual(b.snapshot(), given);
    }
    assert.equal(budget.tokensMilli, 10000);
    // The give-up itself consumes no draw: after reset the schedule is a twin's.
    const x = new api.Backoff({ seed: 4 });
    const y = new api.Backoff({ seed: 4 });
    assert.equal(x.nextDelay({ doNotRetry: true }), null);
    x.reset();
    assert.equal(x.nextDelay(), y.nextDelay());
  });
}
