// Objects hold their state in JS and nothing is allocated in wasm: Backoffs and RetryBudgets that
// are created, used and dropped must leave the process's memory where it was once collected.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

// The collector, without needing `node --expose-gc` on the test runner's command line.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const N = 100000;
// What N dropped objects may leave behind, at most: 4 bytes each, less than a pointer each, and
// far less than an object (over 200 bytes each when kept: the last test).
const BOUND = 4 * N;

/** JS heap + memory outside it (wasm memories, array buffers), after a full collection. */
function used() {
  for (let i = 0; i < 3; i++) gc();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return heapUsed + external + arrayBuffers;
}

/** How much `body` leaves allocated. */
function growth(body) {
  const before = used();
  body();
  return used() - before;
}

const mb = (n) => `${(n / 2 ** 20).toFixed(2)} MiB`;

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, Policy, RetryBudget, snapshot, restore } = api;
  const policy = new Policy({ preset: 'google' });
  const budgetOptions = { mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 };

  // Every wasm part loaded, and the code paths compiled, before anything is measured.
  function warm() {
    for (let i = 0; i < 1000; i++) {
      const b = new Backoff(policy, i);
      b.nextDelay({ budget: new RetryBudget(budgetOptions) });
      restore(policy, snapshot(b)).nextDelay();
      new Backoff({ seed: i }).nextDelay();
    }
    api.parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', 784111687000);
  }

  test(`${how}: ${N} Backoffs created, stepped and dropped leave memory bounded`, () => {
    warm();
    const t0 = performance.now();
    const shared = growth(() => {
      for (let i = 0; i < N; i++) {
        const b = new Backoff(policy, i);
        b.nextDelay();
        b.nextDelay();
      }
    });
    const each = ((performance.now() - t0) * 1000) / N;
    const sugar = growth(() => {
      for (let i = 0; i < N; i++) new Backoff({ preset: 'grpc', seed: i }).nextDelay();
    });
    const restored = growth(() => {
      const b = new Backoff(policy, 1);
      for (let i = 0; i < N / 10; i++) restore(policy, snapshot(b)).nextDelay();
    });
    console.log(`${how}: growth after ${N} Backoffs: shared Policy ${mb(shared)}, options ${mb(sugar)}; after ${N / 10} restores ${mb(restored)} (${each.toFixed(2)} µs each)`);
    assert.ok(shared < BOUND, `shared Policy: ${shared} bytes`);
    assert.ok(sugar < BOUND, `options: ${sugar} bytes`);
    assert.ok(restored < BOUND, `restore: ${restored} bytes`);
  });

  test(`${how}: ${N} RetryBudgets created, used and dropped leave memory bounded`, () => {
    warm();
    const alone = growth(() => {
      for (let i = 0; i < N; i++) {
        const budget = new RetryBudget(budgetOptions);
        budget.recordFailure('timeout');
        budget.tryAcquire();
      }
    });
    const stepped = growth(() => {
      for (let i = 0; i < N; i++) new Backoff(policy, i).nextDelay({ budget: new RetryBudget() });
    });
    console.log(`${how}: growth after ${N} RetryBudgets: ${mb(alone)}; stepped with a Backoff ${mb(stepped)}`);
    assert.ok(alone < BOUND, `budgets: ${alone} bytes`);
    assert.ok(stepped < BOUND, `budgets with Backoffs: ${stepped} bytes`);
  });

  test(`${how}: the measure sees objects that are kept`, () => {
    warm();
    const kept = [];
    const backoffs = growth(() => {
      for (let i = 0; i < N; i++) {
        const b = new Backoff(policy, i);
        b.nextDelay();
        kept.push(b);
      }
    });
    const budgets = growth(() => {
      for (let i = 0; i < N; i++) kept.push(new RetryBudget(budgetOptions));
    });
    console.log(`${how}: ${N} kept Backoffs ${mb(backoffs)}, ${N} kept RetryBudgets ${mb(budgets)}`);
    assert.equal(kept.length, 2 * N);
    assert.ok(backoffs > 25 * BOUND, `kept Backoffs: ${backoffs} bytes`);
    assert.ok(budgets > 25 * BOUND, `kept RetryBudgets: ${budgets} bytes`);
  });
}
