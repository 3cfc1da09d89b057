// retry() follows the page's life (SPEC.md §13), in Node with a stand-in page (a document whose
// visibilityState and events the test sets, navigator.onLine, online/offline events on
// globalThis) and node:test's fake setTimeout. Each wait re-drawn after a pause must be the one
// the independent model wrote in tests/vectors/pause/resume.json; headless Chromium checks the
// same against a real page (test/browser/lifecycle.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, mock, test } from 'node:test';
import { esm as api } from './api.mjs';
// The sleep itself, from the sources (which run as they are once pkg/ is built).
import { until } from '../js/pause.js';

const MAX_TIMER = 2 ** 31 - 1;
// retry() loads the engine beside its first attempt: real I/O, which the fake clock below does not
// wait for, so it is loaded once before any test starts the fake clock.
await api.retry(async () => 'warm');
const vectors = JSON.parse(readFileSync(new URL('../../tests/vectors/pause/resume.json', import.meta.url), 'utf8'));
/** The model's re-drawn wait for re-draw `k` of a run seeded `seed` over `windowMs`. */
function redrawn(seed, k, windowMs) {
  const c = vectors.cases.find((v) => v.seed === String(seed) && v.resume === k && v.window_ms === windowMs);
  assert.ok(c, `no vector for seed ${seed}, resume ${k}, window ${windowMs}`);
  return c.expect_ms;
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

// The stand-in page and a fake clock (`clock` is the fake time in ms).
let clock;
let timeouts;
function page() {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  globalThis.document = doc;
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true, writable: true });
  globalThis.addEventListener = win.addEventListener.bind(win);
  globalThis.removeEventListener = win.removeEventListener.bind(win);
  mock.timers.enable({ apis: ['setTimeout'] });
  // Every timer asked for: none may be longer than setTimeout honours.
  timeouts = [];
  const fake = globalThis.setTimeout;
  globalThis.setTimeout = (f, ms, ...a) => (timeouts.push(ms), fake(f, ms, ...a));
  clock = 0;
  const set = (target, event, apply) => async () => {
    apply();
    target.dispatchEvent(new Event(event));
    await flush();
  };
  return {
    hide: set(doc, 'visibilitychange', () => (doc.visibilityState = 'hidden')),
    show: set(doc, 'visibilitychange', () => (doc.visibilityState = 'visible')),
    freeze: set(doc, 'freeze', () => {}),
    resume: set(doc, 'resume', () => {}),
    offline: set(win, 'offline', () => (globalThis.navigator.onLine = false)),
    online: set(win, 'online', () => (globalThis.navigator.onLine = true)),
  };
}

async function tick(ms) {
  for (let left = ms; left > 0; left -= MAX_TIMER) {
    const step = Math.min(left, MAX_TIMER);
    clock += step;
    mock.timers.tick(step);
    await flush();
  }
}

afterEach(() => {
  mock.timers.reset();
  delete globalThis.document;
  delete globalThis.navigator;
  delete globalThis.addEventListener;
  delete globalThis.removeEventListener;
});

/** A retry() whose fn fails `failures` times; `calls` holds the fake time of each call. */
function run(options, failures = 1) {
  const calls = [];
  const done = api.retry(() => {
    calls.push(clock);
    if (calls.length <= failures) throw new Error(`fail ${calls.length}`);
    return 'ok';
  }, options);
  done.catch(() => {});
  return { calls, done };
}

const ONE_S = { initialMs: 1000, maxBackoffMs: 1000, jitter: 'none', maxRetries: 5, seed: 42 };

/** Ticks to just before `at` (the call has not happened), then to `at` (it has). */
async function expectCallAt(calls, n, at) {
  if (at > clock) await tick(at - clock - 1);
  assert.equal(calls.length, n - 1, `call ${n} before ${at} ms`);
  await tick(1);
  assert.equal(calls.length, n, `call ${n} at ${at} ms`);
  assert.equal(calls[n - 1], at);
}

test('offline during a sleep: no attempt until online, then the re-drawn wait (window: the sleep)', async () => {
  const p = page();
  const { calls, done } = run(ONE_S);
  await flush();
  assert.deepEqual(calls, [0]);
  await tick(400);
  await p.offline();
  await tick(900); // the sleep would have ended at 1000; the fallback comes at 400 + 1000
  assert.equal(calls.length, 1);
  await p.online();
  await expectCallAt(calls, 2, 1300 + redrawn(42, 1, 1000));
  assert.equal(await done, 'ok');
});

test('hidden: the sleep does not end however long; on visible, the re-drawn wait', async () => {
  const p = page();
  const { calls, done } = run(ONE_S, 2);
  await flush();
  await tick(400);
  await p.hide();
  await tick(3 * MAX_TIMER);
  assert.equal(calls.length, 1);
  await p.show();
  const second = clock + redrawn(42, 1, 1000);
  await expectCallAt(calls, 2, second);
  // The next sleep is the schedule's own: 1000 ms.
  await expectCallAt(calls, 3, second + 1000);
  assert.equal(await done, 'ok');
});

test("whenHidden 'continue' and offline 'ignore': nothing changes", async () => {
  const p = page();
  const { calls, done } = run({ ...ONE_S, whenHidden: 'continue', offline: 'ignore' });
  await flush();
  await p.hide();
  await p.offline();
  await expectCallAt(calls, 2, 1000);
  assert.equal(await done, 'ok');
});

test('frozen, then resumed: the re-drawn wait, not an attempt at once', async () => {
  const p = page();
  const { calls, done } = run(ONE_S);
  await flush();
  await tick(300);
  await p.freeze();
  await tick(5000);
  assert.equal(calls.length, 1);
  await p.resume();
  await expectCallAt(calls, 2, 5300 + redrawn(42, 1, 1000));
  assert.equal(await done, 'ok');
});

test('offline at the start: the first attempt waits for online (window: the initial delay)', async () => {
  const p = page();
  await p.offline();
  const { calls, done } = run({ ...ONE_S, maxBackoffMs: 60000 }, 0);
  await flush();
  await tick(59000);
  assert.deepEqual(calls, []);
  await p.online();
  await expectCallAt(calls, 1, 59000 + redrawn(42, 1, 1000));
  assert.equal(await done, 'ok');
});

test('navigator.onLine stuck at false: an attempt every maxBackoffMs, spending no retry', async () => {
  const p = page();
  await p.offline();
  const { calls, done } = run({ initialMs: 1000, maxBackoffMs: 4000, jitter: 'none', maxRetries: 0, seed: 7 }, 10);
  await flush();
  // (The fake clock jumps: each fallback timer is reached first, then the re-drawn wait.)
  await tick(4000);
  const first = 4000 + redrawn(7, 1, 1000);
  await expectCallAt(calls, 1, first);
  await tick(4000);
  const second = first + 4000 + redrawn(7, 2, 1000);
  await expectCallAt(calls, 2, second);
  // The online event ends the wait after that failure; online, the next failure is counted:
  // maxRetries 0 gives up at once.
  await p.online();
  await expectCallAt(calls, 3, second + redrawn(7, 3, 1000));
  const err = await done.catch((e) => e);
  assert.ok(err instanceof api.RetryError);
  assert.equal(err.reason, 'max_retries');
  assert.equal(err.attempts, 3);
});

test('the longest delay (2^31 - 1 ms) is slept in full', async () => {
  page();
  const { calls, done } = run({ initialMs: MAX_TIMER, maxBackoffMs: MAX_TIMER, jitter: 'none', maxRetries: 1 });
  await flush();
  await expectCallAt(calls, 2, MAX_TIMER);
  assert.equal(await done, 'ok');
  assert.ok(timeouts.every((ms) => ms <= MAX_TIMER), `timers asked: ${timeouts}`);
});

test('a wait longer than setTimeout honours is slept in pieces', async () => {
  page();
  let ended = false;
  until(2 ** 32 + 5, {}).then(() => (ended = true));
  await tick(2 ** 32);
  assert.equal(ended, false);
  await tick(5);
  assert.equal(ended, true);
  assert.deepEqual(timeouts, [MAX_TIMER, MAX_TIMER, 2 ** 32 + 5 - 2 * MAX_TIMER]);
});

test('an abort during a pause rejects at once', async () => {
  const p = page();
  const controller = new AbortController();
  const { done } = run({ ...ONE_S, signal: controller.signal });
  await flush();
  await p.hide();
  controller.abort(new Error('stop'));
  await assert.rejects(done, /stop/);
});
