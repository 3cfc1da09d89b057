// The Web Worker and Service Worker pages: bundled by esbuild with its defaults (a classic worker),
// or with no bundler, dist/browser/ imported by URL from a module worker (workers have no import
// maps, so the worker names the file: the one change from the app's source).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { page, run } from './build.mjs';

const bin = (name) => join(new URL('.', import.meta.url).pathname, 'node_modules', '.bin', name);

/** `kind`: 'worker' or 'sw'; `tool`: 'esbuild' or 'import map'. Returns a build as TOOLS do. */
export function workerBuild(app, kind, tool) {
  if (tool === 'esbuild') {
    const out = join(app, 'out', `esbuild-${kind}`);
    for (const entry of [kind, `${kind}-page`]) run(bin('esbuild'), [`src/${entry}.js`, '--bundle', `--outfile=${out}/${entry}.js`], app);
    return { root: out, pages: { '/index.html': page(`/${kind}-page.js`, false) } };
  }
  const out = join(app, 'out', `importmap-${kind}`);
  mkdirSync(out, { recursive: true });
  cpSync(join(app, 'node_modules', 'seeded-backoff', 'dist', 'browser'), join(out, 'seeded-backoff'), { recursive: true });
  writeFileSync(join(out, `${kind}.mjs`), readFileSync(join(app, 'src', `${kind}.js`), 'utf8')
    .replace("from 'seeded-backoff'", "from '/seeded-backoff/index.js'")
    .replace("import 'seeded-backoff/retry-after'", "import '/seeded-backoff/retry-after.js'"));
  cpSync(join(app, 'src', `${kind}-page.js`), join(out, 'page.js'));
  return { root: out, pages: { '/index.html': page('/page.js') } };
}
