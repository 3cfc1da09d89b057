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
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
/** Fetches the page made in [from, to] (its own log: what it tried, reached the server or not). */
const fetched = (p, from, to) => p.page.evaluate(([a, b]) => log.filter(([t, k]) => k === 'fetch' && t > a && t < b).length, [from, to]);

/**
 * Checks one pause of page `p` from `t0` to `t1`: nothing fetched or seen in between (20 ms of
 * slack for a request already on its way), and the first request after it `wait` ms after `t1`.
 */
async function checkPause(name, p, t0, t1, wait) {
  assert.equal(await fetched(p, t0 + 20, t1), 0, `${name}: the page fetched while paused`);
  assert.deepEqual(seen(p.path, t0 + 20, t1), [], `${name}: the server saw a request while paused`);
  const [next] = seen(p.path, t1, Infinity);
  assert.ok(next !== undefined, `${name}: no request after the pause`);
  const late = next - t1 - wait;
  // The re-drawn wait is the model's (SPEC §13), within the browser's timer slack.
  assert.ok(late >= -30 && late < 400, `${name}: first request ${next - t1} ms after, expected ${wait} ms`);
  console.log(`browser: ${name}: nothing for ${t1 - t0} ms, then a request ${next - t1} ms after (model's re-drawn wait ${wait} ms)`);
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
  assert.deepEqual(await a.page.evaluate(() => log.filter((l) => l[1] !== 'fetch' && l[1] !== 'sleep').map((l) => l.slice(1))),
    [['offline', false], ['online', true]]);
  await checkPause('offline', a, t0, t1, redrawn(1, 1, 1000));
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
  await checkPause('hidden', b, h0, h1, redrawn(7, 1, 1000));

  // 3. Frozen (Chromium hides the page, fires freeze, and stops its timers), then resumed (it
  // fires resume; the page is still hidden) and brought to the front.
  const c = await open(real.context, 'frozen', 42, 1000);
  await c.page.evaluate(() => {
    for (const t of ['freeze', 'resume']) document.addEventListener(t, () => log.push([Date.now(), t]));
  });
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
  await checkPause('frozen, resumed, then shown', c, f0, f1, redrawn(42, 1, 1000));
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
  const bins = [0, 0, 0, 0, 0];
  for (const p of pages) {
    // Each page's own offline spell: from its offline event to its online event (the 50
    // commands take some ms to send, and a page that was still online may fetch meanwhile).
    const [[wentOff], [cameBack]] = await p.page.evaluate(() => ['offline', 'online'].map((k) => log.find((l) => l[1] === k)));
    assert.ok(wentOff >= off && cameBack >= on, `${p.path}: offline ${wentOff - off} ms, online ${cameBack - on} ms after the commands`);
    assert.equal(await fetched(p, wentOff, cameBack), 0, `${p.path} fetched while offline`);
    assert.deepEqual(seen(p.path, wentOff + 20, cameBack), [], `${p.path}: the server saw a request while offline`);
    const [next] = seen(p.path, on, Infinity);
    assert.ok(next !== undefined && next - on < 4400, `${p.path}: no request within the 4 s window`);
    bins[Math.floor((next - on) / 1000)]++;
  }
  console.log(`browser: ${N} pages back online within ${spread} ms; first requests per 1 s bin after: ${bins.join(', ')}`);
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
