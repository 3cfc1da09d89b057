// The package's Run (SPEC.md §15) as a user's own loop: the README's snippet as pasted against a
// local server, the answers a loop needs, and events out of turn refused without a change. The
// vectors of tests/vectors/run-loop.json are replayed bit for bit by vectors.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { esm } from './api.mjs';
import { startServer } from './server.mjs';

test("wasm/README.md's Run loop, as pasted: 503 with Retry-After: 1, then 200", async () => {
  const server = await startServer({ '/api/items': [[503, { 'retry-after': '1' }], [200]] });
  try {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = readme.split('```js\n').map((b) => b.split('```')[0]).find((b) => b.includes('new Run('));
    assert.ok(block, 'the README has a Run snippet');
    const seen = [];
    const body = block.replace(/^import .*$/m, '').replaceAll("'/api/items'", 'url')
      .replace('} else break;', '} else { seen.push(a); break; }');
    // The names the snippet imports, taken from the package.
    const names = block.match(/^import \{([^}]*)\} from 'seeded-backoff';$/m)[1];
    const loop = new Function('m', 'url', 'seen', `return (async () => { const {${names}} = m; ${body} })();`);
    const t0 = performance.now();
    await loop(esm, `${server.url}/api/items`, seen);
    assert.deepEqual(seen, [{ type: 'done', attempts: 2 }]);
    assert.equal(server.hits('/api/items'), 2);
    // Retry-After: 1 is a lower bound over the first delay (1..=2 s with Google's jitter).
    assert.ok(performance.now() - t0 >= 1000);
  } finally {
    await server.close();
  }
});

test('a run answers by SPEC §15: attempts from 1, the retry event, the give-up with its reason', () => {
  const run = new esm.Run(new esm.Policy({ maxRetries: 1, jitter: 'none' }), { seed: 1 });
  assert.deepEqual(run.start(0), { type: 'attempt', attempt: 1 });
  assert.deepEqual(run.outcome({ retryAfterMs: 3000 }, 10), { type: 'retry', attempt: 1, delayMs: 3000 });
  assert.deepEqual(run.wake(3010), { type: 'attempt', attempt: 2 });
  assert.deepEqual(run.outcome({}, 3020), { type: 'give_up', attempts: 2, reason: 'max_retries' });
  assert.throws(() => run.wake(), (e) => e.code === 'finished');
  const p = new esm.Run(new esm.Policy(), { seed: 1 });
  assert.deepEqual(p.start(), { type: 'attempt', attempt: 1 });
  assert.deepEqual(p.outcome('permanent'), { type: 'give_up', attempts: 1, reason: null });
});

test('an event out of turn is refused by name and changes nothing', () => {
  const policy = new esm.Policy({ jitter: 'none' });
  const run = new esm.Run(policy, { seed: 5 });
  assert.throws(() => run.wake(), (e) => e.code === 'wake');
  assert.throws(() => run.outcome('success'), (e) => e.code === 'outcome');
  run.start();
  assert.throws(() => run.start(), (e) => e.code === 'start');
  assert.throws(() => run.resume(), (e) => e.code === 'resume');
  // The refusals left the run where it was: the first retry waits the schedule's 1 s.
  assert.deepEqual(run.outcome({}), { type: 'retry', attempt: 1, delayMs: 1000 });
});

test('bad arguments are TypeErrors and RangeErrors naming them', () => {
  const policy = new esm.Policy();
  assert.throws(() => new esm.Run({}), { name: 'TypeError', message: /policy/ });
  assert.throws(() => new esm.Run(policy, { sead: 1 }), { name: 'TypeError', message: /sead/ });
  assert.throws(() => new esm.Run(policy, { budget: {} }), { name: 'TypeError', message: /budget/ });
  assert.throws(() => new esm.Run(policy, { seed: -1 }), { name: 'RangeError', message: /seed/ });
  const run = new esm.Run(policy, { seed: 1 });
  assert.throws(() => run.start(-5), { name: 'RangeError', message: /nowMs/ });
  run.start();
  assert.throws(() => run.outcome('maybe'), { name: 'RangeError', message: /outcome/ });
  assert.throws(() => run.outcome({ retryAfterMs: 1, rateLimitMs: 2 }), { name: 'TypeError' });
  assert.throws(() => run.outcome({ failureKind: 'slow' }), { name: 'RangeError', message: /failureKind/ });
  assert.deepEqual(run.outcome('success'), { type: 'done', attempts: 1 });
  // The startup window: the core's range (SPEC.md §12.2), named as the option.
  assert.throws(() => new esm.Run(policy, { startupWindowMs: 2 ** 31 }), { name: 'RangeError', message: /^startupWindowMs must be in 0\.\.=2147483647, got 2147483648/ });
  assert.throws(() => new esm.Run(policy, { startupWindowMs: '5' }), { name: 'TypeError', message: /startupWindowMs/ });
  // A bigint reading beyond 2^64 - 1 is no reading of the clock.
  assert.throws(() => new esm.Run(policy).start(2n ** 64n), { name: 'RangeError', message: /nowMs/ });
});

test('the whole clock range as bigints: a run at 2^64 - 1 runs as SPEC §15 says (its sums saturate)', () => {
  const top = 2n ** 64n - 1n;
  const run = new esm.Run(new esm.Policy({ jitter: 'none' }), { seed: 1 });
  assert.deepEqual(run.start(top - 5n), { type: 'attempt', attempt: 1 });
  // Google's first delay without jitter: initial_ms, 1 s (SPEC §2), whatever the clock reads.
  assert.deepEqual(run.outcome('retryable', top), { type: 'retry', attempt: 1, delayMs: 1000 });
  assert.deepEqual(run.wake(top), { type: 'attempt', attempt: 2 });
});

test('a startup window: the run begins with a wait in the window, then attempt 1 (SPEC §15.3)', () => {
  const policy = new esm.Policy();
  const run = new esm.Run(policy, { seed: 7, startupWindowMs: 32000 });
  const first = run.start(0);
  assert.equal(first.type, 'wait');
  assert.ok(first.delayMs >= 0 && first.delayMs <= 32000, `${first.delayMs}`);
  assert.deepEqual(run.wake(first.delayMs), { type: 'attempt', attempt: 1 });
  // 0 (the default) is no window: the first action is the attempt.
  assert.deepEqual(new esm.Run(policy, { seed: 7, startupWindowMs: 0 }).start(0), { type: 'attempt', attempt: 1 });
});

test('a budget given to the run is charged for a retry and refunded on success (SPEC §10 through §15)', () => {
  const budget = new esm.RetryBudget({ mode: 'aws_quota', capacity: 20 });
  const run = new esm.Run(new esm.Policy(), { seed: 3, budget });
  run.start();
  assert.equal(run.outcome({ failureKind: 'timeout' }).type, 'retry');
  assert.equal(budget.tokensMilli, 10000, 'a timeout retry costs 10 of 20 tokens');
  run.wake();
  assert.deepEqual(run.outcome('success'), { type: 'done', attempts: 2 });
  assert.equal(budget.tokensMilli, 20000, 'the refund is the timeout cost');
});
