// retry() follows the page's life, in headless Chromium against a real server on 127.0.0.1 that
// logs every request with its time (SPEC.md §13):
//  1. offline (Network.emulateNetworkConditions; navigator.onLine follows and offline/online
//     fire): no fetch while offline, then the first request after the model's re-drawn wait;
//  2. hidden (another tab in front) and 3. frozen then resumed (Page.setWebLifecycleState), in a
//     Chromium driven without Playwright's focus emulation: the same;
//  4. 50 pages offline, then all back online at one moment: their retries spread over the window
//     (no one-second bin holds more than 40 % of them);
//  5. examples/browser/timeline.html draws a loop going offline and back; screenshot to artifacts/.
// About 50 s (bounded at 150 s). Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server.mjs';
import { artifacts, finish, launch, launchReal, serveFile } from './chromium.mjs';

const vectors = JSON.parse(readFileSync(new URL('../../../tests/vectors/pause/resume.json', import.meta.url), 'utf8'));
const redrawn = (seed, k, windowMs) =>
  vectors.cases.find((c) => c.seed === String(seed) && c.resume === k && c.window_ms === windowMs).expect_ms;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The server's log: [Date.now(), path] of every /life/ request; each answers 503 (the timeline
// example's /life/demo: 200 from its fifth request on).
const log = [];
const server = await startServer({}, (req, res, path) => {
  if (!path.startsWith('/life/')) return serveFile(req, res, path);
  log.push([Date.now(), path]);
  const ok = path === '/life/demo' && log.filter((l) => l[1] === path).length >= 5;
  res.writeHead(ok ? 200 : 503, { 'access-control-allow-origin': '*' }).end();
  return true;
});
const seen = (path, from, to) => log.filter(([t, p]) => p === path && t > from && t < to).map(([t]) => t);

/** The model's re-drawn waits (tests/model/pause_model.py): re-draw `k` of each seed in `seeds`. */
function modelWaits(seeds, k, windowMs) {
  const script = 'import json, sys; sys.path.insert(0, sys.argv[1]); import pause_model as m; ' +
    `print(json.dumps([m.resume_delay_ms(s, ${k}, ${windowMs}) for s in json.loads(sys.argv[2])]))`;
  return JSON.parse(execFileSync('python3', ['-c', script, fileURLToPath(new URL('../../../tests/model', import.meta.url)), JSON.stringify(seeds)], { encoding: 'utf8' }));
}

const errors = [];
async function open(context, id, seed, ms) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/test/browser/lifecycle.html?id=${id}&seed=${seed}&ms=${ms}`);
  await page.waitForFunction(() => window.started);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const offline = (on) => cdp.send('Network.emulateNetworkConditions', { offline: on, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  return { page, cdp, offline, path: `/life/${id}` };
}
const visibility = (p) => p.page.evaluate(() => document.visibilityState);
const OFFLINE = [(l) => l[1] === 'offline', (l) => l[1] === 'online'];
const HIDDEN = [(l) => l[1] === 'visibility' && l[2] === 'hidden', (l) => l[1] === 'visibility' && l[2] === 'visible'];

/**
 * Checks one pause of page `p`, by the page's own log: it began at the first entry `isStart`
 * accepts from `t0` on and ended at the first `isEnd` accepts from `t1` on (Date.now() before the
 * commands). No fetch in between; the server saw nothing the page had not fetched before it; the
 * first fetch after it comes after the last timer the page set, whose ms is the model's re-drawn
 * wait, at least that wait later (Date.now() is whole ms: 1 ms less) and it reaches the server.
 * Order and the loop's own timer decide, not how late a timer fires. Returns the ms from the end of
 * the pause to that fetch.
 */
async function checkPause(name, p, [t0, t1], [isStart, isEnd], wait) {
  const life = await p.page.evaluate(() => window.log);
  const start = life.findIndex((l) => l[0] >= t0 && isStart(l));
  const end = life.findIndex((l, i) => i > start && l[0] >= t1 && isEnd(l));
  assert.ok(start >= 0 && end > start, `${name}: the page logged no pause: ${JSON.stringify(life.slice(-10))}`);
  const fetches = (from, to) => life.slice(from, to).filter((l) => l[1] === 'fetch').length;
  assert.equal(fetches(start, end), 0, `${name}: the page fetched while paused`);
  const f = life.findIndex((l, i) => i > end && l[1] === 'fetch');
  assert.ok(f > end, `${name}: no fetch after the pause`);
  const timer = life.slice(start, f).filter((l) => l[1] === 'timer').at(-1);
  assert.equal(timer?.[2], wait, `${name}: slept ${timer?.[2]} ms after the pause, the model re-draws ${wait} ms`);
  assert.ok(life[f][0] - timer[0] >= wait - 1, `${name}: fetched ${life[f][0] - timer[0]} ms into a ${wait} ms sleep`);
  const at = life[f][0];
  assert.ok(seen(p.path, -Infinity, at).length <= fetches(0, start), `${name}: the server saw a request the page did not make before the pause`);
  assert.ok(seen(p.path, at - 1, Infinity).length > 0, `${name}: the request after the pause did not reach the server`);
  return { paused: life[end][0] - life[start][0], after: at - life[end][0] };
}

async function pauseOf(name, p, times, kinds, wait) {
  const { paused, after } = await checkPause(name, p, times, kinds, wait);
  console.log(`browser: ${name}: nothing for ${paused} ms, then a fetch ${after} ms after (the loop slept the model's re-drawn ${wait} ms)`);
}

const real = await launchReal();
const { context, close } = await launch();
await finish(async () => {
  console.log(`browser: ${context.browser()?.version() ?? 'chromium'}`);
  // 1. Offline, in a page of its own: a 1 s schedule that fails every time.
  const a = await open(context, 'offline', 1, 1000);
  await sleep(2300);
  const t0 = Date.now();
  await a.offline(true);
  assert.equal(await a.page.evaluate(() => navigator.onLine), false, 'navigator.onLine follows the emulated network');
  await sleep(3000);
  const t1 = Date.now();
  await a.offline(false);
  await sleep(2500);
  assert.deepEqual(await a.page.evaluate(() => log.filter((l) => l[1] === 'offline' || l[1] === 'online').map((l) => l.slice(1))),
    [['offline', false], ['online', true]]);
  await pauseOf('offline', a, [t0, t1], OFFLINE, redrawn(1, 1, 1000));
  await a.page.close();

  // 2. Hidden: another tab in front, then this one again.
  const cover = await real.context.newPage();
  const b = await open(real.context, 'hidden', 7, 1000);
  assert.equal(await visibility(b), 'visible');
  await sleep(1500);
  const h0 = Date.now();
  await cover.bringToFront();
  assert.equal(await visibility(b), 'hidden', 'a tab behind another is hidden');
  await sleep(3000);
  const h1 = Date.now();
  await b.page.bringToFront();
  assert.equal(await visibility(b), 'visible');
  await sleep(2000);
  await pauseOf('hidden', b, [h0, h1], HIDDEN, redrawn(7, 1, 1000));

  // 3. Frozen (Chromium hides the page, fires freeze, and stops its timers), then resumed (it
  // fires resume; the page is still hidden) and brought to the front.
  const c = await open(real.context, 'frozen', 42, 1000);
  await sleep(1500);
  const f0 = Date.now();
  await c.cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  await sleep(3000);
  await c.cdp.send('Page.setWebLifecycleState', { state: 'active' });
  await sleep(500);
  assert.equal(await visibility(c), 'hidden', 'resumed, the page is still hidden');
  // (Already the front tab, it becomes visible only when another tab has been in front.)
  await cover.bringToFront();
  const f1 = Date.now();
  await c.page.bringToFront();
  assert.equal(await visibility(c), 'visible');
  await sleep(2000);
  assert.deepEqual(await c.page.evaluate(() => log.filter((l) => l[1] === 'freeze' || l[1] === 'resume').map((l) => l[1])), ['freeze', 'resume']);
  await pauseOf('frozen, resumed, then shown', c, [f0, f1], [(l) => l[1] === 'freeze', HIDDEN[1]], redrawn(42, 1, 1000));
  await real.close();

  // 4. The herd: 50 pages on a 4 s schedule (jitter none: the same delay for all), offline
  // together, back online at one moment.
  const N = 50;
  const pages = [];
  for (let i = 0; i < N; i += 10) pages.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => open(context, `herd-${i + j}`, 1000 + i + j, 4000)))));
  await sleep(1000);
  const off = Date.now();
  await Promise.all(pages.map((p) => p.offline(true)));
  await sleep(2000);
  const on = Date.now();
  await Promise.all(pages.map((p) => p.offline(false)));
  const spread = Date.now() - on;
  await sleep(5000);
  // Each page's own offline spell, from its offline event to its online event (the 50 commands
  // take some ms to send, and a page that was still online may fetch meanwhile); the spread is
  // that of the waits the pages slept, each the model's.
  const waits = modelWaits(pages.map((_, i) => 1000 + i), 1, 4000);
  const bins = [0, 0, 0, 0];
  for (const [i, p] of pages.entries()) {
    await checkPause(p.path, p, [off, on], OFFLINE, waits[i]);
    bins[Math.floor(waits[i] / 1000)]++;
  }
  console.log(`browser: ${N} pages back online within ${spread} ms; each slept its re-drawn wait (the model's), per 1 s bin: ${bins.join(', ')}`);
  assert.ok(Math.max(...bins) <= 0.4 * N, `a one-second bin holds ${Math.max(...bins)} of ${N}`);
  await Promise.all(pages.map((p) => p.page.close()));

  // 5. The example: a retry loop's timeline, offline and back.
  const demo = await context.newPage();
  demo.on('pageerror', (e) => errors.push(String(e)));
  await demo.setViewportSize({ width: 960, height: 560 });
  await demo.goto(`${server.url}/examples/browser/timeline.html?seed=3`);
  const cdp = await context.newCDPSession(demo);
  await cdp.send('Network.enable');
  const set = (offline) => cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await sleep(1700);
  await set(true);
  await sleep(2500);
  await set(false);
  await demo.waitForSelector('#timeline[data-done="true"]', { timeout: 20000 });
  const events = await demo.locator('#timeline .attempt').count();
  assert.equal(events, 5, 'the demo makes five attempts (the fifth gets 200)');
  assert.equal(await demo.locator('#timeline .pause').count(), 1);
  mkdirSync(artifacts, { recursive: true });
  const png = join(artifacts, 'lifecycle-timeline.png');
  await demo.screenshot({ path: png, fullPage: true });
  console.log(`browser: timeline example: ${events} attempts, one offline pause; screenshot ${png}`);
  assert.deepEqual(errors, []);
}, close, real.close, server.close);
