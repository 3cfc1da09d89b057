// Loads PAGE_DIR/index.html (a user's page bundling the installed npm package) in headless
// Chromium, served from 127.0.0.1 as a site would serve it, and prints what the page left in
// window.result (JSON). Fails on a page error, a failed request or no result within 30 s.
// Chromium is Debian's, driven by the repository's playwright-core (no browser download), as in
// wasm/test/browser/run.mjs.
// usage: node scripts/release/browser-smoke.mjs PAGE_DIR
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

const require = createRequire(new URL('../../wasm/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const dir = process.argv[2];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const fetched = [];

const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/favicon.ico') { // asked by Chromium itself, not by the page
    res.writeHead(204).end();
    return;
  }
  fetched.push(path);
  try {
    const body = readFileSync(join(dir, normalize(path === '/' ? '/index.html' : path)));
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const profile = mkdtempSync(join(tmpdir(), 'seeded-backoff-dist-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update'],
});
let code = 0;
try {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.result || window.error, null, { timeout: 30000 });
  const error = await page.evaluate(() => window.error);
  if (error || errors.length) throw new Error(`page failed: ${error ?? errors.join('; ')}`);
  console.log(JSON.stringify({ result: await page.evaluate(() => window.result), fetched }));
} catch (e) {
  console.error(e);
  code = 1;
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
