// wasm/README.md's browser snippets, run as pasted in headless Chromium:
//  1. the import-map page, with the package "installed" at /node_modules/seeded-backoff/;
//  2. the Use section's retry() snippet, bundled by esbuild in a scratch project whose
//     node_modules/seeded-backoff is this package, with nothing copied: the page loads only the
//     bundle, and no request ever asks for a .wasm file;
//  3. every example of the README (each ```js block as a Vite app's main.js, each ```html block
//     as its index.html), built by `vite build` with its default settings: every import of the
//     package resolves and exports what it names. Those that import no other package (the
//     browser examples) are then loaded in Chromium, and none throws.
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

// 3. Each example in a Vite app of its own. The other packages the examples import (ky, got,
// node:http…) are left external, as if installed: the build checks this package's imports.
const examples = [...readme.matchAll(/^```(js|html)\n([\s\S]*?)^```/gm)]
  .map(([, lang, code], i, all) => ({ lang, code, line: readme.slice(0, all[i].index).split('\n').length + 1 }));
const imported = (code) => [...code.matchAll(/from '([^'.][^']*)'/g)].map((m) => m[1]).filter((id) => !/^seeded-backoff(\/|$)/.test(id));
const others = [...new Set(examples.flatMap(({ code }) => imported(code)))];
const viteDir = join(project, 'vite');
mkdirSync(viteDir);
writeFileSync(join(viteDir, 'vite.config.mjs'), `const others = ${JSON.stringify(others)};
export default { build: { rollupOptions: { external: (id) => id.startsWith('node:') || others.some((o) => id === o || id.startsWith(o + '/')) } } };\n`);
const vite = join(wasmDir, 'test', 'bundlers', 'node_modules', '.bin', 'vite');
const failed = [];
for (const [i, ex] of examples.entries()) {
  const dir = join(viteDir, `example-${i}`);
  mkdirSync(dir);
  const body = ex.lang === 'js' ? '<script type="module" src="./main.js"></script>' : ex.code;
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body>${body}</body>`);
  if (ex.lang === 'js') writeFileSync(join(dir, 'main.js'), ex.code);
  try {
    execFileSync(vite, ['build', '--config', '../vite.config.mjs', '--logLevel', 'error'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    failed.push(`README line ${ex.line}: ${`${e.stdout}${e.stderr}`.split('\n').map((l) => l.trim())
      .filter((l) => l && !/^(error during build|Build failed|Caused by|\[rolldown|at )/.test(l)).slice(0, 3).join(' / ')}`);
  }
}
assert.deepEqual(failed, [], 'README examples that do not build in a Vite app');
console.log(`vite: every README example builds as pasted (${examples.length}; external: ${others.join(', ')})`);
let viteRoot;

const pages = { '/importmap.html': `<!doctype html><meta charset="utf-8"><body>${html.trim()}</body>`,
  // (Playwright reads a logged bigint as "undefined": the page logs the strings of its arguments.)
  '/bundled.html': '<!doctype html><meta charset="utf-8"><body><script type="module" src="/assets/app.js"></script></body>' };
const requested = [];
let items = 0;
const server = await startServer({}, (req, res, path) => {
  requested.push(path);
  if (viteRoot) {
    let body;
    try {
      body = path.startsWith('/api/') ? '{}' : readFileSync(join(viteRoot, normalize(path === '/' ? 'index.html' : path)));
    } catch {
      res.writeHead(404).end();
      return true;
    }
    res.writeHead(200, { 'content-type': path === '/' ? 'text/html' : path.startsWith('/api/') ? 'application/json' : 'text/javascript' }).end(body);
  } else if (pages[path]) res.writeHead(200, { 'content-type': 'text/html' }).end(pages[path]);
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
  // The browser examples, as Vite built them: loaded, and given a second to run.
  const run = examples.map((ex, i) => ({ ...ex, i })).filter(({ code }) => imported(code).length === 0);
  for (const ex of run) {
    viteRoot = join(viteDir, `example-${ex.i}`, 'dist');
    const p = await context.newPage();
    const thrown = [];
    p.on('pageerror', (e) => thrown.push(`README line ${ex.line}: ${String(e).split('\n')[0]}`));
    await p.goto(`${server.url}/`);
    await new Promise((r) => setTimeout(r, 1000));
    await p.close();
    errors.push(...thrown);
  }
  assert.deepEqual(errors, []);
  console.log(`vite: the ${run.length} browser examples run in Chromium as built, none throws`);
}, close, server.close, () => rmSync(project, { recursive: true, force: true }));
