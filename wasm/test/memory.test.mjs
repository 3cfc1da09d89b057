// Creating and freeing objects must not grow the wasm heap (nothing leaks per object).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as esm from 'seeded-backoff';

const cjs = createRequire(import.meta.url)('seeded-backoff');

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  test(`${how}: 1e6 Backoffs created and freed do not grow wasm memory`, () => {
    for (let i = 0; i < 1000; i++) new api.Backoff({ seed: i }).free();
    const before = api.wasmMemoryBytes();
    const t0 = performance.now();
    for (let i = 0; i < 1e6; i++) {
      const b = new api.Backoff({ preset: 'google', seed: i });
      b.nextDelay();
      b.free();
    }
    const after = api.wasmMemoryBytes();
    console.log(`${how}: wasm memory ${before} -> ${after} bytes over 1e6 create/free (${((performance.now() - t0) / 1e3).toFixed(2)} µs each)`);
    assert.equal(after, before);
  });

  test(`${how}: the leak check can see a leak`, () => {
    const before = api.wasmMemoryBytes();
    const kept = [];
    for (let i = 0; i < 50000; i++) kept.push(new api.Backoff({ seed: i }));
    assert.ok(api.wasmMemoryBytes() > before);
    for (const b of kept) b.free();
  });

  test(`${how}: 1e5 RetryBudgets created and freed do not grow wasm memory`, () => {
    new api.RetryBudget().free();
    const before = api.wasmMemoryBytes();
    for (let i = 0; i < 1e5; i++) new api.RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 }).free();
    assert.equal(api.wasmMemoryBytes(), before);
  });
}
