// npm run build: Rust core + bindings -> wasm (wasm-release profile) -> wasm-bindgen glue
// (wasm-bindgen CLI, same version as the crate) -> wasm-opt -Oz (npm binaryen) -> three bundles of the JS API:
//   dist/index.js   ESM for browsers and bundlers (`await init()` fetches the wasm): the modules
//                   of js/ as they are, so that a bundler drops the ones a program does not use
//   dist/node.mjs   ESM for Node, loads the wasm synchronously on first use
//   dist/node.cjs   CommonJS for Node, the same
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(wasmDir, '..');
const pkg = join(wasmDir, 'pkg');
const dist = join(wasmDir, 'dist');

function run(cmd, args, cwd = root) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
}

const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
run('cargo', [
  'build', '-p', 'seeded-backoff-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm-release',
]);
rmSync(pkg, { recursive: true, force: true });
run('wasm-bindgen', [
  '--target', 'web', '--no-typescript', '--out-dir', pkg, '--out-name', 'seeded_backoff',
  join(target, 'wasm32-unknown-unknown', 'wasm-release', 'seeded_backoff_wasm.wasm'),
]);
const wasm = join(pkg, 'seeded_backoff_bg.wasm');
// The features rustc enables by default for wasm32-unknown-unknown; wasm-opt must accept them.
const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'reference-types',
  'multivalue', 'mutable-globals'].map((f) => `--enable-${f}`);
// binaryen from npm (a devDependency): Debian's wasm-opt 108 breaks the externref table that
// wasm-bindgen adds (it exports the funcref table under its name).
run(join(wasmDir, 'node_modules', '.bin', 'wasm-opt'), ['-Oz', ...features, wasm, '-o', wasm]);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
const loaderPlugin = (file) => ({
  name: 'loader',
  setup(build) {
    build.onResolve({ filter: /^\.\/loader\.js$/ }, () => ({ path: join(wasmDir, 'js', file) }));
  },
});
const common = { entryPoints: [join(wasmDir, 'js', 'index.js')], bundle: true, target: 'es2022',
  logLevel: 'warning', legalComments: 'none' };
// Browser/bundler build: js/*.js flat in dist/, the glue next to them, loader.js the browser one.
for (const name of readdirSync(join(wasmDir, 'js'))) {
  if (name.startsWith('loader-')) continue;
  const text = readFileSync(join(wasmDir, 'js', name), 'utf8').replaceAll("'../pkg/seeded_backoff.js'", "'./seeded_backoff.js'");
  writeFileSync(join(dist, name), text);
}
copyFileSync(join(wasmDir, 'js', 'loader-browser.js'), join(dist, 'loader.js'));
copyFileSync(join(pkg, 'seeded_backoff.js'), join(dist, 'seeded_backoff.js'));
await esbuild.build({ ...common, outfile: join(dist, 'node.mjs'), format: 'esm', platform: 'node',
  plugins: [loaderPlugin('loader-node-esm.js')] });
await esbuild.build({ ...common, outfile: join(dist, 'node.cjs'), format: 'cjs', platform: 'node',
  plugins: [loaderPlugin('loader-node-cjs.js')],
  // The glue's `import.meta.url` is only read by the async init path, which Node never takes.
  logOverride: { 'empty-import-meta': 'silent' } });
copyFileSync(wasm, join(dist, 'seeded_backoff_bg.wasm'));
copyFileSync(join(wasmDir, 'types', 'index.d.ts'), join(dist, 'index.d.ts'));
copyFileSync(join(wasmDir, 'types', 'index.d.ts'), join(dist, 'index.d.cts'));
console.log(`built ${dist}: wasm ${statSync(join(dist, 'seeded_backoff_bg.wasm')).size} B`);
