// Bad input: every option value is refused with a TypeError or RangeError whose message names the
// option and the allowed range, and shows the value without running any of its code (no toString,
// no proxy trap); a refused call leaves every object unchanged; what does not fit the buffers is a
// RangeError, never a wasm trap; a RetryError describes what was thrown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

const refusedWith = (Err, message) => (e) => {
  assert.ok(e instanceof Err, `${e}`);
  assert.match(e.message, message);
  return true;
};
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The option names and what each accepts, from JS-API.md and SPEC.md §2.
const POLICY_KEYS = ['preset', 'initialMs', 'multiplier', 'maxBackoffMs', 'maxRetries', 'jitter', 'jitterMs',
  'spreadPerMille', 'maxHintMs', 'maxElapsedMs', 'deadline', 'paced'];

// [options, error class, the whole message]
const BAD_OPTIONS = [
  [{ initialMs: NaN }, RangeError, 'initialMs must be in 1..=2147483647, got NaN'],
  [{ initialMs: Infinity }, RangeError, 'initialMs must be in 1..=2147483647, got Infinity'],
  [{ initialMs: -Infinity }, RangeError, 'initialMs must be in 1..=2147483647, got -Infinity'],
  [{ initialMs: -1 }, RangeError, 'initialMs must be in 1..=2147483647, got -1'],
  [{ initialMs: 0 }, RangeError, 'initialMs must be in 1..=2147483647, got 0'],
  [{ initialMs: 1.5 }, RangeError, 'initialMs must be in 1..=2147483647, got 1.5'],
  [{ initialMs: '1000' }, TypeError, 'initialMs must be a number in 1..=2147483647, got "1000"'],
  [{ initialMs: null }, TypeError, 'initialMs must be a number in 1..=2147483647, got null'],
  [{ initialMs: 1000n }, TypeError, 'initialMs must be a number in 1..=2147483647, got 1000n'],
  [{ initialMs: 2 ** 31 }, RangeError, 'initialMs must be in 1..=2147483647, got 2147483648'],
  [{ initialMs: 'x'.repeat(100) }, TypeError, `initialMs must be a number in 1..=2147483647, got "${'x'.repeat(40)}…"`],
  [{ maxBackoffMs: 500 }, RangeError, 'maxBackoffMs must be in initialMs..=2147483647, got 500'],
  [{ maxBackoffMs: -5 }, RangeError, 'maxBackoffMs must be in initialMs..=2147483647, got -5'],
  [{ maxRetries: -1 }, RangeError, 'maxRetries must be in 0..=4294967295, got -1'],
  [{ maxRetries: 2 ** 32 }, RangeError, 'maxRetries must be in 0..=4294967295, got 4294967296'],
  [{ maxRetries: 3.2 }, RangeError, 'maxRetries must be in 0..=4294967295, got 3.2'],
  [{ maxRetries: true }, TypeError, 'maxRetries must be a number in 0..=4294967295, got true'],
  [{ multiplier: 0.5 }, RangeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got 0.5'],
  [{ multiplier: 1001 }, RangeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got 1001'],
  [{ multiplier: 1.0005 }, RangeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got 1.0005'],
  [{ multiplier: NaN }, RangeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got NaN'],
  [{ multiplier: -2 }, RangeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got -2'],
  [{ multiplier: '2' }, TypeError, 'multiplier must be a number in 1..=1000 with at most 3 decimals, got "2"'],
  [{ jitter: 'fulll' }, RangeError, `jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got "fulll" (did you mean 'full'?)`],
  [{ jitter: 2 }, TypeError, `jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got 2`],
  [{ jitter: null }, TypeError, `jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got null`],
  [{ jitterMs: 40000 }, RangeError, 'jitterMs must be in 0..=maxBackoffMs, got 40000'],
  [{ jitter: 'full', jitterMs: 5 }, RangeError, `jitterMs applies only to jitter 'google', got 5`],
  [{ spreadPerMille: 5 }, RangeError, `spreadPerMille applies only to jitter 'proportional', got 5`],
  [{ jitter: 'proportional', spreadPerMille: 1001 }, RangeError, 'spreadPerMille must be in 0..=1000, got 1001'],
  [{ maxHintMs: 2 ** 31 }, RangeError, 'maxHintMs must be in 0..=2147483647, got 2147483648'],
  [{ maxElapsedMs: -1 }, RangeError, 'maxElapsedMs must be in 0..=4294967295, got -1'],
  [{ deadline: 'later' }, RangeError, `deadline must be one of 'give_up', 'clamp', got "later"`],
  [{ preset: 'gogle' }, RangeError, `preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile', got "gogle" (did you mean 'google'?)`],
  [{ preset: 'googel' }, RangeError, `preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile', got "googel" (did you mean 'google'?)`],
  [{ preset: 'aws-standard' }, RangeError, `preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile', got "aws-standard" (did you mean 'aws_standard'?)`],
  [{ maxRetries: '5' }, TypeError, 'maxRetries must be a number in 0..=4294967295, got "5"'],
  [{ maxRetry: 3 }, TypeError, `unknown option "maxRetry" in Policy options (did you mean 'maxRetries'?); known: ${POLICY_KEYS.join(', ')}`],
  [{ retries: 3 }, TypeError, `unknown option "retries" in Policy options (did you mean 'maxRetries'?); known: ${POLICY_KEYS.join(', ')}`],
  [{ timeout: 3 }, TypeError, `unknown option "timeout" in Policy options (a typo?); known: ${POLICY_KEYS.join(', ')}`],
];
const SEED_RULE = 'seed must be an integer in 0..=2^53-1 (a number) or 0n..=2^64-1 (a bigint), got';
const BAD_SEEDS = [
  [-1, RangeError, `${SEED_RULE} -1`],
  [1.5, RangeError, `${SEED_RULE} 1.5`],
  [NaN, RangeError, `${SEED_RULE} NaN`],
  [2 ** 53, RangeError, 'seed must be a bigint when above 2^53-1 (as a number it has lost precision), got 9007199254740992'],
  [2n ** 64n, RangeError, `${SEED_RULE} 18446744073709551616n`],
  [-1n, RangeError, `${SEED_RULE} -1n`],
  ['42', TypeError, `${SEED_RULE} "42"`],
  [null, TypeError, `${SEED_RULE} null`],
];

/**
 * Values with no primitive form, or whose every use runs code: each comes with how a message shows
 * it, and `calls` records any of its code that ran (there must be none).
 */
function exotic() {
  const calls = [];
  const spy = (name) => () => {
    calls.push(name);
    throw new Error(`${name} ran`);
  };
  const trapAll = new Proxy({}, Object.fromEntries(
    ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty', 'set']
      .map((t) => [t, spy(`proxy ${t}`)]),
  ));
  const values = [
    [Object.create(null), 'an object'],
    [{ toString: spy('toString'), valueOf: spy('valueOf'), [Symbol.toPrimitive]: spy('toPrimitive') }, 'an object'],
    [Symbol('s'), 'a symbol'],
    [new Map([['initialMs', 5]]), 'an object'],
    [new Set([1]), 'an object'],
    [[5], 'an array'],
    [Object.assign(() => 5, { toString: spy('fn toString') }), 'a function'],
    [new Number(5), 'an object'],
    [new String('google'), 'an object'],
    [{}, 'an object'],
  ];
  return { calls, values, proxy: [trapAll, 'an object'] };
}

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, Policy, RetryBudget, snapshot } = api;

  test(`${how}: bad Policy and Backoff options are refused with the option and its range`, () => {
    for (const [options, Err, message] of BAD_OPTIONS) {
      const whole = new RegExp(`^${escape(message)}$`);
      assert.throws(() => new Policy(options), refusedWith(Err, whole), message);
      const sugar = new RegExp(`^${escape(message.replace('in Policy options', 'in Backoff options'))}`);
      assert.throws(() => new Backoff(options), refusedWith(Err, sugar), message);
    }
    for (const [seed, Err, message] of BAD_SEEDS) {
      const whole = new RegExp(`^${escape(message)}$`);
      assert.throws(() => new Backoff({ seed }), refusedWith(Err, whole), message);
      assert.throws(() => new Backoff(new Policy(), seed), refusedWith(Err, whole), message);
    }
  });

  test(`${how}: every option refuses values with no primitive form, naming it, running none of their code`, () => {
    const { calls, values, proxy } = exotic();
    for (const key of [...POLICY_KEYS, 'seed']) {
      for (const [v, shown] of [...values, proxy]) {
        const message = new RegExp(`^${key} must be .+, got ${escape(shown)}$`);
        if (key !== 'seed') assert.throws(() => new Policy({ [key]: v }), refusedWith(TypeError, message), `${key}: ${shown}`);
        assert.throws(() => new Backoff({ [key]: v }), refusedWith(TypeError, message), `${key}: ${shown}`);
        if (key === 'seed') assert.throws(() => new Backoff(new Policy(), v), refusedWith(TypeError, message));
      }
    }
    assert.deepEqual(calls, []);
  });

  test(`${how}: options that are not a plain object: TypeError, or read as one when they are`, () => {
    const { calls, values, proxy } = exotic();
    for (const [v, shown] of [[null, 'null'], ['google', '"google"'], [5, '5'], [Symbol('o'), 'a symbol'],
      [new Map(), 'an object'], [new Set(), 'an object'], [[], 'an array'], [() => ({}), 'a function']]) {
      assert.throws(() => new Policy(v), refusedWith(TypeError, new RegExp(`^Policy options must be an object, got ${escape(shown)}$`)));
      assert.throws(() => new Backoff(v), refusedWith(TypeError, new RegExp(`^Backoff options must be an object, got ${escape(shown)}$`)));
      assert.throws(() => new RetryBudget(v), refusedWith(TypeError, /^RetryBudget options must be an object/));
    }
    // No prototype: the defaults (Google's), or the values given.
    const bare = Object.assign(Object.create(null), { jitter: 'none', maxRetries: 4, seed: 1 });
    assert.deepEqual([...new Backoff(bare)], [1000, 2000, 4000, 8000]);
    assert.equal([...new Backoff(Object.create(null))].length, 10);
    // Own keys such as toString are options, unknown ones.
    assert.throws(() => new Policy(values[1][0]), refusedWith(TypeError, /^unknown option "toString" in Policy options/));
    // A proxy whose traps throw runs them when used as options: a TypeError that names the options
    // and carries the trap's error.
    assert.throws(() => new Policy(proxy[0]), refusedWith(TypeError, /^Policy options could not be read: proxy (get|ownKeys) ran/));
    assert.ok(calls.length > 0);
  });

  test(`${how}: proxies as options: bad values name the option; each option is read once`, () => {
    const bad = new Proxy({ initialMs: 100 }, { get: (t, k) => (k === 'initialMs' ? -1 : t[k]) });
    assert.throws(() => new Policy(bad), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got -1$/));
    assert.throws(() => new Backoff(bad), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got -1$/));
    const everything = new Proxy({}, { get: () => Object.create(null) });
    assert.throws(() => new Policy(everything), refusedWith(TypeError, new RegExp(`^(${POLICY_KEYS.join('|')}) must be .*, got an object$`)));
    const hidden = new Proxy({}, { ownKeys: () => ['maxRetry'], getOwnPropertyDescriptor: () => ({ value: 3, enumerable: true, configurable: true }) });
    assert.throws(() => new Policy(hidden), refusedWith(TypeError, /^unknown option "maxRetry" in Policy options/));
    // A value that changes between reads cannot pass the check as one value and be used as another.
    for (const [target, make] of [
      [{ initialMs: 0, jitter: 'none', maxRetries: 3 }, (o) => new Backoff(new Policy(o), 1)],
      [{ initialMs: 0, jitter: 'none', maxRetries: 3, seed: 1 }, (o) => new Backoff(o)],
    ]) {
      const reads = {};
      let first = true;
      const fickle = new Proxy(target, {
        get(t, k) {
          if (typeof k === 'string') reads[k] = (reads[k] ?? 0) + 1;
          if (k !== 'initialMs') return t[k];
          const v = first ? 100 : 0;
          first = false;
          return v;
        },
      });
      const b = make(fickle);
      assert.deepEqual([...b], [100, 200, 400]);
      assert.equal(reads.initialMs, 1);
      for (const [k, n] of Object.entries(reads)) assert.ok(n <= 2, `${k} read ${n} times`);
    }
  });

  test(`${how}: a revoked proxy as options or as a value is a TypeError`, () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    assert.throws(() => new Policy(revoked), TypeError);
    assert.throws(() => new Backoff(revoked), TypeError);
    assert.throws(() => new RetryBudget(revoked), TypeError);
    assert.throws(() => new Policy({ initialMs: revoked }), TypeError);
    assert.throws(() => new Backoff({ seed: revoked }), TypeError);
    assert.throws(() => new Backoff({ seed: 1 }).nextDelay(revoked), TypeError);
    assert.throws(() => new Backoff({ seed: 1 }).nextDelay({ retryAfterMs: revoked }), TypeError);
    assert.throws(() => snapshot(revoked), TypeError);
    assert.throws(() => api.restore({}, revoked), TypeError);
  });

  test(`${how}: inherited options are read like own ones`, () => {
    assert.throws(() => new Policy(Object.create({ initialMs: -1 })), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got -1$/));
    assert.throws(() => new Backoff(Object.create({ initialMs: -1 })), refusedWith(RangeError, /^initialMs must be in 1\.\.=2147483647, got -1$/));
    assert.throws(() => new Backoff(Object.create({ seed: -1 })), refusedWith(RangeError, /^seed must be/));
    assert.throws(() => new RetryBudget(Object.create({ capacity: 0 })), refusedWith(RangeError, /^capacity must be in 1\.\.=1000000/));
    const inherited = Object.create({ initialMs: 100, maxBackoffMs: 1000, jitter: 'none', maxRetries: 5 });
    assert.deepEqual([...new Backoff(new Policy(inherited), 1)], [100, 200, 400, 800, 1000]);
    inherited.seed = 1;
    assert.deepEqual([...new Backoff(inherited)], [100, 200, 400, 800, 1000]);
  });

  test(`${how}: nextDelay inputs and other arguments refuse exotic values, naming them`, async () => {
    const { calls, values, proxy } = exotic();
    const b = new Backoff({ seed: 5 });
    const budget = new RetryBudget();
    const sites = [
      ['retryAfterMs', (v) => b.nextDelay({ retryAfterMs: v })],
      ['retryAfterMs', (v) => b.nextDelayWithHint(v)],
      ['doNotRetry', (v) => b.nextDelay({ doNotRetry: v })],
      ['elapsedMs', (v) => b.nextDelay({ elapsedMs: v })],
      ['failureKind', (v) => b.nextDelay({ failureKind: v })],
      ['kind', (v) => budget.recordFailure(v)],
      ['kind', (v) => budget.tryAcquire(v)],
      ['nowMs', (v) => api.parseRetryAfter('5', v)],
      ['status', (v) => api.classifyHttp(v)],
      ['status', (v) => api.isRetryableHttp(v)],
      ['code', (v) => api.classifyGrpc(v)],
      ['mode', (v) => new RetryBudget({ mode: v })],
      ['maxTokens', (v) => new RetryBudget({ mode: 'grpc', maxTokens: v, tokenRatio: 1 })],
      ['tokenRatio', (v) => new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: v })],
      ['noRetryIncrement', (v) => new RetryBudget({ noRetryIncrement: v })],
    ];
    // These check with instanceof or read a property, which runs a proxy's traps: no proxy here.
    const noProxy = [
      ['budget', (v) => b.nextDelay({ budget: v })],
      ['Retry-After value', (v) => api.parseRetryAfter(v)],
      ['bytes', (v) => api.restore({}, v)],
      ['backoff', (v) => snapshot(v)],
    ];
    const before = snapshot(b);
    for (const [name, call] of [...sites, ...noProxy]) {
      for (const [v, shown] of noProxy.some(([, c]) => c === call) ? values : [...values, proxy]) {
        assert.throws(() => call(v), refusedWith(TypeError, new RegExp(`^${escape(name)} must be .+, got ${escape(shown)}$`)), `${name}: ${shown}`);
      }
    }
    const asyncSites = [
      ['fn', (v) => api.retry(v)],
      ['shouldRetry', (v) => api.retry(() => 1, { shouldRetry: v })],
      ['onRetry', (v) => api.retry(() => 1, { onRetry: v })],
      ['seed', (v) => api.retry(() => 1, { seed: v })],
      ['initialMs', (v) => api.retry(() => 1, { initialMs: v })],
      ['signal', (v) => api.retry(() => 1, { signal: v })],
      ['budget', (v) => api.retry(() => 1, { budget: v })],
      ['policy', (v) => api.retry(() => 1, { policy: v })],
    ];
    for (const [name, call] of asyncSites) {
      for (const [v, shown] of values) {
        if (shown === 'a function' && ['fn', 'shouldRetry', 'onRetry'].includes(name)) continue;
        await assert.rejects(call(v), refusedWith(TypeError, new RegExp(`^${escape(name)} must be .+, got ${escape(shown)}$`)), `${name}: ${shown}`);
      }
    }
    assert.deepEqual(calls, []);
    assert.deepEqual(snapshot(b), before);
    assert.equal(budget.tokensMilli, 500000);
  });

  test(`${how}: a refused call leaves the Backoff unchanged and usable`, () => {
    const policy = new Policy({ preset: 'google' });
    const b = new Backoff(policy, 7);
    const twin = new Backoff(policy, 7);
    const other = new Backoff({ preset: 'grpc', seed: 8 });
    assert.equal(b.nextDelay(), twin.nextDelay());
    const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
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
      () => b.nextDelay({ budget, failureKind: 'oops' }),
      () => b.nextDelay({ budget, elapsedMs: -1 }),
      () => b.nextDelay({ retryAfter: 5 }),
      () => b.nextDelay(null),
      () => b.nextDelay(new Map([['doNotRetry', true]])),
      () => b.nextDelay(Object.create({ retryAfterMs: -1 })),
      () => new Backoff(policy, -1),
      () => new Policy({ initialMs: 0 }),
      () => new Policy({ jitter: 'full', jitterMs: 1 }),
      () => api.restore({ preset: 'google' }, [1, 2, 3]),
      () => api.restore({ preset: 'google' }, new Uint8Array(300)),
      () => api.parseRetryAfter('x'.repeat(9000)),
    ];
    for (const call of bad) {
      const before = snapshot(b);
      // The call comes after another Backoff's step, and after this one's: either may be in the slot.
      other.nextDelay();
      assert.throws(call, (e) => e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError);
      assert.deepEqual(snapshot(b), before);
      assert.equal(budget.tokensMilli, 10000);
      assert.equal(b.nextDelay(), twin.nextDelay());
      if (b.retries === 9) {
        b.reset();
        twin.reset();
      }
    }
    assert.throws(() => api.restore({ preset: 'grpc' }, snapshot(b)), { name: 'RangeError', code: 'policy_mismatch' });
    assert.equal(b.nextDelay(), twin.nextDelay());
  });

  test(`${how}: a RetryError describes a thrown non-Error without running its code`, async () => {
    const { calls, values } = exotic();
    const fast = { initialMs: 1, maxBackoffMs: 1, jitter: 'none', maxRetries: 2 };
    const cases = [
      [5, 'threw 5'],
      ['down', 'threw "down"'],
      [null, 'threw null'],
      [undefined, 'threw undefined'],
      [5n, 'threw 5n'],
      [false, 'threw false'],
      [{ message: 'not an Error' }, 'threw an object'],
      ...values.map(([v, shown]) => [v, `threw ${shown}`]),
    ];
    for (const [thrown, description] of cases) {
      const err = await api.retry(() => { throw thrown; }, fast).catch((e) => e);
      assert.ok(err instanceof api.RetryError, `${description}: ${err}`);
      assert.equal(err.message, `gave up after 3 attempts (max_retries): ${description}`);
      assert.equal(err.cause, thrown);
      assert.equal(err.attempts, 3);
    }
    const err = await api.retry(() => { throw new TypeError('bad'); }, { ...fast, maxRetries: 0 }).catch((e) => e);
    assert.equal(err.message, 'gave up after 1 attempt (max_retries): bad');
    assert.deepEqual(calls, []);
  });

  test(`${how}: header values up to the core's 8192-byte bound parse; longer ones are too_long, never a trap`, () => {
    const text = (n) => '0'.repeat(n - 3) + '120';
    const tooLong = (e) => e instanceof SyntaxError && e.code === 'too_long';
    assert.equal(api.parseRetryAfter(text(8192), 0), 120000);
    assert.equal(api.parseRetryAfter(new TextEncoder().encode(text(8192)), 0), 120000);
    assert.equal(api.parseRateLimit('ratelimit-reset', text(8192), 0), 120000);
    for (const n of [8193, 40961, 1 << 20]) {
      assert.throws(() => api.parseRetryAfter(text(n), 0), tooLong);
      assert.throws(() => api.parseRetryAfter(new TextEncoder().encode(text(n)), 0), tooLong);
      assert.throws(() => api.parseRateLimit('x-ratelimit-reset', text(n), 0), tooLong);
    }
    // Counted in UTF-8 bytes: 4096 two-byte characters are within the bound, 4097 are not.
    assert.throws(() => api.parseRetryAfter('é'.repeat(4096)), (e) => e instanceof SyntaxError && e.code === 'invalid_format');
    assert.throws(() => api.parseRetryAfter('é'.repeat(4097)), tooLong);
    const b = new Backoff({ seed: 1 });
    for (const n of [257, 300, 1 << 20]) {
      assert.throws(() => api.restore({}, new Uint8Array(n)), refusedWith(RangeError, new RegExp(`^bytes must be at most 256 bytes, got ${n}$`)));
    }
    // The package works on after each refusal.
    assert.equal(api.parseRetryAfter('120', 0), 120000);
    assert.equal(api.restore({}, snapshot(b)).nextDelay(), b.nextDelay());
  });
}
