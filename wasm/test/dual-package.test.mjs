// One package, one meaning: Node loads the ES module build (import) and the CommonJS build
// (require) side by side, each with its own classes and engine. Every object a user hands back to
// the package (policies, backoffs and runs to snapshot, budgets, send rates, pacers) made by one
// build means the same to the other, both ways, and a give-up of either is `instanceof` the other's
// RetryError; an object of another version of the package is a TypeError that says so. Expected
// answers are the same build's own (a wrongly read object reads as Google's defaults, which every
// policy below differs from), and the 100 ms.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';
import * as esmSnapshot from 'seeded-backoff/snapshot';

const cjs = cjsAll;
const OPTIONS = { preset: 'aws_standard', maxRetries: 4 };
const delays = (b) => [...b];

test('the two builds are two copies (the hazard is real here)', () => {
  assert.notEqual(esm.Policy, cjs.Policy);
  assert.equal(new esm.Policy() instanceof cjs.Policy, false);
});

test("an aws_standard Policy of either build gives the other build's Backoff its first delay, 100 ms", () => {
  assert.equal(new esm.Backoff(new cjs.Policy({ preset: 'aws_standard' }), 3n).nextDelay(), 100);
  assert.equal(new cjs.Backoff(new esm.Policy({ preset: 'aws_standard' }), 3n).nextDelay(), 100);
});

for (const [from, to] of [['require', 'import'], ['import', 'require']]) {
  const [a, b] = from === 'require' ? [cjs, esm] : [esm, cjs];
  const own = delays(new b.Backoff(new b.Policy(OPTIONS), 7n));

  test(`a Policy made by ${from} means the same to ${to}: Backoff, new Policy(policy), restore, Run`, () => {
    assert.notDeepEqual(own, delays(new b.Backoff(new b.Policy(), 7n)));
    const p = new a.Policy(OPTIONS);
    assert.deepEqual(delays(new b.Backoff(p, 7n)), own);
    assert.deepEqual(delays(new b.Backoff(new b.Policy(p), 7n)), own);
    // A Policy given as a Backoff's options is that policy too.
    assert.equal(new b.Backoff(p, 7n).policy, p);
    const back = new b.Backoff(p, 7n);
    back.nextDelay();
    assert.deepEqual(delays(b.restore(p, b.snapshot(back))), own.slice(1));
    const run = new b.Run(p, { seed: 7n });
    assert.deepEqual(run.start(0), { type: 'attempt', attempt: 1 });
    assert.deepEqual(run.outcome('retryable', 0), { type: 'retry', attempt: 1, delayMs: own[0] });
    const again = b.restoreRun(p, b.snapshot(run));
    assert.deepEqual(again.wake(own[0]), { type: 'attempt', attempt: 2 });
  });

  test(`a Policy made by ${from} drives ${to}'s retry() and fetchWithBackoff() (a policy without options)`, async () => {
    const p = new a.Policy({ initialMs: 1, maxBackoffMs: 2, maxRetries: 2, jitter: 'none' });
    const seen = [];
    await assert.rejects(b.retry(() => {
      throw new Error('down');
    }, { policy: p, onRetry: ({ delayMs }) => seen.push(delayMs) }), (e) => e.attempts === 3 && e.reason === 'max_retries');
    assert.deepEqual(seen, [1, 2]);
    // Google's defaults would wait a second: a policy read as empty shows as a timeout here.
    const res = b.fetchWithBackoff('data:,ok', {}, { policy: p });
    assert.equal(await (await res).text(), 'ok');
  });

  test(`a Backoff and a Run made by ${from} snapshot in ${to}, and restore back`, () => {
    const back = new a.Backoff(new a.Policy(OPTIONS), 7n);
    back.nextDelay();
    const bytes = b.snapshot(back);
    assert.deepEqual(bytes, a.snapshot(back));
    assert.deepEqual(delays(a.restore(back.policy, bytes)), own.slice(1));
    const run = new a.Run(new a.Policy(OPTIONS), { seed: 7n });
    run.start(0);
    run.outcome('retryable', 0);
    assert.deepEqual(b.snapshot(run), a.snapshot(run));
    assert.equal(b.snapshot(run).length, 100);
  });

  test(`a RetryBudget made by ${from} is asked by ${to}'s Backoff, Run and retry()`, async () => {
    const budget = new a.RetryBudget({ mode: 'grpc', maxTokens: 2, tokenRatio: 0.5 });
    const back = new b.Backoff(new b.Policy(OPTIONS), 7n);
    // 2 tokens: a failure leaves 1, not more than half, so the first retry is refused.
    assert.equal(back.nextDelay({ budget }), null);
    assert.equal(back.giveUpReason, 'budget');
    assert.equal(budget.tokens, 1);
    const fresh = new a.RetryBudget({ mode: 'grpc', maxTokens: 2, tokenRatio: 0.5 });
    const run = new b.Run(new b.Policy(OPTIONS), { seed: 7n, budget: fresh });
    run.start(0);
    assert.deepEqual(run.outcome('retryable', 0), { type: 'give_up', attempts: 1, reason: 'budget' });
    const other = new a.RetryBudget({ mode: 'grpc', maxTokens: 2, tokenRatio: 0.5 });
    await assert.rejects(b.retry(() => {
      throw new Error('down');
    }, { budget: other, initialMs: 1 }), (e) => e.reason === 'budget' && e.attempts === 1);
    assert.equal(other.tokens, 1);
  });

  test(`a SendRate made by ${from} paces ${to}'s Run and retry(), with a budget of either build`, async () => {
    const sendRate = new a.SendRate({ burst: 1, failFast: true });
    for (let t = 0; t < 100; t++) sendRate.answer('accepted', 0, t * 10);
    sendRate.answer('throttled', 0, 1000);
    assert.equal(sendRate.rateMilli, 98_000);
    for (const [t, budget] of [[2000, new a.RetryBudget()], [3000, new b.RetryBudget()]]) {
      const run = new b.Run(new b.Policy(OPTIONS), { seed: 7n, sendRate, budget });
      // The learnt interval is 11 ms: the first send goes, a second at once is refused (failFast).
      assert.deepEqual(run.start(t), { type: 'attempt', attempt: 1 });
      const next = new b.Run(new b.Policy(OPTIONS), { seed: 7n, sendRate, budget });
      assert.deepEqual(next.start(t), { type: 'give_up', attempts: 0, reason: 'throttled' });
      // A retryable failure asks the budget (through the gate of the send rate's build).
      assert.equal(run.outcome('retryable', t + 1, 'accepted').type, 'retry');
    }
    const ok = new a.SendRate();
    assert.equal(await b.retry(() => 'ok', { sendRate: ok }), 'ok');
  });

  test(`a Pacer made by ${from} paces a response through ${to}'s pace()`, () => {
    const headers = {};
    const res = { statusCode: 429, setHeader: (k, v) => (headers[k] = v) };
    const twin = new b.Pacer({ capacityPerS: 1, seed: 1 }).assign(0);
    const slot = b.pace(res, new a.Pacer({ capacityPerS: 1, seed: 1 }), 0);
    assert.deepEqual(slot, twin);
    assert.deepEqual(headers, twin.headers);
  });
}

test("a Policy and a SendRate of either build drive the other build's callWithBackoff (seeded-backoff/google-cloud)", async () => {
  const google = { import: await import('seeded-backoff/google-cloud'), require: createRequire(import.meta.url)('seeded-backoff/google-cloud') };
  const slept = async (g, api, sendRate) => {
    const delays = [];
    let calls = 0;
    const call = async () => {
      if (calls++ < 2) throw Object.assign(new Error('unavailable'), { code: 14 });
      return 'ok';
    };
    const value = await g.callWithBackoff(call, { policy: new api.Policy(OPTIONS), seed: 7n, sendRate, sleep: async (ms) => delays.push(ms), now: () => 0 });
    assert.equal(value, 'ok');
    return delays;
  };
  for (const [from, to] of [['require', 'import'], ['import', 'require']]) {
    const [a, b] = from === 'require' ? [cjs, esm] : [esm, cjs];
    const own = await slept(google[to], b);
    assert.equal(own.length, 2);
    assert.deepEqual(await slept(google[to], a), own, `a Policy made by ${from} in ${to}'s callWithBackoff`);
    assert.deepEqual(await slept(google[to], a, new a.SendRate()), own, `and a SendRate made by ${from}`);
  }
});

test("a give-up of either build is instanceof the other build's RetryError (google-cloud's GoogleError-class give-ups too)", async () => {
  const fail = () => {
    throw new Error('down');
  };
  const google = createRequire(import.meta.url)('seeded-backoff/google-cloud');
  const gax = await import('seeded-backoff/google-cloud');
  class GoogleError extends Error {}
  const unavailable = () => {
    throw Object.assign(new GoogleError('unavailable'), { code: 14 });
  };
  for (const [a, b, g] of [[cjs, esm, google], [esm, cjs, gax]]) {
    const e = await a.retry(fail, { maxRetries: 0 }).catch((x) => x);
    assert.equal(e instanceof a.RetryError, true);
    assert.equal(e instanceof b.RetryError, true);
    const ge = await g.callWithBackoff(unavailable, { policy: new a.Policy({ maxRetries: 0 }) }).catch((x) => x);
    assert.equal(ge instanceof GoogleError, true);
    assert.equal(ge instanceof b.RetryError, true);
    // Only a give-up is one: an error, a plain object, a subclass asked about another's give-up.
    assert.equal(new Error('x') instanceof b.RetryError, false);
    assert.equal({ [Symbol.for('seeded-backoff')]: { kind: 'RetryError', version: '0.0.0-other' } } instanceof b.RetryError, false);
    class Mine extends b.RetryError {}
    assert.equal(e instanceof Mine, false);
  }
});

test('the seeded-backoff/snapshot entry takes objects of the require build too', () => {
  const back = new cjs.Backoff(new cjs.Policy(OPTIONS), 7n);
  assert.deepEqual(esmSnapshot.snapshot(back), cjs.snapshot(back));
});

test('an object of another version of the package is a TypeError that says why, never read as options', () => {
  const brand = Symbol.for('seeded-backoff');
  const other = (kind) => ({ [brand]: { kind, version: '0.0.0-other', words: () => new Uint32Array(13), state: () => [], pace: () => 0 } });
  const why = /seeded-backoff 0\.0\.0-other, not \d+\.\d+\.\d+: two versions cannot share objects$/;
  for (const api of [esm, cjs]) {
    assert.throws(() => new api.Backoff(other('Policy')), (e) => e instanceof TypeError && /^policy is a Policy of /.test(e.message) && why.test(e.message));
    assert.throws(() => new api.Policy(other('Policy')), (e) => e instanceof TypeError && why.test(e.message));
    assert.throws(() => new api.Run(other('Policy')), (e) => e instanceof TypeError && why.test(e.message));
    assert.throws(() => api.snapshot(other('Backoff')), (e) => e instanceof TypeError && /^backoff is a Backoff of /.test(e.message));
    assert.throws(() => api.snapshot(other('Run')), (e) => e instanceof TypeError && /^backoff is a Run of /.test(e.message));
    assert.throws(() => new api.Run(new api.Policy(), { sendRate: other('SendRate') }), (e) => e instanceof TypeError && /^sendRate is a SendRate of /.test(e.message));
    assert.throws(() => api.pace({ statusCode: 429, setHeader() {} }, other('Pacer')), (e) => e instanceof TypeError && /^pacer is a Pacer of /.test(e.message));
    assert.rejects(api.retry(() => 1, { policy: other('Policy') }), (e) => e instanceof TypeError && why.test(e.message));
  }
});

test('an object branded as something else, or whose brand cannot be read, is refused as before', () => {
  const brand = Symbol.for('seeded-backoff');
  const throwing = { get [brand]() {
    throw new Error('no');
  } };
  for (const api of [esm, cjs]) {
    const policy = new api.Policy();
    assert.throws(() => new api.Run(new api.Backoff(policy)), /^TypeError: policy must be a Policy, got an object/);
    assert.throws(() => new api.Run(throwing), /^TypeError: policy must be a Policy/);
    assert.throws(() => api.snapshot(policy), /^TypeError: backoff must be a Backoff or a Run/);
    assert.throws(() => api.snapshot(new Proxy(new api.Backoff(policy), {})), /^TypeError: backoff must be a Backoff or a Run/);
    assert.throws(() => new api.Run(policy, { sendRate: new api.Pacer({ capacityPerS: 1 }) }), /^TypeError: sendRate must be a SendRate/);
    assert.throws(() => api.pace({ statusCode: 429, setHeader() {} }, new api.SendRate()), /^TypeError: pacer must be a Pacer/);
  }
});

test("the brand's version is package.json's", async () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const brand = Symbol.for('seeded-backoff');
  for (const api of [esm, cjs]) {
    for (const o of [new api.Policy(), new api.Backoff(), new api.Run(new api.Policy()), new api.SendRate(), new api.Pacer({ capacityPerS: 1 })]) {
      assert.equal(o[brand].version, version);
    }
  }
});
