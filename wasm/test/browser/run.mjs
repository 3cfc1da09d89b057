// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core; no browser download):
//  1. test/browser/index.html replays every vector through the browser build (dist/browser/) and
//     runs fetchWithBackoff() against this server's /flaky (503, 503 + Retry-After: 1, 200);
//  2. test/browser/lazy.html imports retry() alone: only the engine parts it uses are fetched;
//  3. test/browser/ratelimit.html: a cross-origin 429's X-RateLimit-Reset is used only when the
//     server exposes it (Access-Control-Expose-Headers), as the README says;
//  4. examples/browser/ draws a schedule; its screenshot is saved to artifacts/wasm/.
// Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FLAKY, startServer } from '../server.mjs';
import { artifacts, finish, launch, serveFile } from './chromium.mjs';

// /dated: a 503 whose Retry-After is an IMF-fixdate 2 s ahead, then 200.
let datedHits = 0;
function serve(req, res, path) {
  if (path !== '/dated') return serveFile(req, res, path);
  const headers = { 'access-control-allow-origin': '*' };
  if (datedHits++ === 0) res.writeHead(503, { ...headers, 'retry-after': new Date(Date.now() + 2000).toUTCString() }).end();
  else res.writeHead(200, headers).end('ok');
  return true;
}
const server = await startServer({ '/flaky': FLAKY, '/flaky-lazy': FLAKY }, serve);
// A second origin (another port) for the cross-origin 429s.
const limited = { 'x-ratelimit-reset': '0.3' };
const other = await startServer({
  '/limited-hidden': [[429, limited], [200]],
  '/limited-exposed': [[429, { ...limited, 'access-control-expose-headers': 'X-RateLimit-Reset' }], [200]],
});
const { context, close } = await launch();
await finish(async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && !/503/.test(m.text()) && errors.push(m.text()));

  console.log(`browser: ${context.browser()?.version() ?? 'chromium'}`);
  await page.goto(`${server.url}/test/browser/index.html`);
  await page.waitForFunction(() => window.testResult, null, { timeout: 60000 });
  const r = await page.evaluate(() => window.testResult);
  if (!r.ok) throw new Error(`browser test page failed: ${r.error}`);
  assert.equal(r.firstDelay, new (await import('seeded-backoff')).Backoff({ seed: 1 }).nextDelay());
  assert.ok(r.files >= 20, `${r.files} vector files`);
  console.log(`browser: ${r.files} vector files, ${r.checks} results bit-identical to Rust`);
  assert.equal(r.status, 200);
  assert.equal(r.body, '200 #3');
  assert.deepEqual(r.delays, [[r.expected[0], 503], [1000, 503]]);
  assert.equal(server.hits('/flaky'), 3);
  assert.ok(r.retryMs >= 1000, `retry took ${r.retryMs} ms`);
  console.log(`browser: fetchWithBackoff 503, 503 + Retry-After: 1, 200 in ${r.retryMs.toFixed(0)} ms, delays ${JSON.stringify(r.delays)}`);
  assert.equal(r.abortErr, 'stop');
  // The sleep is 60 s: a rejection within a tenth of it is abort() ending the sleep, not the sleep
  // ending (it takes about 1 ms).
  assert.ok(r.abortMs < 6000, `abort took ${r.abortMs} ms`);
  console.log(`browser: abort during a 60 s sleep rejected after ${r.abortMs.toFixed(1)} ms`);

  // Pay for what you use: a page that imports only retry() fetches the main part; the date part
  // only once an HTTP-date Retry-After arrives; never the snapshot, budget or fleet parts.
  const lazy = await context.newPage();
  lazy.on('pageerror', (e) => errors.push(String(e)));
  await lazy.goto(`${server.url}/test/browser/lazy.html`);
  await lazy.waitForFunction(() => window.testResult, null, { timeout: 60000 });
  const l = await lazy.evaluate(() => window.testResult);
  if (!l.ok) throw new Error(`lazy page failed: ${l.error}`);
  // The engine parts a page fetched (each part's module is named after it; its JS build after
  // the part with ".asm"): the main part is inside retry.js itself.
  const wasm = (paths) => paths.map((p) => p.split('/').pop()).filter((f) => /-part-|\.asm-/.test(f))
    .map((f) => f.replace(/-[A-Z0-9]+\.js$/, '')).sort();
  assert.deepEqual(l.statuses, [200, 200]);
  assert.ok(!l.beforeDate.some((p) => p.endsWith('.wasm')), 'no .wasm file is ever fetched');
  assert.deepEqual(wasm(l.beforeDate), []);
  assert.deepEqual(wasm(l.after), ['date-part']);
  // Delays: 1 ms, then Retry-After: 1 (1000 ms); then the date's 1000..=2000 ms.
  assert.deepEqual(l.delays.slice(0, 2), [1, 1000]);
  assert.ok(l.delays[2] >= 1000 && l.delays[2] <= 2000, `HTTP-date wait ${l.delays[2]} ms`);
  console.log(`browser: retry() alone fetched ${l.beforeDate.filter((p) => p.startsWith('/dist/')).join(', ')}; an HTTP-date Retry-After then fetched the date part (wait ${l.delays[2]} ms)`);

  const rl = await context.newPage();
  rl.on('pageerror', (e) => errors.push(String(e)));
  rl.on('console', (m) => m.type() === 'error' && !/429/.test(m.text()) && errors.push(m.text()));
  await rl.goto(`${server.url}/test/browser/ratelimit.html?other=${encodeURIComponent(other.url)}`);
  await rl.waitForFunction(() => window.testResult, null, { timeout: 60000 });
  const x = await rl.evaluate(() => window.testResult);
  if (!x.ok) throw new Error(`rate-limit page failed: ${x.error}`);
  assert.deepEqual([x.hidden.status, x.exposed.status], [200, 200]);
  assert.deepEqual(x.hidden.delays, [1], 'an unexposed header is not seen: the policy delay');
  assert.deepEqual(wasm(x.hidden.wasm), []);
  // Exposed: 300 ms plus up to 1000 + 300 / 10 ms of upward jitter.
  assert.ok(x.exposed.delays.length === 1 && x.exposed.delays[0] >= 300 && x.exposed.delays[0] <= 1330,
    `exposed rate-limit wait ${x.exposed.delays}`);
  assert.deepEqual(wasm(x.exposed.wasm), ['date-part']);
  console.log(`browser: a cross-origin 429's X-RateLimit-Reset: 0.3 is ignored unless exposed, then waited ${x.exposed.delays[0]} ms (date part fetched)`);

  await page.setViewportSize({ width: 960, height: 700 });
  await page.goto(`${server.url}/examples/browser/index.html?preset=grpc&maxRetries=10&seed=1`);
  await page.waitForSelector('#chart[data-ready="true"]', { timeout: 30000 });
  const points = Number(await page.getAttribute('#chart', 'data-points'));
  assert.equal(points, 300, 'grpc: 30 clients x 10 retries');
  const circles = await page.locator('#chart circle').count();
  assert.equal(circles, 300);
  mkdirSync(artifacts, { recursive: true });
  const png = join(artifacts, 'example-chart.png');
  await page.screenshot({ path: png, fullPage: true });
  console.log(`browser: example page drew ${circles} points; screenshot ${png}`);
  assert.deepEqual(errors, []);
}, close, server.close, other.close);
