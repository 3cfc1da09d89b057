// wasm/README.md's outbox snippet, run as pasted in headless Chromium: the import-map page with the
// package "installed" at /node_modules/seeded-backoff/, against /api/orders (503, then 201).
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
const server = await startServer({}, (req, res, path) => {
  if (path === '/orders.html') res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8"><body>${html.trim()}</body>`);
  else if (path === '/api/orders') res.writeHead(orders++ ? 201 : 503).end('created');
  else if (path.startsWith('/node_modules/seeded-backoff/')) {
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
  const answer = () => (document.body.lastChild?.nodeType === Node.TEXT_NODE ? document.body.lastChild.textContent : '');
  await page.waitForFunction(answer, null, { timeout: 20000 });
  assert.equal(await page.evaluate(answer), '201 created');
  assert.equal(orders, 2);
  console.log('outbox: the README outbox snippet as pasted: /api/orders 503, then 201 through the outbox');
  assert.deepEqual(errors, []);
}, close, server.close);
