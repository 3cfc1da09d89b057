// The Backoff object's API: seeds, iteration, snapshots, free/dispose (no-ops), presets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, snapshot, restore } = api;

  test(`${how}: a number seed and the same bigint seed give the same schedule`, () => {
    for (const seed of [0, 1, 42, 2 ** 32, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const a = [...new Backoff({ seed, maxRetries: 20 })];
      const b = [...new Backoff({ seed: BigInt(seed), maxRetries: 20 })];
      assert.deepEqual(a, b, `seed ${seed}`);
    }
    // The halves of a u64 are not mixed up: seeds that differ only in the high word differ.
    const lo = snapshot(new Backoff({ seed: 5n }));
    const hi = snapshot(new Backoff({ seed: 5n + (1n << 32n) }));
    assert.notDeepEqual(lo.slice(4, 20), hi.slice(4, 20));
    // The sizes SPEC.md gives (§9: 40 bytes, §15: 100), exported under §18's names.
    assert.equal(api.SNAPSHOT_SIZE, 40);
    assert.equal(lo.length, api.SNAPSHOT_SIZE);
    assert.equal(api.RUN_SNAPSHOT_SIZE, 100);
    assert.equal(snapshot(new api.Run(new api.Policy())).length, api.RUN_SNAPSHOT_SIZE);
    assert.equal(new Backoff({ seed: 2n ** 64n - 1n }).nextDelay() >= 1000, true);
  });

  test(`${how}: an omitted seed is random, not a constant`, () => {
    const states = new Set();
    for (let i = 0; i < 50; i++) {
      const b = new Backoff();
      states.add(Buffer.from(snapshot(b).slice(4, 20)).toString('hex'));
    }
    assert.equal(states.size, 50);
  });

  test(`${how}: presets and overrides`, () => {
    assert.deepEqual(
      [...new Backoff({ preset: 'google', jitter: 'none', seed: 1 })],
      [1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000, 32000],
    );
    assert.deepEqual(
      [...new Backoff({ preset: 'grpc', jitter: 'none', maxRetries: 6 })],
      // SPEC.md §4.2: bases round down at every step.
      [1000, 1600, 2560, 4096, 6553, 10484],
    );
    assert.equal([...new Backoff({ preset: 'aws_standard' })].length, 2);
    // The hint limit follows an overridden cap.
    const b = new Backoff({ preset: 'google', maxBackoffMs: 60000, seed: 3 });
    assert.equal(b.nextDelayWithHint(50000), 50000);
  });

  test(`${how}: giveUpReason, retries, reset, server stop`, () => {
    const b = new Backoff({ maxRetries: 2, seed: 9 });
    assert.equal(b.giveUpReason, null);
    assert.notEqual(b.nextDelay(), null);
    assert.equal(b.retries, 1);
    assert.equal(b.nextDelay({ doNotRetry: true }), null);
    assert.equal(b.giveUpReason, 'server_stop');
    assert.equal(b.nextDelay(), null);
    b.reset();
    assert.equal(b.retries, 0);
    assert.equal(b.giveUpReason, null);
    assert.equal([...b].length, 2);
    assert.equal(b.giveUpReason, 'max_retries');
  });

  test(`${how}: snapshot and restore continue the same schedule`, () => {
    const options = { preset: 'grpc', seed: 77n };
    const live = new Backoff(options);
    live.nextDelay();
    live.nextDelay();
    const bytes = snapshot(live);
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(bytes.length, 40);
    // Taking a snapshot changes nothing: a second one is the same bytes.
    assert.deepEqual(snapshot(live), bytes);
    const resumed = restore({ preset: 'grpc' }, bytes);
    const again = restore(new api.Policy({ preset: 'grpc' }), bytes);
    assert.ok(resumed instanceof Backoff && again instanceof Backoff);
    assert.equal(resumed.retries, 2);
    const rest = [...live];
    assert.equal(rest.length, 8);
    assert.deepEqual([...resumed], rest);
    assert.deepEqual([...again], rest);
    // A restored Backoff is a Backoff like any other: it snapshots and restores again.
    assert.deepEqual(snapshot(resumed), snapshot(live));
  });

  test(`${how}: a budget gives up with 'budget'`, () => {
    const budget = new api.RetryBudget({ mode: 'grpc', maxTokens: 4, tokenRatio: 0.5 });
    const b = new Backoff({ seed: 1 });
    assert.notEqual(b.nextDelay({ budget }), null);
    assert.equal(budget.tokens, 3);
    assert.equal(b.nextDelay({ budget }), null);
    assert.equal(b.giveUpReason, 'budget');
  });

  test(`${how}: the package is ready on import, with nothing to initialise or await`, async () => {
    assert.equal(api.init, undefined);
    assert.equal(api.ready, undefined);
    assert.equal(api.parseRetryAfter('120', 0), 120000);
    assert.equal(api.parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', 784111687000), 90000);
    assert.equal(api.isRetryableHttp(503), true);
    assert.equal(api.isRetryableHttp(404), false);
  });
}
