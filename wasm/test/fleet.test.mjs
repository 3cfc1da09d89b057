// seedFromDevice() and startupDelay() replay tests/vectors/fleet/fleet.json, written by the
// independent model tests/model/fleet_model.py (SPEC.md §12), through import and require.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;
const vectors = JSON.parse(readFileSync(new URL('../../tests/vectors/fleet/fleet.json', import.meta.url), 'utf8'));

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  test(`${how}: seedFromDevice gives every vector's seed`, () => {
    assert.ok(vectors.seeds.length > 20);
    for (const v of vectors.seeds) {
      const id = Uint8Array.from(Buffer.from(v.id_hex, 'hex'));
      assert.equal(api.seedFromDevice(id, v.boot_counter), BigInt(v.seed), `${v.id_hex}/${v.boot_counter}`);
    }
    // A string id is its UTF-8 bytes.
    assert.equal(api.seedFromDevice('sensor-42', 3), api.seedFromDevice(new TextEncoder().encode('sensor-42'), 3));
  });

  test(`${how}: startupDelay gives every vector's delay`, () => {
    assert.ok(vectors.startup_delays.length > 20);
    let refused = 0;
    for (const v of vectors.startup_delays) {
      if (v.error) {
        // The core's error, named for JS: windowMs.
        assert.equal(v.error, 'window_ms');
        assert.throws(() => api.startupDelay(BigInt(v.seed), v.window_ms), { name: 'RangeError', message: /^windowMs must be in 0\.\.=2147483647/ });
        refused++;
      } else {
        assert.equal(api.startupDelay(BigInt(v.seed), v.window_ms), v.expect_ms, `${v.seed}/${v.window_ms}`);
      }
    }
    assert.ok(refused > 0);
  });

  test(`${how}: bad fleet input names the argument`, () => {
    assert.throws(() => api.seedFromDevice(42, 1), { name: 'TypeError', message: /^id must be a Uint8Array or a string/ });
    assert.throws(() => api.seedFromDevice('x', -1), { name: 'RangeError', message: /^bootCounter must be an integer in 0\.\.=4294967295, got -1/ });
    assert.throws(() => api.seedFromDevice('x'.repeat(300), 1), { name: 'RangeError', message: /^id must be at most 256 bytes, got 300/ });
    assert.throws(() => api.startupDelay(1n, 2 ** 31), { name: 'RangeError', message: /^windowMs must be in 0\.\.=2147483647, got 2147483648/ });
    assert.throws(() => api.startupDelay(1n, 1.5), { name: 'RangeError', message: /^windowMs must be in/ });
    assert.throws(() => api.startupDelay(-1, 10), { name: 'RangeError', message: /^seed must be/ });
  });
}
