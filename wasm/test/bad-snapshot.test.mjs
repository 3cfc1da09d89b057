// Bad snapshots: truncated, extended, oversized, bit-flipped, foreign and forged bytes are refused
// by restore() with the core's reason (a RangeError with `code`), never a wasm trap; a forged but
// reachable state restores and runs without wrapping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

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

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const { Backoff, Policy, snapshot, restore } = api;

  test(`${how}: the CRC-32 used to forge snapshots agrees with the package's`, () => {
    const bytes = snapshot(new Backoff({ preset: 'google', seed: 5 }));
    assert.equal(new DataView(bytes.buffer).getUint32(36, true), crc32(bytes.subarray(0, 36)));
    assert.deepEqual(forge(bytes), bytes);
  });

  test(`${how}: truncated, extended and bit-flipped snapshots are refused with the failing check`, () => {
    const options = { preset: 'google' };
    const live = new Backoff({ ...options, seed: 99 });
    live.nextDelay();
    const snap = snapshot(live);
    const extended = new Uint8Array(41);
    extended.set(snap);
    for (const bytes of [new Uint8Array(0), snap.slice(0, 1), snap.slice(0, 20), snap.slice(0, 39), extended, new Uint8Array(256)]) {
      assert.throws(() => restore(options, bytes), { name: 'RangeError', code: 'wrong_length', message: /40/ }, `${bytes.length} bytes`);
    }
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const bad = snap.slice();
        bad[i] ^= 1 << bit;
        assert.throws(() => restore(options, bad), (e) => {
          assert.ok(e instanceof RangeError);
          assert.equal(e.code, i === 0 ? 'unknown_version' : 'bad_checksum', `byte ${i} bit ${bit}`);
          return true;
        });
        refused++;
      }
    }
    assert.equal(refused, 320);
    for (const [bytes, shown] of [
      [Array.from(snap), 'an array'],
      [snap.buffer, 'an object'],
      [new DataView(snap.buffer), 'an object'],
      ['x'.repeat(40), `"${'x'.repeat(40)}"`],
      [null, 'null'],
      [undefined, 'undefined'],
    ]) {
      const message = new RegExp(`^bytes must be a Uint8Array \\(from snapshot\\(\\)\\), got ${shown.replace(/[()]/g, '\\$&')}$`);
      assert.throws(() => restore(options, bytes), refusedWith(TypeError, message));
    }
    assert.deepEqual(snapshot(live), snap);
  });

  test(`${how}: bytes longer than the buffer are a RangeError, never a wasm trap`, () => {
    const snap = snapshot(new Backoff({ seed: 3 }));
    for (const n of [257, 300, 4096, 65537, 1 << 20]) {
      const bytes = new Uint8Array(n);
      bytes.set(snap);
      assert.throws(() => restore({}, bytes), refusedWith(RangeError, new RegExp(`^bytes must be at most 256 bytes, got ${n}$`)));
    }
    // A view into a larger buffer counts its own bytes only.
    const big = new Uint8Array(1000);
    big.set(snap, 500);
    assert.equal(restore({}, big.subarray(500, 540)).retries, 0);
    // The package still works after each refusal.
    assert.deepEqual(snapshot(restore({}, snap)), snap);
  });

  test(`${how}: snapshot() takes a Backoff or a Run, and nothing else`, () => {
    for (const [v, shown] of [[{}, 'an object'], [null, 'null'], [new Policy(), 'an object'], [snapshot, 'a function']]) {
      assert.throws(() => snapshot(v), refusedWith(TypeError, new RegExp(`^backoff must be a Backoff or a Run, got ${shown}$`)));
    }
  });

  test(`${how}: restoreRun() refuses a non-Policy, non-bytes, a Backoff's snapshot and damaged bytes, naming why`, () => {
    const policy = new Policy();
    const run = new api.Run(policy, { seed: 5 });
    run.start(0);
    const bytes = snapshot(run);
    assert.equal(bytes.length, 100);
    assert.throws(() => api.restoreRun({ preset: 'google' }, bytes), refusedWith(TypeError, /^policy must be a Policy, got an object$/));
    assert.throws(() => api.restoreRun(policy, [...bytes]), refusedWith(TypeError, /^bytes must be a Uint8Array/));
    assert.throws(() => api.restoreRun(policy, snapshot(new Backoff({ seed: 1 }))), (e) => e instanceof RangeError && e.code === 'wrong_length');
    const damaged = bytes.slice();
    damaged[40] ^= 1;
    assert.throws(() => api.restoreRun(policy, damaged), (e) => e instanceof RangeError && e.code === 'bad_checksum');
    assert.throws(() => api.restoreRun(new Policy({ preset: 'aws_standard' }), bytes), (e) => e instanceof RangeError && e.code === 'policy_mismatch');
    assert.throws(() => api.restoreRun(policy, bytes, { budget: 3 }), refusedWith(TypeError, /^budget must be/));
    const again = api.restoreRun(policy, bytes);
    assert.equal(again.phase, 'attempting');
    assert.equal(again.seed, 5n);
  });

  test(`${how}: foreign and forged snapshots are refused with the core's reason`, () => {
    const options = { preset: 'google' };
    const snap = snapshot(new Backoff({ ...options, seed: 8 }));
    const refused = (bytes, code, message) =>
      assert.throws(() => restore(options, bytes), (e) => {
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
    assert.throws(() => restore({ preset: 'google_64s' }, snap), { name: 'RangeError', code: 'policy_mismatch' });
    assert.throws(() => restore({ preset: 'google', maxRetries: 11 }, snap), { code: 'policy_mismatch' });
    assert.throws(() => restore(new Policy({ preset: 'grpc' }), snap), { code: 'policy_mismatch', message: /different policy/ });
    refused(forge(snap, { 4: 0, 8: 0, 12: 0, 16: 0 }), 'zero_rng_state', /./);
    // Zero rng words are reported before a reserved-byte fault (SPEC §9 order).
    const both = snap.slice();
    both[2] = 1;
    refused(forge(both, { 4: 0, 8: 0, 12: 0, 16: 0 }), 'zero_rng_state', /./);
    const reserved = snap.slice();
    reserved[2] = 1;
    refused(forge(reserved), 'invalid_state', /./);
    const code6 = snap.slice();
    code6[1] = 6; // give-up codes are 1..=5
    refused(forge(code6), 'invalid_state', /./);
    refused(forge(snap, { 20: 11 }), 'invalid_state', /./);
    refused(forge(snap, { 24: 999 }), 'invalid_state', /./);
    refused(forge(snap, { 24: 32001 }), 'invalid_state', /./);
    // The largest reachable values restore and run.
    const edge = restore(options, forge(snap, { 20: 10, 24: 32000 }));
    assert.equal(edge.retries, 10);
    assert.equal(edge.nextDelay(), null);
    assert.equal(edge.giveUpReason, 'max_retries');
  });

  test(`${how}: a refused restore changes no Backoff, whichever is being stepped`, () => {
    const policy = new Policy({ preset: 'google' });
    const b = new Backoff(policy, 21);
    const twin = new Backoff(policy, 21);
    assert.equal(b.nextDelay(), twin.nextDelay());
    const good = snapshot(b);
    const bad = good.slice();
    bad[30] ^= 4;
    for (const call of [
      () => restore(policy, bad),
      () => restore(policy, new Uint8Array(300)),
      () => restore({ preset: 'grpc' }, good),
      () => restore({ initialMs: 0 }, good),
      () => restore(policy, [1, 2, 3]),
    ]) {
      const before = snapshot(b);
      assert.throws(call, (e) => e instanceof TypeError || e instanceof RangeError);
      assert.deepEqual(snapshot(b), before);
      assert.equal(b.nextDelay(), twin.nextDelay());
    }
  });

  test(`${how}: retry numbers near 2^32-1 (reached through a forged snapshot): no wrap`, () => {
    const options = { preset: 'google', maxRetries: 2 ** 32 - 1 };
    const fresh = new Backoff({ ...options, seed: 11 });
    const b = restore(options, forge(snapshot(fresh), { 20: 2 ** 32 - 2, 24: 32000 }));
    assert.equal(b.retries, 2 ** 32 - 2);
    const d = b.nextDelay();
    assert.ok(Number.isInteger(d) && d >= 1 && d <= 32000, `${d}`);
    assert.equal(b.retries, 2 ** 32 - 1);
    assert.equal(b.nextDelay(), null);
    assert.equal(b.giveUpReason, 'max_retries');
    assert.equal(b.retries, 2 ** 32 - 1);
  });
}
