// One driver and one budget for the tabs of an origin, in headless Chromium against the logging
// server of outbox-server.mjs:
//  1. ten tabs each send a POST to a failing endpoint with the outbox and a SharedRetryBudget:
//     only the driver tab fetches; the server's request count against ten uncoordinated tabs
//     (fetchWithBackoff, each with its own budget) is reported;
//  2. ten tabs each run plain fetchWithBackoff() with the SharedRetryBudget: one budget is spent;
//  3. ten tabs send, the driver's tab is closed mid-schedule: another tab drives, every request
//     is applied exactly once, and every remaining tab gets its outcome;
//  4. the driver's tab closed with a request applied but not yet answered: sent again with its
//     key, applied once;
//  5. three tabs without Web Locks: the IndexedDB lease elects one driver, and another takes over
//     when its tab closes.
// About 40 s (bounded at 180 s). Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { finish, launch } from './chromium.mjs';
import { openPage, sleep, until } from './outbox.mjs';
import { outboxServer } from './outbox-server.mjs';

const N = 10;
// A quick schedule (0.2 s doubling to 1.6 s) and gRFC A6 budget: retries stop once 5 of its 10
// tokens are spent.
const FAST = { initialMs: 200, multiplier: 2, maxBackoffMs: 1600, jitter: 'google', jitterMs: 200, maxRetries: 10, maxElapsedMs: 0 };
const BUDGET = { mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 };

const errors = [];
const server = await outboxServer();
const { context, close } = await launch(180000);
const tabs = (name, extra = '', policy = FAST) => Promise.all(Array.from({ length: N }, () => openPage(context,
  `${server.url}/test/browser/outbox.html?name=${name}&policy=${encodeURIComponent(JSON.stringify(policy))}${extra}`, errors)));
const settled = (path, n, ms) => until(`${n} outcomes on ${path}`, () => server.seen(path).length >= n, ms);

await finish(async () => {
  const options = `&budgetOptions=${encodeURIComponent(JSON.stringify(BUDGET))}`;
  // Uncoordinated: each tab its own loop and budget.
  server.fail('/ob/solo', Infinity);
  const solo = await tabs('solo', options);
  const soloResults = await Promise.all(solo.map((p, i) => p.evaluate(([s]) => plain('/ob/solo', s), [100 + i])));
  const soloCount = server.seen('/ob/solo').length;
  await Promise.all(solo.map((p) => p.close()));

  // The outbox: one driver, the shared budget.
  server.fail('/ob/api', Infinity);
  const pages = await tabs('api', `&budget=api${options}`);
  const ids = await Promise.all(pages.map((p, i) => p.evaluate(([s]) => sendLogged('/ob/api', { method: 'POST', body: 'x' }, { seed: s }), [200 + i])));
  await until('every outcome', async () => (await Promise.all(pages.map((p, i) => p.evaluate((id) => results[id] !== undefined, ids[i])))).every(Boolean), 20000);
  const outcomes = await Promise.all(pages.map((p, i) => p.evaluate((id) => results[id], ids[i])));
  const fetchers = await Promise.all(pages.map((p) => p.evaluate(() => fetches.filter(([, u]) => u.includes('/ob/api')).length)));
  const drivers = fetchers.filter((n) => n > 0).length;
  const count = server.seen('/ob/api').length;
  assert.equal(drivers, 1, `requests made by ${drivers} tabs (${fetchers.join(', ')})`);
  assert.ok(outcomes.every((o) => o.code === 'gave-up'), JSON.stringify(outcomes));
  assert.ok(outcomes.filter((o) => o.reason === 'budget').length >= N - 5, 'the shared budget stopped most of them');
  assert.ok(soloResults.every((r) => /gave up/.test(r)));
  console.log(`outbox: ${N} tabs, failing endpoint: the server saw ${count} requests, all from one driver tab `
    + `(${outcomes.filter((o) => o.reason === 'budget').length} gave up on the shared budget); ${N} uncoordinated tabs: ${soloCount}; ratio ${(count / soloCount).toFixed(2)}`);

  // Plain fetchWithBackoff() in every tab, with a fresh shared budget of the same options.
  server.fail('/ob/plain', Infinity);
  await Promise.all(pages.map((p, i) => p.evaluate(([s]) => plain('/ob/plain', s, 'plain'), [300 + i])));
  const plainCount = server.seen('/ob/plain').length;
  assert.ok(plainCount < 0.5 * soloCount, `plain retries with the shared budget: ${plainCount} requests`);
  console.log(`outbox: ${N} tabs, plain fetchWithBackoff() with SharedRetryBudget: ${plainCount} requests; ratio ${(plainCount / soloCount).toFixed(2)} against own budgets`);
  await Promise.all(pages.map((p) => p.close()));

  // The driver's tab closed mid-schedule.
  // (The page's default schedule, 1 s doubling: two attempts each, then the close.)
  const take = await tabs('take', '', null);
  for (let i = 0; i < N; i++) server.fail(`/ob/take-${i}`, 3);
  const tids = await Promise.all(take.map((p, i) => p.evaluate(([u, s]) => sendLogged(u, { method: 'POST', body: 'y' }, { seed: s }), [`/ob/take-${i}`, 400 + i])));
  await until('two attempts each', () => Array.from({ length: N }, (_, i) => server.seen(`/ob/take-${i}`).length).every((n) => n >= 2), 10000);
  const who = await Promise.all(take.map((p) => p.evaluate(() => events.some((e) => e.t === 'drive'))));
  const d = who.indexOf(true);
  assert.equal(who.filter(Boolean).length, 1);
  const closedAt = Date.now();
  await take[d].close();
  const rest = take.filter((_, i) => i !== d);
  for (let i = 0; i < N; i++) await settled(`/ob/take-${i}`, 4, 20000);
  await until('every remaining tab heard its outcome', async () => (await Promise.all(rest.map((p) => p.evaluate(() => Object.values(results).every((r) => r.status === 200) && Object.keys(results).length === 1)))).every(Boolean), 5000);
  const next = await Promise.all(rest.map((p) => p.evaluate(() => events.find((e) => e.t === 'drive')?.at ?? null)));
  const heir = next.filter((t) => t !== null);
  assert.equal(heir.length, 1, 'one new driver');
  let replays = 0;
  for (let i = 0; i < N; i++) {
    const s = server.seen(`/ob/take-${i}`);
    assert.ok(s.every((e) => e.key === s[0].key), `take-${i}: one key`);
    assert.equal(server.applied(s[0].key), 1, `take-${i} applied once`);
    replays += s.filter((e) => e.replayed).length;
  }
  const heard = await Promise.all(rest.map((p) => p.evaluate((id) => events.some((e) => e.t === 'outcome' && e.id === id && e.status === 200), tids[d])));
  assert.ok(heard.every(Boolean), 'the closed tab\'s request: every other tab got its outcome');
  console.log(`outbox: driver tab closed mid-schedule; another took over ${heir[0] - closedAt} ms later; all ${N} requests applied exactly once (${replays} repeats answered from the key); the closed tab's outcome reached the others`);

  // The driver's tab closed while its request is on the way: the server has applied it but not
  // answered. The next driver sends it again with the same key, and the server does not apply it
  // twice.
  const fly = await tabs('fly', '', null);
  const driving = () => Promise.all(fly.map((p) => p.evaluate(() => events.some((e) => e.t === 'drive'))));
  await until('a driver', async () => (await driving()).includes(true), 5000);
  const flyDriver = (await driving()).indexOf(true);
  const sender = fly[(flyDriver + 1) % N];
  server.hold('/ob/fly', 3000);
  const flyId = await sender.evaluate(() => sendLogged('/ob/fly', { method: 'POST', body: 'once' }, { seed: 9 }));
  await until('the request applied', () => server.seen('/ob/fly').length >= 1 && server.seen('/ob/fly')[0].status === 200, 5000);
  await fly[flyDriver].close();
  await until('the sender heard', () => sender.evaluate((id) => results[id] !== undefined, flyId), 15000);
  const f = server.seen('/ob/fly');
  assert.equal((await sender.evaluate((id) => results[id], flyId)).status, 200);
  assert.ok(f.length >= 2 && f.every((e) => e.key === f[0].key), 'sent again with its key');
  assert.equal(server.applied(f[0].key), 1);
  assert.ok(f.slice(1).every((e) => e.replayed));
  console.log(`outbox: driver tab closed with its request applied but unanswered: the next driver sent it again ${f[1].t - f[0].t} ms later with the same key; applied once, the sender got 200`);
  await Promise.all(fly.filter((_, i) => i !== flyDriver).map((p) => p.close()));

  // Without Web Locks (removed before the page's scripts run): the IndexedDB lease elects.
  const M = 3;
  const lease = [];
  for (let i = 0; i < M; i++) {
    const p = await context.newPage();
    p.on('pageerror', (e) => errors.push(String(e)));
    await p.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }));
    await p.goto(`${server.url}/test/browser/outbox.html?name=lease`);
    await p.waitForFunction(() => window.ready);
    lease.push(p);
  }
  assert.equal(await lease[0].evaluate(() => navigator.locks), undefined);
  for (let i = 0; i < M; i++) server.fail(`/ob/lease-${i}`, 2);
  await Promise.all(lease.map((p, i) => p.evaluate(([u, s]) => sendLogged(u, { method: 'POST', body: 'l' }, { seed: s }), [`/ob/lease-${i}`, 500 + i])));
  await until('an attempt each', () => Array.from({ length: M }, (_, i) => server.seen(`/ob/lease-${i}`).length).every((n) => n >= 1), 10000);
  const leaders = await Promise.all(lease.map((p) => p.evaluate(() => fetches.some(([, u]) => u.includes('/ob/lease-')))));
  assert.equal(leaders.filter(Boolean).length, 1, `tabs that fetched: ${leaders}`);
  const gone = leaders.indexOf(true);
  const goneAt = Date.now();
  await lease[gone].close();
  for (let i = 0; i < M; i++) await settled(`/ob/lease-${i}`, 3, 20000);
  const left = lease.filter((_, i) => i !== gone);
  const took = (await Promise.all(left.map((p) => p.evaluate(() => events.find((e) => e.t === 'drive')?.at ?? null)))).filter((t) => t !== null);
  assert.equal(took.length, 1, 'one new driver');
  for (let i = 0; i < M; i++) assert.equal(server.applied(server.seen(`/ob/lease-${i}`)[0].key), 1);
  console.log(`outbox: without Web Locks, ${M} tabs: one driver by the IndexedDB lease; its tab closed, another took over ${took[0] - goneAt} ms later (the lease runs out); all ${M} applied once`);
  assert.deepEqual(errors, []);
}, close, server.close);
