// The npm SendRate (SPEC.md §17) through all three entry points (import, require, the
// seeded-backoff/send-rate part): paces derived by hand from the SPEC, the configuration errors
// per field, one object shared by concurrent workers, waitTurn() and its abort, the README snippet.
// The cross-language vectors are replayed in vectors.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';
import * as part from 'seeded-backoff/send-rate';
import { runReadmeSnippet } from './readme-snippet.mjs';
import { replayFile } from './replay.mjs';
import { VECTORS_DIR } from './vectors-fs.mjs';

const cjs = cjsAll;

/** A send rate that learnt 98/s: 100 accepted over the first second, then a throttle (§17.5);
 * burst 1 unless `options` say otherwise, so each send is one interval after the last. */
function learnt(api, options = {}) {
  const r = new api.SendRate({ burst: 1, ...options });
  for (let t = 0; t < 100; t++) r.answer('accepted', 0, t * 10);
  r.answer('throttled', 0, 1000);
  return r;
}

for (const [how, api] of [['import', esm], ['require', cjs], ['seeded-backoff/send-rate', part]]) {
  test(`${how}: off until a throttle, then 98 % of the accepted rate, spaced by its interval (§17.4, §17.5)`, () => {
    const r = new api.SendRate();
    assert.equal(r.rateMilli, 0);
    assert.deepEqual([r.ask(0), r.ask(0)], [{ kind: 'send', ms: 0 }, { kind: 'send', ms: 0 }]);
    const s = learnt(api);
    // span = min(1000 − 1000 + 1000, 1000 − 0) = 1000 ms; 100 accepted -> 100 000; less 20 ‰.
    assert.equal(s.rateMilli, 98_000);
    // interval = 10^9 ÷ 98 000 = 10 204 µs: one send, then ⌈10 204 ÷ 1000⌉ = 11 ms to wait; a
    // caller asking at 1010 is second in line (§17.4 step 5), told 1 020 408 µs: 11 ms again.
    assert.deepEqual([s.ask(1000), s.ask(1000), s.ask(1010)], [{ kind: 'send', ms: 0 }, { kind: 'wait', ms: 11 }, { kind: 'wait', ms: 11 }]);
    assert.deepEqual(s.ask(1011), { kind: 'send', ms: 0 });
    // A bigint clock and a fraction of a ms read as the same ms: next = max(1 010 204, 1 011 000)
    // + 10 204 µs, and the line ends at 1 030 612 µs: 20 ms, then one interval more, 30.
    assert.deepEqual(s.ask(1011n), { kind: 'wait', ms: 20 });
    assert.deepEqual(s.ask(1011.9), { kind: 'wait', ms: 30 });
    // The default burst of 2: allowed = next − interval, so two go at 1000 ms, then 11 ms again.
    const d = learnt(api, { burst: undefined });
    assert.deepEqual([d.ask(1000), d.ask(1000), d.ask(1000)], [{ kind: 'send', ms: 0 }, { kind: 'send', ms: 0 }, { kind: 'wait', ms: 11 }]);
  });

  test(`${how}: a hint holds every attempt whatever the burst; failFast refuses; no_answer learns nothing`, () => {
    const r = new api.SendRate({ burst: 10 });
    r.answer('throttled', 1000, 10);
    assert.deepEqual(r.ask(10), { kind: 'wait', ms: 1000 });
    // The throttle set the rate to its minimum, 1 milli: the first caller's place in line ends
    // 1000 s past the hint, over a second, so the line starts again at the hint's end (§17.4).
    assert.deepEqual(r.ask(1009), { kind: 'wait', ms: 1 });
    const f = learnt(api, { failFast: true });
    assert.deepEqual([f.ask(1000), f.ask(1000)], [{ kind: 'send', ms: 0 }, { kind: 'refuse', ms: 11 }]);
    const n = learnt(api);
    n.answer('no_answer', 0, 1200);
    assert.equal(n.rateMilli, 98_000);
    // maxHoldMs caps the hold.
    const m = new api.SendRate({ maxHoldMs: 200 });
    m.answer('throttled', 5000, 0);
    assert.deepEqual(m.ask(0), { kind: 'wait', ms: 200 });
  });

  test(`${how}: bad configuration names the field and its range; bad calls change nothing`, () => {
    const bad = [
      [{ maxRateMilli: 0 }, RangeError, /^maxRateMilli must be in 1\.\.=1000000000, got 0$/],
      [{ maxRateMilli: 1_000_000_001 }, RangeError, /^maxRateMilli must be in 1\.\.=1000000000/],
      [{ minRateMilli: 0 }, RangeError, /^minRateMilli must be in 1\.\.=maxRateMilli, got 0$/],
      [{ minRateMilli: 11, maxRateMilli: 10 }, RangeError, /^minRateMilli must be in 1\.\.=maxRateMilli, got 11$/],
      [{ marginPermille: 501 }, RangeError, /^marginPermille must be in 1\.\.=500, got 501$/],
      [{ probeMs: 9 }, RangeError, /^probeMs must be in 10\.\.=60000, got 9$/],
      [{ probeFirstPermille: 251 }, RangeError, /^probeFirstPermille must be in 1\.\.=probeMaxPermille, got 251$/],
      [{ probeMaxPermille: 1001, probeFirstPermille: 5 }, RangeError, /^probeMaxPermille must be in 1\.\.=1000, got 1001$/],
      [{ guardMs: 60_001 }, RangeError, /^guardMs must be in 0\.\.=60000/],
      [{ burst: 0 }, RangeError, /^burst must be in 1\.\.=1000, got 0$/],
      [{ maxHoldMs: 3_600_001 }, RangeError, /^maxHoldMs must be in 0\.\.=3600000/],
      [{ burst: 1.5 }, RangeError, /^burst must be in 1\.\.=1000/],
      [{ burst: '5' }, TypeError, /^burst must be a number in 1\.\.=1000, got "5"$/],
      [{ burst: null }, TypeError, /^burst must be/],
      [{ failFast: 1 }, TypeError, /^failFast must be a boolean, got 1$/],
      [{ rate: 5 }, TypeError, /unknown option "rate"/],
    ];
    for (const [options, Err, message] of bad) {
      assert.throws(() => new api.SendRate(options), (e) => e instanceof Err && message.test(e.message), JSON.stringify(options));
    }
    // The first field out of range in the core's order (SPEC §17.1) is named.
    assert.throws(() => new api.SendRate({ burst: 0, maxRateMilli: 0 }), /^RangeError: maxRateMilli/);
    const r = learnt(api);
    for (const now of [-1, Number.NaN, Infinity, '5', 2n ** 64n]) {
      assert.throws(() => r.ask(now), (e) => (e instanceof RangeError || e instanceof TypeError) && /^nowMs/.test(e.message));
      assert.throws(() => r.answer('throttled', 0, now), /Error: nowMs/);
    }
    assert.throws(() => r.answer('refused'), /^RangeError: kind must be one of 'accepted', 'throttled', 'no_answer', got "refused"$/);
    assert.throws(() => r.answer(429), /^TypeError: kind must be one of/);
    assert.throws(() => r.answer('throttled', -1, 1000), /^RangeError: hintMs must be an integer in 0\.\.=4294967295, got -1$/);
    assert.throws(() => r.answer('throttled', 2 ** 32, 1000), /^RangeError: hintMs/);
    // Nothing changed: the rate and the first send are the learnt ones.
    assert.equal(r.rateMilli, 98_000);
    assert.deepEqual([r.ask(1000), r.ask(1000)], [{ kind: 'send', ms: 0 }, { kind: 'wait', ms: 11 }]);
  });

  test(`${how}: two send rates keep their own words; 50 workers asking at once get one send`, () => {
    const a = learnt(api);
    const b = new api.SendRate();
    b.answer('throttled', 0, 0);
    assert.deepEqual(a.ask(1000), { kind: 'send', ms: 0 });
    assert.deepEqual(b.ask(1000), { kind: 'send', ms: 0 });
    assert.deepEqual(a.ask(1000), { kind: 'wait', ms: 11 });
    const shared = learnt(api);
    const paces = Array.from({ length: 50 }, () => shared.ask(1000).kind);
    assert.deepEqual([paces.filter((k) => k === 'send').length, paces.filter((k) => k === 'wait').length], [1, 49]);
  });
}

test('waitTurn() sleeps out the wait, resolves the send; failFast resolves the refusal; abort rejects', async () => {
  const r = new esm.SendRate();
  r.answer('throttled', 120);
  const t0 = performance.now();
  assert.deepEqual(await r.waitTurn(), { kind: 'send', ms: 0 });
  assert.ok(performance.now() - t0 >= 110, `${performance.now() - t0} ms`);
  const f = new esm.SendRate({ failFast: true });
  f.answer('throttled', 5000);
  assert.equal((await f.waitTurn()).kind, 'refuse');
  const h = new esm.SendRate();
  h.answer('throttled', 60_000);
  const c = new AbortController();
  const pending = h.waitTurn({ signal: c.signal });
  setTimeout(() => c.abort(new Error('stop')), 20);
  await assert.rejects(pending, /stop/);
  await assert.rejects(h.waitTurn({ signal: AbortSignal.abort(new Error('gone')) }), /gone/);
});

test('the send-rate vectors: a changed expectation fails the replay; no clock beyond 2^53 but u64::MAX', () => {
  const text = readFileSync(`${VECTORS_DIR}send-rate.json`, 'utf8');
  const big = [...text.matchAll(/\d{16,}/g)].map((m) => BigInt(m[0])).filter((v) => v > BigInt(Number.MAX_SAFE_INTEGER));
  assert.ok(big.length > 0 && big.every((v) => v === 2n ** 64n - 1n), big.join(', '));
  const file = JSON.parse(text);
  assert.ok(replayFile(esm, file) > 100);
  const c = file.cases.find((k) => k.expect.some((e) => e.ms > 0));
  const e = c.expect.find((x) => x.ms > 0);
  e.ms += 1;
  assert.throws(() => replayFile(esm, file), /send_rate case .* got .*Rust gave/);
  e.ms -= 1;
  file.errors[0].config.max_rate_milli = 5;
  assert.throws(() => replayFile(esm, file), /send_rate error 0/);
});

test("wasm/README.md's send-rate snippet runs as pasted", () => {
  const out = runReadmeSnippet('## One send rate for a process', 30_000);
  assert.match(out, /^served \d+, refused \d+, rate \d+\.\d\/s\n$/);
});

test('an answer with its send time cuts once per flight (SPEC §17.5, by hand)', () => {
  // 100 accepted over 1 s, a throttle at 1000 cuts to 98/s; a throttle of an attempt sent at 990
  // (before the cut) cuts nothing, one sent at 1000 cuts to 96.04/s.
  const rate = new esm.SendRate();
  for (let t = 0; t < 100; t++) rate.answer('accepted', 0, t * 10);
  rate.answer('throttled', 0, 1000);
  assert.equal(rate.rateMilli, 98000);
  rate.answer('throttled', 0, 1010, 990);
  assert.equal(rate.rateMilli, 98000);
  rate.answer('throttled', 0, 1020, 1000n);
  assert.equal(rate.rateMilli, 96040);
  assert.throws(() => rate.answer('throttled', 0, 1030, -1), { name: 'RangeError', message: /^sentMs must be/ });
});
