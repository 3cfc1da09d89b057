// An AbortSignal interrupts retry()'s sleep at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  test(`${how}: abort during a 60 s sleep rejects within a few ms`, async () => {
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    // retry() is sleeping once onRetry is told (however long a loaded machine takes to get there).
    let sleeping;
    const asleep = new Promise((resolve) => { sleeping = resolve; });
    const pending = api.retry(() => { throw new Error('fail'); }, {
      initialMs: 60000,
      maxBackoffMs: 60000,
      jitter: 'none',
      signal: controller.signal,
      onRetry: () => sleeping(),
    });
    await asleep;
    const t0 = performance.now();
    controller.abort(reason);
    const err = await pending.catch((e) => e);
    const ms = performance.now() - t0;
    assert.equal(err, reason);
    console.log(`${how}: rejected ${ms.toFixed(2)} ms after abort()`);
    // The sleep was 60 s: rejecting within a second proves abort() cancelled it, and leaves room
    // for a loaded CI machine (it measures a few ms when idle).
    assert.ok(ms < 1000, `took ${ms} ms`);
  });

  test(`${how}: an already aborted signal rejects before calling fn`, async () => {
    let called = false;
    const signal = AbortSignal.abort(new Error('early'));
    await assert.rejects(api.retry(() => { called = true; }, { signal }), /early/);
    assert.equal(called, false);
  });
}
