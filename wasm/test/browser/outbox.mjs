// seeded-backoff/outbox in headless Chromium against a real server on 127.0.0.1 that logs every
// request and applies each Idempotency-Key once (outbox-server.mjs). Expected times and bytes
// come from the independent Python model (tests/model/outbox_expect.py), not from the package:
//  1. a POST sent while the server fails, the page reloaded mid-schedule: the stored snapshot is
//     the model's after two failures, the next attempt arrives at the stored time, the one after
//     it at the delay the model computes from the stored snapshot, and the server applies it once;
//  2. the page closed past the stored time and opened again: the run re-draws the wait (the
//     model's §13 wait from the moment the new page drives), not fired at once;
//  3. bad storage, each with its observed outcome (outbox-bad.mjs).
// About 40 s (bounded at 180 s). Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { finish, launch } from './chromium.mjs';
import { badStorage } from './outbox-bad.mjs';
import { expect, outboxServer } from './outbox-server.mjs';

export const MODEL_POLICY = { initial_ms: 1000, max_backoff_ms: 16000, jitter: 'google', jitter_ms: 1000, max_retries: 10 };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export async function until(what, fn, ms) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}
/**
 * `got` (ms between events in the server's log, or from a stored time) is the model's `want`:
 * never early, but for the driver's 4 ms (it attempts a record due within 4 ms) and the page's and
 * the server's whole-ms clocks; late by less than the policy's shortest wait (its initial_ms), so
 * the attempt seen is this one and not the schedule's next, however late a timer fires.
 */
export function near(what, got, want) {
  assert.ok(got - want >= -5 && got - want < MODEL_POLICY.initial_ms, `${what}: ${got} ms, the model says ${want} ms`);
}

export async function openPage(context, url, errors) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.ready);
  return page;
}

const errors = [];
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const server = await outboxServer(2);
  const { context, close } = await launch(180000);
  await finish(async () => {
    const at = (name) => `${server.url}/test/browser/outbox.html?name=${name}`;

    // 1. Reloaded mid-schedule.
    server.fail('/ob/reload', 3);
    const page = await openPage(context, at('reload'), errors);
    await page.evaluate(() => sendLogged('/ob/reload', { method: 'POST', body: 'order 1' }, { seed: 99 }));
    await until('two attempts', () => server.seen('/ob/reload').length >= 2, 10000);
    await sleep(300);
    const [rec] = await page.evaluate(() => raw.all('reload'));
    const reloadedAt = Date.now();
    await page.reload();
    await page.waitForFunction(() => window.ready);
    await until('four attempts', () => server.seen('/ob/reload').length >= 4, 20000);
    const s = server.seen('/ob/reload');
    const m = await expect({ policy: MODEL_POLICY, seed: '99', steps: 3, runs: [rec.runHex] });
    const [stored] = m.runs;
    assert.equal(stored.attempt, 2, 'the stored run made two attempts');
    assert.equal(stored.phase, 'sleeping');
    // Version, give-up code, generator, retries and level (bytes 0..28): elapsed_ms and so the CRC
    // follow the page's clock readings (SPEC.md §5 with a clock), which no model can know.
    assert.equal(stored.backoff.slice(0, 56), m.snapshots[1].slice(0, 56), 'the stored run\'s backoff is the model\'s after two failures');
    assert.equal(stored.window_ms, m.delays[1], 'the stored run sleeps the model\'s second delay');
    assert.ok(s[1].t < reloadedAt && reloadedAt < s[2].t, 'the reload came between the second and third attempts');
    near('first to second attempt', s[1].t - s[0].t, m.delays[0]);
    near('third attempt after the stored time', s[2].t - rec.due, 0);
    near('second to third attempt (across the reload)', s[2].t - s[1].t, m.delays[1]);
    near('third to fourth attempt (the model, from the stored run)', s[3].t - s[2].t, stored.next);
    assert.ok(s.every((e) => e.key === s[0].key && e.key), 'one generated Idempotency-Key on every attempt');
    assert.deepEqual(s.map((e) => e.status), [503, 503, 503, 200]);
    assert.equal(server.applied(s[0].key), 1);
    await until('the outcome event', () => page.evaluate((id) => events.some((e) => e.t === 'outcome' && e.id === id && e.status === 200), rec.id), 3000);
    assert.deepEqual(await page.evaluate(() => raw.all('reload')), []);
    console.log(`outbox: reload between attempts 2 and 3; attempts at +0, +${s[1].t - s[0].t}, +${s[2].t - s[0].t}, +${s[3].t - s[0].t} ms `
      + `(model delays ${m.delays.join(', ')}; from the stored run ${stored.next}); third attempt ${s[2].t - rec.due} ms after the stored time; applied once; the reloaded page got the outcome`);

    // 2. Closed past the stored time, opened again: the wait is re-drawn.
    server.fail('/ob/reopen', 1);
    const a = await openPage(context, at('reopen'), errors);
    await a.evaluate(() => sendLogged('/ob/reopen', { method: 'POST', body: 'order 2' }, { seed: 7 }));
    await until('the first attempt', () => server.seen('/ob/reopen').length >= 1, 5000);
    await sleep(300);
    await a.close();
    const [r1] = await (await openPage(context, `${server.url}/test/browser/outbox.html?name=other`, errors)).evaluate(() => raw.all('reopen'));
    await sleep(Math.max(0, r1.due + 1500 - Date.now()));
    const openedAt = Date.now();
    const b = await openPage(context, at('reopen'), errors);
    await b.waitForFunction(() => events.some((e) => e.t === 'drive'));
    const drove = await b.evaluate(() => events.find((e) => e.t === 'drive').at);
    const [r2] = await b.evaluate(() => raw.all('reopen'));
    const [{ window_ms: window }] = (await expect({ policy: MODEL_POLICY, seed: '7', runs: [r1.runHex] })).runs;
    const m2 = await expect({ policy: MODEL_POLICY, seed: '7', resumes: [['7', 1, window]], runs: [r2.runHex] });
    const [wait] = m2.resumes;
    assert.equal(m2.runs[0].redraws, 1, 'one re-draw');
    assert.ok(r2.due - wait >= openedAt - 5 && r2.due - wait <= drove + 5,
      `re-drawn due ${r2.due} is the model's ${wait} ms from the load (${openedAt}..${drove})`);
    await until('the second attempt', () => server.seen('/ob/reopen').length >= 2, 10000);
    const s2 = server.seen('/ob/reopen');
    near('the attempt after reopening, from the re-drawn time', s2[1].t - r2.due, 0);
    assert.equal(server.applied(s2[0].key), 1);
    console.log(`outbox: closed ${openedAt - r1.due} ms past the stored time, reopened: re-drawn wait ${wait} ms (model, window ${window} ms); attempt ${s2[1].t - r2.due} ms after it; applied once`);

    // 3. Bad storage.
    await badStorage(context, server, errors);
    assert.deepEqual(errors, []);
  }, close, server.close);
}
