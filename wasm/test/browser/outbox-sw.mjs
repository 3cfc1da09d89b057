// The outbox with the page closed and after a network outage, in headless Chromium against the
// logging server of outbox-server.mjs:
//  1. a page sends a POST through the outbox and closes at once: the service worker (module
//     worker, serveOutbox) delivers it on the model's schedule, and the server applies it once;
//  2. 50 pages (50 origins: each has its own driver, as 50 devices would) wait between attempts,
//     go offline together and come back at one moment: each page's next attempt comes after its
//     §13 re-drawn wait (the model's), spread over the window; the busiest second is reported.
// About 40 s (bounded at 180 s). Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { finish, launch } from './chromium.mjs';
import { MODEL_POLICY, near, openPage, sleep, until } from './outbox.mjs';
import { expect, outboxServer } from './outbox-server.mjs';

const N = 50;
const HERD = { initialMs: 4000, multiplier: 1, maxBackoffMs: 10000, jitter: 'none', maxRetries: 1000, maxElapsedMs: 0 };
const errors = [];
const server = await outboxServer(N);
const { context, close } = await launch(180000);

await finish(async () => {
  // 1. The service worker delivers with the page closed.
  server.fail('/ob/sw', 2);
  const page = await openPage(context, `${server.url}/test/browser/outbox.html?name=sw&sw=/test/browser/outbox-sw.js&drive=false`, errors);
  const sync = await page.evaluate(() => 'SyncManager' in window);
  await page.evaluate(() => box.queue('/ob/sw', { method: 'POST', body: 'from a closed page' }, { seed: 21 }));
  const closedAt = Date.now();
  await page.close();
  // (Only the blank tab Chromium starts with is left.)
  const open = () => context.pages().filter((p) => p.url().startsWith('http')).length;
  assert.equal(open(), 0, 'no page open');
  await until('three attempts', () => server.seen('/ob/sw').length >= 3, 15000);
  const s = server.seen('/ob/sw');
  const m = await expect({ policy: MODEL_POLICY, seed: '21', steps: 2 });
  assert.equal(open(), 0, 'still no page open');
  near('first to second attempt', s[1].t - s[0].t, m.delays[0]);
  near('second to third attempt', s[2].t - s[1].t, m.delays[1]);
  assert.deepEqual(s.map((e) => e.status), [503, 503, 200]);
  assert.equal(server.applied(s[0].key), 1);
  const syncs = server.log.filter((e) => e.path === '/ob/swlog').length;
  console.log(`outbox: service worker, the page closed as soon as the request was stored (first attempt ${s[0].t - closedAt} ms after the close); attempts at +0, +${s[1].t - s[0].t}, +${s[2].t - s[0].t} ms `
    + `(model ${m.delays.join(', ')}); applied once with no page open; Background Sync: ${sync ? `present, ${syncs} sync events` : 'missing (own timers)'}`);

  // 2. 50 pages offline, back online at one moment.
  const policy = encodeURIComponent(JSON.stringify(HERD));
  const pages = [];
  for (let i = 0; i < N; i += 10) {
    pages.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => openPage(context, `${server.urls[i + j]}/test/browser/outbox.html?name=herd&policy=${policy}`, errors)))));
  }
  const path = (i) => `/ob/herd-${i}`;
  for (let i = 0; i < N; i++) server.fail(path(i), Infinity);
  await Promise.all(pages.map((p, i) => p.evaluate(([u, seed]) => sendLogged(u, { method: 'POST', body: 'z' }, { seed }), [path(i), 1000 + i])));
  await until('every first attempt', () => pages.every((_, i) => server.seen(path(i)).length >= 1), 10000);
  const cdps = await Promise.all(pages.map(async (p) => {
    const cdp = await context.newCDPSession(p);
    await cdp.send('Network.enable');
    return (offline) => cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }));
  await sleep(1000);
  await Promise.all(cdps.map((set) => set(true)));
  await sleep(2000);
  await Promise.all(cdps.map((set) => set(false)));
  await sleep(5000);
  const waits = (await expect({ policy: MODEL_POLICY, seed: '0', resumes: pages.map((_, i) => [String(1000 + i), 1, 4000]) })).resumes;
  // Each page's own offline spell, from its offline event to its online event; the spread is that
  // of the waits, each checked above to be what the page waited.
  const bins = [0, 0, 0, 0];
  for (let i = 0; i < N; i++) {
    const [wentOff, cameBack] = await pages[i].evaluate(() => ['offline', 'online'].map((t) => events.find((e) => e.t === t)?.at));
    const fetched = await pages[i].evaluate(([u, a, b]) => [a, b].map((t) => fetches.filter(([at, url]) => url.endsWith(u) && at < t).length), [path(i), wentOff, cameBack]);
    assert.equal(fetched[1] - fetched[0], 0, `${path(i)}: the page fetched while offline`);
    const seen = server.seen(path(i));
    const next = seen.find((e) => e.t > cameBack);
    assert.ok(next, `${path(i)}: no attempt after coming back`);
    assert.ok(seen.indexOf(next) <= fetched[0], `${path(i)}: the server saw a request the page did not make before going offline`);
    near(`${path(i)}: the attempt after coming back`, next.t - cameBack, waits[i]);
    assert.equal(next.port, Number(new URL(server.urls[i]).port));
    bins[Math.floor(waits[i] / 1000)]++;
  }
  const busiest = Math.max(...bins);
  console.log(`outbox: ${N} pages (${N} origins) offline 2 s and back at once: each waited its re-drawn wait (the model's), per 1 s bin: ${bins.join(', ')}; busiest second ${busiest} of ${N} (window 4 s; without the re-draw all ${N} would fire within the same second)`);
  assert.ok(busiest <= 0.4 * N, `a one-second bin holds ${busiest} of ${N}`);
  assert.deepEqual(errors, []);
}, close, server.close);
