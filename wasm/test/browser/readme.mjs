// wasm/README.md's browser snippets, run as pasted in headless Chromium:
//  1. the import-map page, with the package "installed" at /node_modules/seeded-backoff/;
//  2. the Use section's retry() snippet, bundled by esbuild in a scratch project whose
//     node_modules/seeded-backoff is this package, with nothing copied: the page loads only the
//     bundle, and no request ever asks for a .wasm file.
// Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { startServer } from '../server.mjs';
import { finish, launch, wasmDir } from './chromium.mjs';

const readme = readFileSync(join(wasmDir, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Use\n'));
const block = (lang, after = 0) => {
  const start = section.indexOf(`\`\`\`${lang}\n`, after);
  return [section.slice(start + lang.length + 4, section.indexOf('```', start + 4)), start + 1];
};
const [snippet] = block('js');
const [html] = block('html');

// A scratch project: the package linked in as if installed; esbuild as the project's own.
const project = mkdtempSync(join(tmpdir(), 'seeded-backoff-readme-'));
mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
symlinkSync(wasmDir, join(project, 'node_modules', 'seeded-backoff'));
symlinkSync(join(wasmDir, 'node_modules', 'esbuild'), join(project, 'node_modules', 'esbuild'));
symlinkSync(join(wasmDir, 'node_modules', '.bin', 'esbuild'), join(project, 'node_modules', '.bin', 'esbuild'));
// The snippet as pasted, then a line that shows its answer.
writeFileSync(join(project, 'app.js'), `${snippet}document.body.append(\`\${res.status}\`);\n`);
execFileSync('npx', ['esbuild', 'app.js', '--bundle', '--format=esm', '--outfile=public/assets/app.js'], { cwd: project, stdio: 'inherit' });

const pages = { '/importmap.html': `<!doctype html><meta charset="utf-8"><body>${html.trim()}</body>`,
  // (Playwright reads a logged bigint as "undefined": the page logs the strings of its arguments.)
  '/bundled.html': '<!doctype html><meta charset="utf-8"><body><script type="module" src="/assets/app.js"></script></body>' };
const requested = [];
let items = 0;
const server = await startServer({}, (req, res, path) => {
  requested.push(path);
  if (pages[path]) res.writeHead(200, { 'content-type': 'text/html' }).end(pages[path]);
  else if (path === '/api/items') res.writeHead(items++ ? 200 : 503).end('items');
  else {
    const file = path.startsWith('/node_modules/') ? join(project, normalize(path)) : join(project, 'public', normalize(path));
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  }
  return true;
});
const { context, close } = await launch();
await finish(async () => {
  const errors = [];
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/importmap.html`);
  // The snippet appends its answer after its scripts.
  const answer = () => (document.body.lastChild?.nodeType === Node.TEXT_NODE ? document.body.lastChild.textContent : '');
  await page.waitForFunction(answer, null, { timeout: 20000 });
  assert.equal(await page.evaluate(answer), '200 items');
  console.log('browser: the README import-map page fetched /api/items: 503, then 200');
  items = 0;
  requested.length = 0;
  await page.goto(`${server.url}/bundled.html`);
  await page.waitForFunction(answer, null, { timeout: 20000 });
  assert.equal(await page.evaluate(answer), '200');
  assert.deepEqual(requested, ['/bundled.html', '/assets/app.js', '/api/items', '/api/items']);
  console.log('browser: the README retry() snippet, bundled by esbuild with nothing copied: 503, then 200; requests: ' + requested.join(' '));
  assert.ok(!requested.some((p) => p.endsWith('.wasm')));
  assert.deepEqual(errors, []);
}, close, server.close, () => rmSync(project, { recursive: true, force: true }));
