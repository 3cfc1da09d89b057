// A Policy is checked once and shared: many Backoffs from one Policy, Backoffs under different
// Policies stepped in turn, and a random seed read back from `b.seed` to replay a schedule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

// SPEC.md §4 with jitter 'none': base_n = min(initial · multiplier^n, cap), rounded down per step.
const GOOGLE_BASES = [1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000, 32000];

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, Policy, snapshot, restore } = api;

  test(`${how}: one Policy serves 1,000 Backoffs, each its seed's schedule, the Policy unchanged`, () => {
    const plain = new Policy({ preset: 'google', jitter: 'none' });
    const google = new Policy({ preset: 'google' });
    const first = [...new Backoff(google, 0)];
    const made = [];
    for (let i = 0; i < 1000; i++) {
      const b = new Backoff(i % 2 ? plain : google, i);
      assert.equal(b.policy, i % 2 ? plain : google);
      made.push(b);
    }
    // All alive at once, stepped together: each keeps its own state.
    const got = made.map(() => []);
    for (let n = 0; n <= 10; n++) made.forEach((b, i) => got[i].push(b.nextDelay()));
    const distinct = new Set();
    got.forEach((delays, i) => {
      assert.equal(delays[10], null, `Backoff ${i}`);
      if (i % 2) {
        assert.deepEqual(delays.slice(0, 10), GOOGLE_BASES, `Backoff ${i}`);
        return;
      }
      // Google's jitter (SPEC.md §4.1): min(base_n + U[0, 1000], 32000), an integer.
      delays.slice(0, 10).forEach((d, n) => {
        assert.ok(Number.isInteger(d) && d >= GOOGLE_BASES[n] && d <= Math.min(GOOGLE_BASES[n] + 1000, 32000), `Backoff ${i} delay ${n}: ${d}`);
      });
      distinct.add(delays.join());
      // The same seed through the options sugar builds the same schedule.
      if (i % 100 === 0) assert.deepEqual(delays.slice(0, 10), [...new Backoff({ preset: 'google', seed: i })]);
    });
    assert.equal(distinct.size, 500);
    assert.deepEqual([...new Backoff(google, 0)], first);
  });

  test(`${how}: a Policy keeps the values it was given (later changes to the options do nothing)`, () => {
    const options = { initialMs: 100, maxBackoffMs: 1000, jitter: 'none', maxRetries: 5 };
    const policy = new Policy(options);
    options.initialMs = 700;
    options.jitter = 'full';
    assert.deepEqual([...new Backoff(policy, 1)], [100, 200, 400, 800, 1000]);
    // A Policy refused afterwards (range or type) leaves the accepted ones as they were.
    assert.throws(() => new Policy({ initialMs: 0 }), RangeError);
    assert.throws(() => new Policy({ initialMs: 5, jitter: 7 }), TypeError);
    assert.deepEqual([...new Backoff(policy, 1)], [100, 200, 400, 800, 1000]);
  });

  test(`${how}: two Backoffs under two Policies stepped in turn give each one's schedule alone`, () => {
    const grpc = new Policy({ preset: 'grpc', maxRetries: 25, maxElapsedMs: 900000 });
    const full = new Policy({ initialMs: 50, maxBackoffMs: 5000, jitter: 'decorrelated', maxRetries: 25 });
    const budget = () => new api.RetryBudget({ capacity: 60, retryCost: 5 });
    // Every kind of call that reads or moves a state, with its argument.
    const ops = [
      (b) => b.nextDelay(),
      (b) => b.nextDelay(),
      (b) => b.nextDelayWithHint(3000),
      (b) => b.nextDelay({ elapsedMs: 1234 }),
      (b) => `${b.retries} ${b.elapsedMs} ${b.giveUpReason}`,
      (b) => b.nextDelay(),
      (b, x) => b.nextDelay({ budget: x.budget, failureKind: 'timeout' }),
      (b) => Buffer.from(snapshot(b)).toString('hex'),
      (b) => b.nextDelay({ retryAfterMs: 20000, elapsedMs: 5000n }),
      (b, x) => (x.b = restore(b.policy, snapshot(b))) && 'restored',
      (b) => b.nextDelay(),
      (b) => (b.reset(), b.retries),
      ...Array(16).fill((b) => b.nextDelay()),
      (b) => b.nextDelay({ doNotRetry: true }),
      (b) => `${b.retries} ${b.elapsedMs} ${b.giveUpReason}`,
    ];
    const run = (x, i) => ops[i](x.b, x);
    const fresh = (policy, seed) => ({ b: new Backoff(policy, seed), budget: budget() });
    const aloneA = ((x) => ops.map((_, i) => run(x, i)))(fresh(grpc, 17n));
    const aloneB = ((x) => ops.map((_, i) => run(x, i)))(fresh(full, 2n ** 64n - 3n));
    assert.ok(aloneA.filter((d) => typeof d === 'number' && d > 0).length >= 15);
    assert.ok(aloneB.filter((d) => typeof d === 'number' && d > 0).length >= 15);
    assert.notDeepEqual(aloneA, aloneB);
    // Strict alternation, then uneven runs, with other Policies made (or refused) in between.
    for (const pattern of ['ab', 'aab', 'abbb', 'aaaaab']) {
      const x = fresh(grpc, 17n);
      const y = fresh(full, 2n ** 64n - 3n);
      const a = [];
      const b = [];
      for (let k = 0; a.length < ops.length || b.length < ops.length; k++) {
        if (k % 3 === 0) new Policy({ preset: 'google_64s' });
        if (k % 5 === 0) assert.throws(() => new Policy({ maxBackoffMs: 1 }), RangeError);
        if (pattern[k % pattern.length] === 'a' && a.length < ops.length) a.push(run(x, a.length));
        else if (b.length < ops.length) b.push(run(y, b.length));
      }
      assert.deepEqual(a, aloneA, `${pattern}: the grpc Backoff`);
      assert.deepEqual(b, aloneB, `${pattern}: the decorrelated Backoff`);
    }
  });

  test(`${how}: b.seed of a random-seeded Backoff replays its schedule`, () => {
    const seeds = new Set();
    for (const options of [{ preset: 'google' }, { preset: 'grpc' }, { jitter: 'full', maxRetries: 30 }]) {
      const policy = new Policy(options);
      for (let i = 0; i < 20; i++) {
        const b = new Backoff(policy);
        const sugar = new Backoff(options);
        assert.equal(typeof b.seed, 'bigint');
        assert.ok(b.seed >= 0n && b.seed < 2n ** 64n);
        seeds.add(b.seed);
        seeds.add(sugar.seed);
        const seed = b.seed;
        const delays = [...b];
        // Read after the schedule ran, it is still the seed it started from.
        assert.equal(b.seed, seed);
        assert.deepEqual([...new Backoff(policy, seed)], delays);
        assert.deepEqual([...new Backoff({ ...options, seed: sugar.seed })], [...sugar]);
      }
    }
    assert.equal(seeds.size, 120);
    // A given seed reads back as the same value, as a bigint.
    assert.equal(new Backoff({ seed: 2 ** 32 + 5 }).seed, 4294967301n);
    assert.equal(new Backoff(new Policy(), 2n ** 64n - 1n).seed, 2n ** 64n - 1n);
    assert.equal(new Backoff({ seed: 0 }).seed, 0n);
  });

  test(`${how}: retry() with a shared Policy steps it like a Backoff; policy and options do not mix`, async () => {
    const policy = new Policy({ initialMs: 2, maxBackoffMs: 20, jitter: 'full', maxRetries: 3 });
    const delays = [];
    let calls = 0;
    const err = await api
      .retry(() => { calls++; throw new Error('down'); }, { policy, seed: 99n, onRetry: ({ delayMs }) => delays.push(delayMs) })
      .catch((e) => e);
    assert.ok(err instanceof api.RetryError);
    assert.equal(err.reason, 'max_retries');
    assert.equal(calls, 4);
    const twin = new Backoff(policy, 99n);
    assert.deepEqual(delays, [twin.nextDelay(), twin.nextDelay(), twin.nextDelay()]);
    await assert.rejects(api.retry(() => 1, { policy, maxRetries: 2 }), { name: 'TypeError', message: /policy .*maxRetries/ });
    await assert.rejects(api.retry(() => 1, { policy: { preset: 'google' } }), { name: 'TypeError', message: /^policy must be a Policy, got an object$/ });
    assert.equal(await api.retry(() => 'ok', { policy }), 'ok');
  });

  test(`${how}: new Backoff(policy, seed) checks the seed; a policy is not an option`, () => {
    const policy = new Policy();
    assert.throws(() => new Backoff(policy, -1), { name: 'RangeError', message: /^seed must be an integer in 0\.\.=2\^53-1/ });
    assert.throws(() => new Backoff(policy, '1'), { name: 'TypeError', message: /^seed must be/ });
    assert.throws(() => new Backoff({ policy }), { name: 'TypeError', message: /unknown option "policy" in Backoff options/ });
  });
}
