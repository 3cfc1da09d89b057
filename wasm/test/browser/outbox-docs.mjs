// wasm/README.md's outbox snippet, run as pasted in headless Chromium: the import-map page with the
// package "installed" at /node_modules/seeded-backoff/ (its minified browser build), against
// /api/orders (503, then 201): nothing sent on load, one order per click, none on a reload.
// Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { startServer } from '../server.mjs';
import { finish, launch, wasmDir } from './chromium.mjs';

const readme = readFileSync(join(wasmDir, 'README.md'), 'utf8');
const doc = readme.slice(readme.indexOf('## Requests that outlive the page'));
const start = doc.indexOf('```html\n') + 8;
const html = doc.slice(start, doc.indexOf('```', start));
let orders = 0;
const served = [];
const server = await startServer({}, (req, res, path) => {
  if (path === '/orders.html') res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8"><body>${html.trim()}</body>`);
  else if (path === '/api/orders') res.writeHead(orders++ ? 201 : 503).end('created');
  else if (path.startsWith('/node_modules/seeded-backoff/')) {
    served.push(path.slice('/node_modules/seeded-backoff/'.length));
    const file = join(wasmDir, normalize(path.slice('/node_modules/seeded-backoff/'.length)));
    try {
      res.writeHead(200, { 'content-type': file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  } else res.writeHead(404).end();
  return true;
});
const { context, close } = await launch(60000);
await finish(async () => {
  const errors = [];
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/orders.html`);
  // Nothing is sent before the user acts, and the page is there at once (no top-level await).
  await page.waitForSelector('#order', { timeout: 5000 });
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(orders, 0, 'a page load sends no order');
  await page.click('#order');
  const answer = () => (document.body.lastChild?.nodeType === Node.TEXT_NODE ? document.body.lastChild.textContent : '');
  await page.waitForFunction(answer, null, { timeout: 20000 });
  assert.equal(await page.evaluate(answer), '201 created');
  assert.equal(orders, 2);
  // A reload sends nothing new: one order per click.
  await page.reload();
  await page.waitForSelector('#order', { timeout: 5000 });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(orders, 2, 'a reload sent another order');
  assert.ok(served.length && served.every((p) => p.startsWith('dist/browser/')), `the page loads the minified browser build only: ${served}`);
  console.log('outbox: the README outbox snippet as pasted: nothing on load, one click: /api/orders 503, then 201; a reload sends nothing');
  assert.deepEqual(errors, []);
}, close, server.close);
