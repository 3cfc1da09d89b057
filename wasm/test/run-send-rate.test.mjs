// A run paced by a shared SendRate (SPEC.md §15.2) through retry(), fetchWithBackoff() and Run:
// the rate asked before every attempt (the first included) and told every answer, a fail-fast
// refusal as a RetryError 'throttled' with no cause, a wait past the deadline as 'deadline', a
// bad option named; the run_send_rate vectors, and that a changed expectation fails them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { esm } from './api.mjs';
import { runReadmeSnippet } from './readme-snippet.mjs';
import { replayFile } from './replay.mjs';
import { VECTORS_DIR } from './vectors-fs.mjs';

const { fetchWithBackoff, retry, RetryError, Run, SendRate } = esm;

test('the run_send_rate vectors replay; a changed expectation fails them', () => {
  const file = JSON.parse(readFileSync(`${VECTORS_DIR}run-send-rate.json`, 'utf8'));
  assert.ok(replayFile(esm, file) > 50);
  const wait = file.cases.flatMap((c) => c.expect).find((x) => x.a === 'wait');
  wait.delay_ms += 1;
  assert.throws(() => replayFile(esm, file), /case \d+ .* got .*Rust gave/);
  wait.delay_ms -= 1;
  const c = file.cases.find((k) => k.expect_rate_milli !== undefined) ?? file.cases[0];
  c.expect_rate_milli = (c.expect_rate_milli ?? 0) + 1;
  assert.throws(() => replayFile(esm, file), /rate: got/);
});

test('retry(): a held send rate makes the first attempt wait; its answers reach the rate', async () => {
  const rate = new SendRate();
  rate.answer('throttled', 150); // a 150 ms hint holds every attempt (§17.5)
  const t0 = performance.now();
  const at = [];
  const value = await retry(() => {
    at.push(performance.now() - t0);
    return 'ok';
  }, { sendRate: rate });
  assert.equal(value, 'ok');
  assert.equal(at.length, 1);
  assert.ok(at[0] >= 140, `the first attempt went after ${at[0]} ms, inside the 150 ms hint`);
});

test('retry(): failFast refuses before the first attempt: RetryError throttled, 0 attempts, no cause', async () => {
  const rate = new SendRate({ failFast: true });
  rate.answer('throttled', 5000);
  let calls = 0;
  const e = await retry(() => calls++, { sendRate: rate }).catch((x) => x);
  assert.ok(e instanceof RetryError, String(e));
  assert.equal(e.reason, 'throttled');
  assert.equal(e.attempts, 0);
  assert.ok(!('cause' in e));
  assert.equal(calls, 0);
  assert.match(e.message, /^gave up after 0 attempts \(throttled\)$/);
});

test('retry(): a wait past maxElapsedMs gives up deadline before any attempt', async () => {
  const rate = new SendRate();
  rate.answer('throttled', 60_000);
  let calls = 0;
  const e = await retry(() => calls++, { sendRate: rate, maxElapsedMs: 1000 }).catch((x) => x);
  assert.equal(e.reason, 'deadline');
  assert.equal(e.attempts, 0);
  assert.equal(calls, 0);
});

test('a sendRate that is no SendRate is a TypeError naming it, before any attempt', async () => {
  let calls = 0;
  for (const bad of [{}, 1, null, { ask() {}, answer() {} }]) {
    await assert.rejects(retry(() => calls++, { sendRate: bad }), (e) => e instanceof TypeError && /^sendRate must be a SendRate/.test(e.message));
    await assert.rejects(fetchWithBackoff('http://127.0.0.1:9/', {}, { sendRate: bad }), TypeError);
    assert.throws(() => new Run(new esm.Policy(), { sendRate: bad }), /^TypeError: sendRate must be a SendRate/);
  }
  assert.equal(calls, 0);
  assert.throws(() => new Run(new esm.Policy(), { sendRate: new SendRate() }).outcome('success', 0, 'maybe'), /answer kind/);
});

test('fetchWithBackoff(): a 429 is told as a throttle (the core reads the status), a 200 as accepted', async () => {
  let n = 0;
  const server = createServer((req, res) => {
    res.writeHead(n++ === 0 ? 429 : 200).end('x');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    const rate = new SendRate();
    const res = await fetchWithBackoff(url, {}, { sendRate: rate, initialMs: 10, jitter: 'none' });
    assert.equal(res.status, 200);
    assert.equal(n, 2);
    // Off until the first throttle (§17.5): the 429 turned it on.
    assert.ok(rate.rateMilli > 0, `rate ${rate.rateMilli}`);
    // A thrown error without a Response is no answer: a fresh rate stays off.
    const quiet = new SendRate();
    let calls = 0;
    await retry(() => {
      if (calls++ === 0) throw new Error('reset');
      return 1;
    }, { sendRate: quiet, initialMs: 10 });
    assert.equal(quiet.rateMilli, 0);
  } finally {
    server.close();
  }
});

test("wasm/README.md's sendRate snippet runs as pasted", () => {
  const out = runReadmeSnippet('### retry() and fetchWithBackoff() behind a send rate', 30_000);
  assert.match(out, /^served \d+ of 40 in \d+\.\d s, rate \d+\.\d\/s\n$/);
});

test('a run mixes paced and plain events (SPEC §15.2): an event given { sendRate } is paced by it, { sendRate: undefined } is plain', async () => {
  const { refusingRate } = await import('./send-rate-fixtures.mjs');
  const policy = new esm.Policy();
  // A plain run whose start is paced by a refusing rate: the core's give-up, nothing attempted.
  assert.deepEqual(new esm.Run(policy, { seed: 1 }).start(0, { sendRate: refusingRate(esm.SendRate) }),
    { type: 'give_up', attempts: 0, reason: 'throttled' });
  // A run made with that rate, whose start is given none: plain, attempt 1.
  const run = new esm.Run(policy, { seed: 1, sendRate: refusingRate(esm.SendRate) });
  assert.deepEqual(run.start(0, { sendRate: undefined }), { type: 'attempt', attempt: 1 });
  assert.throws(() => run.outcome('success', 1, undefined, { sendrate: 1 }), { name: 'TypeError', message: /sendrate/ });
  assert.throws(() => run.outcome('success', 1, undefined, { sendRate: {} }), { name: 'TypeError', message: /^sendRate must be a SendRate/ });
  assert.equal(run.phase, 'attempting');
});

test('behind a send rate, retry() resolves with what fn returned, a number too (no answer code)', async () => {
  const sendRate = new esm.SendRate();
  assert.equal(await esm.retry(() => 5, { sendRate }), 5);
  assert.equal(await esm.retry(() => 404, { sendRate }), 404);
  assert.equal(sendRate.rateMilli, 0);
});
