// The example app as a user has it: the built package packed (npm pack) and installed from its
// tarball into a temporary copy of app/, then each page built by each tool with its default
// settings. The tools come from this folder's node_modules (the committed lock file), found by
// Node's resolution through a node_modules link in the temporary folder's root.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const wasmDir = join(here, '..', '..');
const bin = (name) => join(here, 'node_modules', '.bin', name);

/** `cmd args` in `cwd`; its output, or an Error carrying it. */
export function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/** A temporary folder with the app installed; returns its paths. */
export function installApp() {
  const tmp = mkdtempSync(join(tmpdir(), 'seeded-backoff-bundlers-'));
  symlinkSync(join(here, 'node_modules'), join(tmp, 'node_modules'));
  const tgz = run('npm', ['pack', '--silent', '--pack-destination', tmp], wasmDir).trim().split('\n').pop();
  const app = join(tmp, 'app');
  cpSync(join(here, 'app'), app, { recursive: true });
  cpSync(join(wasmDir, 'test', 'replay.mjs'), join(app, 'src', 'replay.mjs'));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(tmp, tgz)], app);
  return { tmp, app, tgz };
}

const ICON = '<link rel="icon" href="data:,">';
/** A page that loads `src` (a module script or a classic one). */
export const page = (src, module = true) =>
  `<!doctype html><meta charset="utf-8">${ICON}<script ${module ? 'type="module" ' : ''}src="${src}"></script>`;

/**
 * The bundlers, each building `entry` (a file of app/src) into its own folder with its default
 * settings. Each returns { root: the folder to serve, pages: path -> HTML (none for Vite, whose
 * output includes the page), path: the page to open, cmd: the command run }.
 */
export const TOOLS = {
  esbuild(app, entry) {
    const out = join(app, 'out', `esbuild-${entry}`);
    const args = [`src/${entry}.js`, '--bundle', `--outfile=${out}/${entry}.js`];
    run(bin('esbuild'), args, app);
    return { root: out, pages: { '/index.html': page(`/${entry}.js`, false) }, cmd: `esbuild ${args.join(' ')}` };
  },
  vite(app, entry) {
    const dir = join(app, `vite-${entry}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), page('./main.js'));
    writeFileSync(join(dir, 'main.js'), `import '../src/${entry}.js';\n`);
    run(bin('vite'), ['build'], dir);
    return { root: join(dir, 'dist'), pages: {}, cmd: `vite build (in a folder with index.html -> main.js -> src/${entry}.js)` };
  },
  webpack(app, entry) {
    const config = `webpack-${entry}.config.js`;
    writeFileSync(join(app, config),
      `module.exports = { entry: './src/${entry}.js', output: { path: __dirname + '/out/webpack-${entry}' } };\n`);
    run(bin('webpack'), ['--config', config], app);
    return { root: join(app, 'out', `webpack-${entry}`), pages: { '/index.html': page('/main.js', false) },
      cmd: `webpack --config ${config} (entry, output.path only)` };
  },
  rollup(app, entry) {
    const config = `rollup-${entry}.config.mjs`;
    writeFileSync(join(app, config), `import { nodeResolve } from '@rollup/plugin-node-resolve';
export default { input: 'src/${entry}.js', output: { dir: 'out/rollup-${entry}' }, plugins: [nodeResolve()] };\n`);
    run(bin('rollup'), ['-c', config], app);
    return { root: join(app, 'out', `rollup-${entry}`), pages: { '/index.html': page(`/${entry}.js`) },
      cmd: `rollup -c ${config} (input, output.dir, node-resolve)` };
  },
  // No bundler: dist/browser/ as installed, the app's module as written, an import map.
  'import map'(app, entry) {
    const out = join(app, 'out', `importmap-${entry}`);
    mkdirSync(out, { recursive: true });
    cpSync(join(app, 'node_modules', 'seeded-backoff', 'dist', 'browser'), join(out, 'seeded-backoff'), { recursive: true });
    cpSync(join(app, 'src', `${entry}.js`), join(out, 'app.js'));
    cpSync(join(app, 'src', 'replay.mjs'), join(out, 'replay.mjs'));
    // A page that calls retry() or fetchWithBackoff() alone maps the name to that entry point (as
    // the README's import map does); the vector replay uses every entry.
    const to = RETRY_PAGES.includes(entry) ? 'retry.js' : 'index.js';
    const entries = ['budget', 'fleet', 'pacer', 'retry-after', 'send-rate', 'snapshot'].map((e) => `,"seeded-backoff/${e}":"/seeded-backoff/${e}.js"`).join('');
    const map = `<script type="importmap">{"imports":{"seeded-backoff":"/seeded-backoff/${to}"${entries},"seeded-backoff/csp":"/seeded-backoff/csp.js","seeded-backoff/csp/full":"/seeded-backoff/csp-full.js"}}</script>`;
    return { root: out, pages: { '/index.html': page('/app.js').replace('<script', `${map}<script`) }, importMap: map,
      cmd: `none: node_modules/seeded-backoff/dist/browser/ served as /seeded-backoff/, import map "seeded-backoff" -> /seeded-backoff/${to}` };
  },
};

/** The example pages that import retry() or fetchWithBackoff() alone. */
const RETRY_PAGES = ['retry', 'fetch', 'offline', 'retry-timer', 'retry-csp'];

/** Rollup with no plugin at all: what it says about the bare import (it cannot resolve it). */
export function rollupBare(app) {
  writeFileSync(join(app, 'rollup-bare.config.mjs'),
    "export default { input: 'src/retry.js', output: { dir: 'out/rollup-bare' } };\n");
  const r = spawnSync(bin('rollup'), ['-c', 'rollup-bare.config.mjs'], { cwd: app, encoding: 'utf8', timeout: 60000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return `${r.stdout}${r.stderr}`;
}

/** Files of `dir`, recursively, as URL paths. */
export function files(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name), `${prefix}/${d.name}`) : [`${prefix}/${d.name}`]);
}
