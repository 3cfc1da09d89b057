// What the headless Chromium tests share: the static files of wasm/ (dist, test, examples) and
// the vectors, served by the test server, and Debian's /usr/bin/chromium launched through
// playwright-core (no browser download).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const wasmDir = fileURLToPath(new URL('../../', import.meta.url));
const vectorsDir = join(wasmDir, '..', 'tests', 'vectors');
export const artifacts = join(wasmDir, '..', 'artifacts', 'wasm');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css' };

/** Serves a static file of wasm/ or the vectors, if `path` names one. */
export function serveFile(req, res, path) {
  let file;
  if (path === '/favicon.ico') {
    res.writeHead(204).end();
    return true;
  }
  if (path === '/vectors/') {
    const names = [...readdirSync(vectorsDir), ...readdirSync(join(vectorsDir, 'startup')).map((n) => `startup/${n}`)]
      .filter((n) => n.endsWith('.json')).sort();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(names));
    return true;
  }
  if (path.startsWith('/vectors/')) file = join(vectorsDir, normalize(path.slice(9)));
  else if (/^\/(dist|test|examples)\//.test(path)) file = join(wasmDir, normalize(path));
  else return false;
  try {
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
  return true;
}

const EXE = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update'];

// Chromium's helper processes may still be writing to the profile as it closes: retried, and
// a profile left behind in the temporary folder does not fail the test.
function removeProfile(profile) {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (e) {
    console.warn(`warning: ${profile} not removed: ${e.message}`);
  }
}

/** A runner still going after `limitMs` fails: a hung page must not hang the test run. */
function bound(limitMs) {
  setTimeout(() => {
    console.error(`FAIL: still running after ${limitMs / 1000} s`);
    process.exit(1);
  }, limitMs).unref();
}

/**
 * A headless Chromium with a fresh profile, launched by Playwright (which keeps every page visible
 * and focused); `close()` ends it and removes the profile.
 */
export async function launch(limitMs = 150000) {
  bound(limitMs);
  const profile = mkdtempSync(join(tmpdir(), 'seeded-backoff-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: EXE, headless: true, args: ARGS });
  return { context, close: () => context.close().finally(() => removeProfile(profile)) };
}

/**
 * A headless Chromium that Playwright drives without its defaults (connectOverCDP with
 * noDefaults, so no focus emulation): as in a real browser, a page is hidden while another tab is
 * in front, and Page.setWebLifecycleState freezes it. DevTools listens on 127.0.0.1 only.
 */
export async function launchReal(limitMs = 150000) {
  bound(limitMs);
  const profile = mkdtempSync(join(tmpdir(), 'seeded-backoff-chromium-'));
  const proc = spawn(EXE, [...ARGS, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0',
    `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const endpoint = await new Promise((resolve, reject) => {
    let err = '';
    proc.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/ws:\/\/\S+/);
      if (m) resolve(m[0]);
    });
    exited.then(() => reject(new Error(`chromium exited: ${err}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  let closing;
  return {
    context: browser.contexts()[0],
    // Once, however many callers (a test may end it early; the runner ends it again).
    close: () => (closing ??= (async () => {
      // Browser.close shuts Chromium down in order (its helpers done with the profile); the
      // process is killed only if it is still there 5 s later.
      const cdp = await browser.newBrowserCDPSession();
      await cdp.send('Browser.close').catch(() => {});
      const timer = setTimeout(() => proc.kill(), 5000);
      await exited;
      clearTimeout(timer);
      removeProfile(profile);
    })()),
  };
}

/** Runs `test`, then each of `closers` (Chromium, the server, …); exits non-zero if `test` threw. */
export async function finish(test, ...closers) {
  let failed = false;
  try {
    await test();
  } catch (e) {
    failed = true;
    console.error(e);
  }
  for (const c of closers) await c();
  process.exit(failed ? 1 : 0);
}
