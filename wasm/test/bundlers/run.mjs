// Zero configuration: the example app (app/) with the packed package installed from its tarball,
// built by esbuild, Vite, webpack and Rollup with their default settings, and used with no bundler
// through an import map onto dist/browser/; Node ESM and CommonJS; a Web Worker and a Service Worker.
// Each browser build is served alone (its output folder and the page) by a logging server on
// 127.0.0.1 and opened on a cold page in headless Chromium (in the lab, with 150 ms of emulated
// latency):
//  - Node makes the first attempt in the same tick as the call;
//  - each page ends with the expected answer after the expected number of /api requests, and
//    nothing but the tool's output and the page is requested (no 404, no .wasm);
//  - a cold page that makes its first calls (retry() and fetchWithBackoff()) while offline: no
//    request and no error while the network is gone, both answered once it is back;
//  - the same under `Content-Security-Policy: script-src 'self'` with `import 'seeded-backoff/csp'`,
//    and every vector file is replayed there bit for bit (the page shows that it may not compile
//    WebAssembly: the JS build answered), as without the policy; without that line, such a page
//    makes its first attempt, then ends with the error that names the line;
//  - workers, and p-retry's page as the control, end as expected.
// That is the gate (the default): no timing is measured. With --lab (lab/web-bundlers.sh), the
// figures too, each timing as a `goal: met: ...` or `goal: missed: ...` line (a missed goal is no
// failure):
//  - the first request to /api leaves <= 5 ms after retry() is called: Resource Timing's fetchStart
//    of /api minus performance.now() read just before the call, both in the page's clock, on a
//    Chromium with no DevTools attached (bare.mjs); under DevTools, DevTools' requestWillBeSent is
//    printed beside it;
//  - what the browser fetched, gzip -9 (every response but the page and /api): on the happy path
//    (200 at once) and on a failing one (503, then 200);
//  - under 4x CPU throttling, retry() to its call of fetch() under the strict CSP (<= 20 ms) and
//    with a policy option (<= 10 ms), and the cost of a delay, beside p-retry;
//  - under 4x CPU throttling on a cold page, a first 503 to retry()'s decision of its retry
//    (<= 10 ms: the engine is compiled while the first attempt is in flight).
// Prints a table in the lab; exits non-zero if any functional check failed (every check runs
// first). --table implies --lab: the table alone goes to stdout, as markdown (lab/RESULTS.md's), and
// every other line to stderr.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { bareFirst } from './bare.mjs';
import { files, installApp, rollupBare, TOOLS } from './build.mjs';
import { serve } from './serve.mjs';
import { workerBuild } from './workers.mjs';

const TABLE = process.argv.includes('--table');
const LAB = TABLE || process.argv.includes('--lab');
const print = console.log;
if (TABLE) console.log = console.error;
// The lab's cold pages are many (up to 10 per timing), the gate's few.
const LIMIT_MS = LAB ? 900000 : 480000;
setTimeout(() => { console.error(`FAIL: still running after ${LIMIT_MS / 1000} s`); process.exit(1); }, LIMIT_MS).unref();
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const STRICT = "script-src 'self'";
const P_RETRY = `p-retry ${JSON.parse(readFileSync(new URL('node_modules/p-retry/package.json', import.meta.url), 'utf8')).version}`;
// A phone's round trip, for the lab's timings; the gate's checks are on what was asked for and
// in which order, which no latency changes.
const LATENCY_MS = LAB ? 150 : 0;
const FIRST_MS = 5;
// At 4x CPU under DevTools, retry() to its call of fetch(): with a policy option (bench.js), and under the strict CSP.
const OPTION_SLOW_MS = 10;
const CSP_SLOW_MS = 20;
// At 4x CPU on a cold page: a first failure to retry()'s decision of its retry.
const TIMER_MS = 10;
const HAPPY = [[200]];
const FAILING = [[503], [200]];
const failures = [];
const check = (ok, what) => { if (!ok) { failures.push(what); console.log(`  FAIL: ${what}`); } return ok; };
/** A lab figure against its goal: printed, never failed. */
const goal = (ok, what) => console.log(`goal: ${ok ? 'met' : 'missed'}: ${what}`);

const { tmp, app, tgz } = installApp();
console.log(`app: ${tgz} (npm pack of wasm/) installed by npm install into a copy of app/ in ${tmp}`);

// Node: the first attempt in the same tick, then 503 -> 200 for retry() and fetchWithBackoff().
for (const script of ['node-esm.mjs', 'node-cjs.cjs']) {
  const s = await serve({ root: app, api: [[503], [200], [503], [200]] });
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: app, env: { ...process.env, API: `${s.url}/api` }, timeout: 20000 });
    const r = JSON.parse(stdout);
    check(r.sameTick === 1 && r.retry[0] === 200 && r.fetch[0] === 200 && s.log.length === 4, `${script}: ${stdout.trim()}`);
    console.log(`node ${script}: first attempt in the same tick (${r.sameTick} call), retry ${r.retry}, fetchWithBackoff ${r.fetch}`);
  } catch (e) {
    check(false, `${script}: ${e.message}`);
  } finally {
    await s.close();
  }
}

const bare = rollupBare(app);
console.log(`rollup with no plugin cannot resolve a bare import (it leaves it to the browser, which fails): ${bare.match(/Unresolved dependencies[\s\S]*?imported by[^\n]*/)?.[0].replace(/\s+/g, ' ') ?? bare}`);
console.log('rollup below: the one standard plugin, @rollup/plugin-node-resolve, and output.dir');

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ARGS, headless: true });
console.log(`browser: Chromium ${browser.version()}, ${LATENCY_MS} ms emulated latency, a new context (cold cache) per page`);

/** One cold page of `build`; returns what it ended with, its timings and the server's log. */
async function visit(build, { api = HAPPY, csp, vectors = false, cpu = 1 } = {}) {
  const s = await serve({ root: build.root, pages: build.pages, api, csp, vectors });
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  // When the page's code hands /api to fetch() (its own clock): where retry()'s part ends and the
  // browser's begins. An init script runs whatever the page's Content-Security-Policy says.
  await page.addInitScript(() => {
    const f = globalThis.fetch;
    globalThis.fetch = function (input) {
      if (globalThis.fetchCalled === undefined && new URL(input?.url ?? input, location.href).pathname === '/api') globalThis.fetchCalled = performance.now();
      return f.apply(this, arguments);
    };
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 });
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  // When each /api request leaves the page: DevTools' requestWillBeSent (wall clock, in ms).
  // And the order in which the page asked for everything (the order the renderer issued them in,
  // whatever order they reach the server in).
  const sent = [];
  const order = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    const path = new URL(e.request.url).pathname;
    order.push(path);
    if (path === '/api') sent.push(e.wallTime * 1000);
  });
  try {
    await page.goto(`${s.url}/index.html`);
    await page.waitForFunction(() => globalThis.result, null, { timeout: 30000 });
    const v = await page.evaluate(() => ({
      result: globalThis.result,
      t0: globalThis.t0,
      fetchCalled: globalThis.fetchCalled,
      origin: performance.timeOrigin,
      api: globalThis.apiTimes ?? performance.getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === '/api').map((e) => ({ fetchStart: e.fetchStart, requestStart: e.requestStart })),
    }));
    // retry() to the first request: by DevTools where the page made it, else (a worker's request) by
    // the worker's Resource Timing (fetchStart, in the worker's clock).
    v.first = sent.length ? sent[0] - (v.origin + v.t0) : (v.api[0]?.fetchStart ?? NaN) - v.t0;
    v.fetchStart = (v.api[0]?.fetchStart ?? NaN) - v.t0;
    v.called = (v.fetchCalled ?? NaN) - v.t0;
    return { ...v, errors, log: s.log, order };
  } catch (e) {
    return { result: { error: `${e.message.split('\n')[0]}; page errors: ${errors.join(' | ')}` }, errors, log: s.log, order, api: [] };
  } finally {
    await context.close();
    await s.close();
  }
}

/**
 * A cold page of `build` (app/src/offline.js) whose first calls are made while the context is
 * offline: after OFFLINE_MS no /api request, no result and no page error; back online, both calls
 * end with 200 after one /api request each.
 */
const OFFLINE_MS = 1000;
async function offlineVisit(build) {
  const s = await serve({ root: build.root, pages: build.pages });
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.url}/index.html`);
    await page.waitForFunction(() => typeof globalThis.go === 'function', null, { timeout: 30000 });
    await context.setOffline(true);
    await page.evaluate(() => { globalThis.go(); });
    await new Promise((resolve) => setTimeout(resolve, OFFLINE_MS));
    const during = await page.evaluate(() => globalThis.result ?? null);
    const apiOffline = s.log.filter((q) => q.path === '/api').length;
    await context.setOffline(false);
    await page.waitForFunction(() => globalThis.result, null, { timeout: 30000 });
    const after = await page.evaluate(() => globalThis.result);
    const api = s.log.filter((q) => q.path === '/api').length;
    const ok = during === null && apiOffline === 0 && after.status === 200 && api === 2 && errors.length === 0;
    return { ok, what: `offline ${OFFLINE_MS} ms: result ${JSON.stringify(during)}, ${apiOffline} /api; back online: ${JSON.stringify(after)} after ${api} /api; page errors ${errors.length ? errors.join(' | ') : 'none'}` };
  } catch (e) {
    return { ok: false, what: `${e.message.split('\n')[0]}; page errors ${errors.join(' | ')}` };
  } finally {
    await context.close();
    await s.close();
  }
}

/** Checks a retry/fetch visit; returns { first (under DevTools), gz, paths }. */
function checkVisit(label, build, v, apiCalls) {
  const allowed = new Set([...Object.keys(build.pages), ...files(build.root)]);
  check(!v.result.error && v.result.status === 200, `${label}: ended with ${JSON.stringify(v.result)}`);
  check(v.log.filter((r) => r.path === '/api').length === apiCalls, `${label}: /api requested ${v.log.filter((r) => r.path === '/api').length} times, expected ${apiCalls}`);
  for (const r of v.log) {
    if (r.path === '/api' || r.path.startsWith('/vectors/')) continue;
    check(allowed.has(r.path) && r.status === 200, `${label}: requested ${r.path} (${r.status}), not in the tool's output`);
    check(!r.path.endsWith('.wasm'), `${label}: fetched ${r.path}`);
  }
  check(v.errors.length === 0, `${label}: page errors ${v.errors}`);
  const first = v.first ?? NaN;
  const assets = v.log.filter((r) => r.path !== '/api' && !r.path.startsWith('/vectors') && !r.path.endsWith('.html'));
  return { first, fetchStart: v.fetchStart, gz: assets.reduce((n, r) => n + r.gz, 0), paths: assets.map((r) => r.path) };
}

/**
 * The least of up to REPEAT cold pages' times to the first request (the first within the limit ends
 * the tries), so that another process holding the CPU (the machine is shared), or under CPU
 * throttling a suspended slice, is not counted against retry(). Slow pages come in runs on a
 * busy machine, hence as many tries as the 4x-CPU check below allows itself.
 */
const REPEAT = 10;
async function leastOf(measure, limit = FIRST_MS) {
  let best = NaN;
  for (let i = 0; i < REPEAT && !(best <= limit); i++) {
    const t = await measure();
    if (!(t >= best)) best = t;
  }
  return best;
}

const table = [];
const only = process.env.BUNDLERS_ONLY?.split(',');
for (const [name, tool] of Object.entries(TOOLS).filter(([n]) => !only || only.includes(n))) {
  console.log(`--- ${name}`);
  const t = performance.now();
  let builds;
  try {
    builds = Object.fromEntries(['retry', 'fetch', 'replay', 'retry-csp', 'offline', ...(LAB ? ['retry-timer'] : [])].map((e) => [e, tool(app, e)]));
  } catch (e) {
    check(false, `${name}: build failed: ${e.message}`);
    table.push([name, 'build failed', '-', '-', '-', '-', '-', '-']);
    continue;
  }
  console.log(`  ${builds.retry.cmd}${LAB ? ` (6 pages built in ${((performance.now() - t) / 1000).toFixed(1)} s)` : ''}`);
  // Under the strict policy an import map needs its hash: no inline script runs without one.
  // (The pages' maps differ: each one's hash.)
  const maps = [...new Set(Object.values(builds).map((b) => b.importMap).filter(Boolean))];
  const csp = [STRICT, ...maps.map((m) => `'sha256-${createHash('sha256').update(m.replace(/<\/?script[^>]*>/g, '')).digest('base64')}'`)].join(' ');
  // The time to the first request, with no DevTools attached (bare.mjs says why).
  const bare = {};
  if (LAB) {
    for (const [key, entry, policy] of [['retry', 'retry'], ['fetch', 'fetch'], ['csp', 'retry-csp', csp]]) {
      bare[key] = await leastOf(() => bareFirst(builds[entry], ARGS, policy));
      goal(bare[key] <= FIRST_MS, `${name} ${key}: first /api request ${bare[key].toFixed(1)} ms after the call (no DevTools, least of up to ${REPEAT} cold pages), goal <= ${FIRST_MS} ms`);
    }
    console.log(`  first /api after the call, no DevTools (least of up to ${REPEAT} cold pages): retry() ${bare.retry.toFixed(1)} ms, fetchWithBackoff() ${bare.fetch.toFixed(1)} ms, retry() under the CSP ${bare.csp.toFixed(1)} ms`);
  }
  const r = {};
  for (const [key, entry, opts, calls] of [
    ['happy', 'retry', {}, 1], ['failing', 'retry', { api: FAILING }, 2],
    ['fetchHappy', 'fetch', {}, 1], ['fetchFailing', 'fetch', { api: FAILING }, 2],
    ['cspHappy', 'retry-csp', { csp }, 1], ['cspFailing', 'retry-csp', { csp, api: FAILING }, 2],
  ]) {
    const before = failures.length;
    const v = await visit(builds[entry], opts);
    r[key] = { ...checkVisit(`${name} ${entry} ${key}`, builds[entry], v, calls), order: v.order, log: v.log };
    r[key].ok = failures.length === before;
  }
  const ms = (x) => (LAB ? `${x.toFixed(1)} ms; ` : '');
  console.log(`  retry(): ${LAB ? `first /api ${r.happy.first.toFixed(1)} ms after the call under DevTools with 150 ms latency (requestWillBeSent; Resource Timing fetchStart: ${r.happy.fetchStart.toFixed(1)} ms); ` : ''}happy path fetched ${r.happy.paths.join(' ')}: ${r.happy.gz} B gzip`);
  console.log(`  retry() 503 -> 200 fetched ${r.failing.paths.join(' ')}: ${r.failing.gz} B gzip`);
  console.log(`  fetchWithBackoff(): ${LAB ? `first /api ${ms(r.fetchHappy.first)}` : ''}${r.fetchHappy.gz} B happy, ${r.fetchFailing.gz} B with 503 -> 200`);
  console.log(`  CSP ${csp}: ${LAB ? `first /api ${ms(r.cspHappy.first)}` : ''}${r.cspHappy.gz} B happy; 503 -> 200 fetched ${r.cspFailing.paths.join(' ')}: ${r.cspFailing.gz} B`);
  // Under the strict CSP without `import 'seeded-backoff/csp'`: the first attempt is made, then
  // the call ends with the error that names the line (not a hang, not a page error).
  const missing = await visit(builds.retry, { csp, api: FAILING });
  const said = String(missing.result.error ?? '');
  check(said.includes("import 'seeded-backoff/csp'") && missing.log.filter((q) => q.path === '/api').length === 1 && missing.errors.length === 0,
    `${name} CSP without seeded-backoff/csp: ended with ${JSON.stringify(missing.result)} after ${missing.log.filter((q) => q.path === '/api').length} /api requests (expected 1 and the error naming the line), page errors ${missing.errors}`);
  console.log(`  CSP without seeded-backoff/csp: one /api, then ${said.slice(0, 110)}…`);
  // Offline from the first call: nothing of ours to fetch, so the calls wait for the network.
  const off = await offlineVisit(builds.offline);
  check(off.ok, `${name} offline first call: ${off.what}`);
  console.log(`  offline first call: ${off.what}`);
  if (LAB) {
    // A phone under the strict CSP. What retry() controls is the time to its fetch() call (the
    // init script's clock); fetch() itself is the browser's, and under DevTools it records its
    // caller's stack, which at 4x costs milliseconds on some pages and nothing on others
    // (requestWillBeSent, printed beside it). The least of up to REPEAT cold pages, as for the
    // times without DevTools; the order is checked on each.
    let slow;
    await leastOf(async () => {
      const v = await visit(builds['retry-csp'], { csp, cpu: 4 });
      // An error on any page stays the result; it ends the tries.
      if (!slow?.result.error && (!slow || v.result.error || !(v.called >= slow.called))) slow = v;
      return slow.result.error ? -1 : v.called;
    }, CSP_SLOW_MS);
    if (check(!slow.result.error, `${name} CSP at 4x CPU: ${JSON.stringify(slow.result)}`)) {
      goal(slow.called <= CSP_SLOW_MS, `${name} CSP at 4x CPU and 150 ms latency: fetch('/api') called ${slow.called.toFixed(1)} ms after retry() (least of up to ${REPEAT} cold pages), requested ${slow.first.toFixed(1)} ms after it (requestWillBeSent), goal <= ${CSP_SLOW_MS} ms`);
    }
  }
  if (LAB) {
    // A phone's cold page whose first attempt fails: the time from that 503 reaching the page to
    // retry()'s decision of its retry (onRetry, just before its timer is set), at 4x CPU.
    const timers = [];
    for (let i = 0; i < 3; i++) {
      const v = await visit(builds['retry-timer'], { api: FAILING, cpu: 4 });
      check(v.result.status === 200, `${name} retry timer at 4x CPU: ${JSON.stringify(v.result)}`);
      timers.push(v.result.timerMs);
    }
    const worst = Math.max(...timers);
    goal(worst <= TIMER_MS, `${name} at 4x CPU, cold page: the retry decided ${timers.map((t) => t.toFixed(1)).join(', ')} ms after the first 503 reached the page (3 pages; the worst ${worst.toFixed(1)} ms), goal <= ${TIMER_MS} ms`);
  }
  const replays = [];
  for (const policy of [undefined, csp]) {
    const v = await visit(builds.replay, { csp: policy, vectors: true });
    const label = `${name} vectors ${policy ? 'under the strict CSP' : 'without CSP'}`;
    const ok = check(!v.result.error && v.result.checks > 0 && v.errors.length === 0, `${label}: ${JSON.stringify(v.result)} ${v.errors}`) &&
      check(!policy || /WebAssembly/.test(v.result.wasmRefused ?? ''), `${label}: WebAssembly was not refused, the JS build is not what answered`);
    replays.push(ok);
    if (ok) console.log(`  ${label}: ${v.result.files} files, ${v.result.checks} results bit-identical to Rust${policy ? ` (new WebAssembly.Module: ${v.result.wasmRefused.slice(0, 90)}…)` : ''}`);
  }
  const cspOk = replays[1] && r.cspHappy.ok && r.cspFailing.ok;
  table.push([name, bare.retry?.toFixed(1), r.happy.first.toFixed(1), r.happy.gz, r.failing.gz, r.fetchHappy.gz, r.fetchFailing.gz, cspOk ? 'yes' : 'NO']);
}

// The control: p-retry's first request, measured the same way (esbuild bundle, cold page).
if (!only || only.includes('p-retry')) {
  const build = TOOLS.esbuild(app, 'p-retry');
  const c = checkVisit('p-retry control', build, await visit(build), 1);
  if (LAB) {
    const first = await leastOf(() => bareFirst(build, ARGS));
    console.log(`control: ${P_RETRY} (esbuild): first /api ${first.toFixed(1)} ms after pRetry() with no DevTools, ${c.first.toFixed(1)} ms under DevTools; ${c.gz} B gzip`);
    table.push([P_RETRY, first.toFixed(1), c.first.toFixed(1), c.gz, '-', '-', '-', '-']);
  } else {
    console.log(`control: ${P_RETRY} (esbuild): 200 after one /api request; ${c.gz} B gzip`);
  }
}

// Workers: esbuild bundles, and dist/browser/ imported by URL (a worker has no import map).
const workers = !only || only.includes('workers') ? [['worker', 'esbuild'], ['worker', 'import map'], ['sw', 'esbuild'], ['sw', 'import map']] : [];
for (const [kind, tool] of workers) {
  const build = workerBuild(app, kind, tool);
  for (const key of ['happy', '503 (Retry-After: HTTP-date 4 s ahead) -> 200']) {
    const label = `${kind === 'sw' ? 'Service Worker' : 'Web Worker'} (${tool}) ${key}`;
    // A Retry-After HTTP-date 4 s after the 503 is sent: the failing path also needs the date part;
    // the wait it gives (3 to 4 s, the date having whole seconds) is longer than any of the
    // default policy's (at most 2 s).
    const api = key === 'happy' ? HAPPY : [[503, { 'retry-after': () => new Date(Date.now() + 4000).toUTCString() }], [200]];
    const v = await visit(build, { api });
    const c = checkVisit(label, build, v, api.length);
    if (key !== 'happy') check(v.result?.delays?.[0] >= 2500, `${label}: waited ${v.result.delays} ms, not the HTTP-date's`);
    // (A failing path's first entry is not there: its body is cancelled, and Resource Timing
    // records a response when its body ends.)
    const first = LAB ? `first /api ${c.first.toFixed(1)} ms after retry() (the worker's Resource Timing, under DevTools)` : '200';
    console.log(`${label}: ${key === 'happy' ? first : `waited ${v.result.delays} ms`}; fetched ${c.paths.join(' ')}: ${c.gz} B gzip`);
  }
}

// Mobile CPU (the lab only): 4x throttling, esbuild bundles of the same page for each library.
if (LAB) console.log('--- 4x CPU throttling (Emulation.setCPUThrottlingRate), 150 ms latency, esbuild --bundle, under DevTools; medians of 5 cold pages');
// Each figure is the median of RUNS cold pages, the two libraries' pages taken in turn.
const RUNS = 5;
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const runs = { bench: [], 'bench-p-retry': [] };
const benchBuilds = LAB && (!only || only.includes('cpu')) ? Object.keys(runs).map((e) => [e, TOOLS.esbuild(app, e)]) : [];
for (let i = 0; i < RUNS && benchBuilds.length; i++) {
  for (const [entry, build] of benchBuilds) {
    const v = await visit(build, { cpu: 4 });
    check(!v.result.error && v.result.status === 200, `${entry}: ${JSON.stringify(v.result)}`);
    runs[entry].push(v.result);
  }
}
const bench = Object.fromEntries(Object.entries(runs).map(([entry, rs]) => [entry,
  Object.fromEntries(['firstMs', 'readyMs', 'delayUs', 'stepMs'].map((k) => [k, rs.length ? median(rs.map((r) => r[k])) : NaN]))]));
const us = (ms) => (ms * 1000).toFixed(0);
// The goal takes the least of the pages, as leastOf() does: DevTools throttles by suspending the
// page's thread in slices, so the millisecond of work before the first attempt pays a whole
// slice on some pages and none on others (the median printed below sits several ms above the least), and the
// machine is shared. Where none of the RUNS pages came in within the limit, up to EXTRA more are
// opened, the first within it ending the tries; what is left is what retry() itself costs.
const EXTRA = REPEAT - RUNS;
const firsts = { bench: runs.bench.map((r) => r.firstMs), 'bench-p-retry': runs['bench-p-retry'].map((r) => r.firstMs) };
for (let i = 0; i < EXTRA && benchBuilds.length && !(Math.min(...firsts.bench) <= OPTION_SLOW_MS); i++) {
  const v = await visit(benchBuilds[0][1], { cpu: 4 });
  if (!v.result.error) firsts.bench.push(v.result.firstMs);
}
const least = (entry) => Math.min(...firsts[entry]);
if (benchBuilds.length) {
  goal(least('bench') <= OPTION_SLOW_MS, `4x CPU: retry() with a policy option made its first attempt ${least('bench').toFixed(1)} ms after the call (least of ${firsts.bench.length} pages), goal <= ${OPTION_SLOW_MS} ms`);
  console.log(`  ${'library'.padEnd(16)} ${'retry() -> 1st attempt'.padStart(24)} ${'first sync call'.padStart(15)} ${'nextDelay()'.padStart(12)} ${'retry step (1 ms delay)'.padStart(24)}`);
  const b = bench.bench ?? {};
  const p = bench['bench-p-retry'] ?? {};
  console.log(`  ${'seeded-backoff'.padEnd(16)} ${`${us(b.firstMs)} µs`.padStart(24)} ${`${b.readyMs?.toFixed(2)} ms`.padStart(15)} ${`${b.delayUs?.toFixed(2)} µs`.padStart(12)} ${`${b.stepMs?.toFixed(2)} ms`.padStart(24)}`);
  console.log(`  ${P_RETRY.padEnd(16)} ${`${us(p.firstMs)} µs`.padStart(24)} ${'-'.padStart(15)} ${'(inline)'.padStart(12)} ${`${p.stepMs?.toFixed(2)} ms`.padStart(24)}`);
  console.log(`  retry() -> 1st attempt, the least of the pages: seeded-backoff ${us(least('bench'))} µs of ${firsts.bench.length} (goal <= ${OPTION_SLOW_MS} ms), ${P_RETRY} ${us(least('bench-p-retry'))} µs of ${RUNS}`);
  console.log('  (performance.now() is coarsened to 100 µs in a page that is not cross-origin isolated; the first sync call comes after a');
  console.log('  retry() whose success already compiled the main part; nextDelay(): per call, the mean of 1000)');
}

await browser.close();
rmSync(tmp, { recursive: true, force: true });

if (LAB) {
  const head = ['bundler', 'first request after retry() (ms)', 'same, under DevTools', 'bytes fetched happy path', 'bytes fetched failure path',
    'fetchWithBackoff happy', 'fetchWithBackoff failure', 'CSP ok'];
  console.log('\nbytes: gzip -9 of every response the browser fetched but the page and /api; failure path: 503 then 200');
  if (TABLE) {
    print(`| ${head.join(' | ')} |\n|---|${head.slice(1).map((h) => (h === 'CSP ok' ? '---|' : '---:|')).join('')}`);
    for (const row of table) print(`| ${row.join(' | ')} |`);
  } else {
    console.log(head.join(' | '));
    for (const row of table) console.log(row.map((c, i) => String(c).padStart(i ? head[i].length : 10)).join(' | '));
  }
}
if (failures.length) {
  console.error(`\nFAIL: ${failures.length} checks:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('\nbundlers: every check passed');
