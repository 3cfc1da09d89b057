// npm run build: the Rust core and bindings -> five wasm parts (main, date, snapshot, budget, fleet; one
// cargo build each, wasm-release profile, no std) -> wasm-bindgen glue (`--target bundler`: the
// export wrappers only; js/wasm.js instantiates) -> a check that no allocator or formatting code
// is linked -> wasm-opt -Oz (npm binaryen) -> dist/:
//   index.js and its modules   ESM for browsers and bundlers (`await init()` fetches the parts
//                              the program imports), unbundled so a bundler drops what is unused
//   node.mjs / node.cjs        Node, ESM and CommonJS; each part loads synchronously on first use
//   pkg/tables.js              names and messages generated from the core (examples/js_tables.rs)
// and wasm/README.md, the package's README (npm-readme.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { npmReadme } from './npm-readme.mjs';
import { FORBIDDEN, functionNames } from './wasm-names.mjs';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(wasmDir, '..');
const pkg = join(wasmDir, 'pkg');
const dist = join(wasmDir, 'dist');
export const PARTS = ['main', 'date', 'snapshot', 'budget', 'fleet'];

function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  return execFileSync(cmd, args, { cwd: root, stdio: ['ignore', opts.capture ? 'pipe' : 'inherit', 'inherit'] });
}

const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
rmSync(pkg, { recursive: true, force: true });
mkdirSync(pkg);
writeFileSync(join(pkg, 'tables.js'),
  run('cargo', ['run', '-q', '-p', 'seeded-backoff-wasm', '--example', 'js_tables'], { capture: true }));

// The features rustc enables by default for wasm32-unknown-unknown; wasm-opt must accept them.
const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'reference-types',
  'multivalue', 'mutable-globals'].map((f) => `--enable-${f}`);
const built = join(target, 'wasm32-unknown-unknown', 'wasm-release', 'seeded_backoff_wasm.wasm');
const sizes = [];
for (const part of PARTS) {
  run('cargo', ['build', '-q', '-p', 'seeded-backoff-wasm', '--target', 'wasm32-unknown-unknown',
    '--profile', 'wasm-release', '--no-default-features', '--features', `rt,${part}`]);
  const name = `seeded_backoff_${part}`;
  const input = join(pkg, `${name}.input.wasm`);
  copyFileSync(built, input);
  run('wasm-bindgen', ['--target', 'bundler', '--no-typescript', '--out-dir', pkg, '--out-name', name, input]);
  rmSync(input);
  rmSync(join(pkg, `${name}.js`)); // imports the wasm as an ES module; js/wasm.js instantiates instead
  // The build proof: before wasm-opt (which would drop the names), no allocator and no core::fmt.
  const bg = join(pkg, `${name}_bg.wasm`);
  const names = functionNames(readFileSync(bg));
  if (names.length === 0) throw new Error(`${bg}: no name section to check`);
  const bad = names.filter((n) => FORBIDDEN.test(n));
  if (bad.length) throw new Error(`${bg} links allocator or formatting code: ${bad.join(', ')}`);
  console.log(`check: ${name}: ${names.length} functions, no allocator, no core::fmt`);
  // binaryen from npm (a devDependency): Debian's wasm-opt 108 breaks wasm-bindgen's output.
  run(join(wasmDir, 'node_modules', '.bin', 'wasm-opt'), ['-Oz', ...features, '--strip-debug',
    '--strip-producers', '--strip-target-features', bg, '-o', join(pkg, `${name}.wasm`)]);
  rmSync(bg);
  sizes.push(`${part} ${statSync(join(pkg, `${name}.wasm`)).size} B`);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
// Browser/bundler build: js/*.js flat in dist/ with the glue and tables; loader.js the browser one.
const flat = (text) => text.replaceAll("'../pkg/", "'./");
for (const name of readdirSync(join(wasmDir, 'js'))) {
  if (name.startsWith('loader-') || name === 'outbox') continue;
  writeFileSync(join(dist, name), flat(readFileSync(join(wasmDir, 'js', name), 'utf8')));
}
copyFileSync(join(wasmDir, 'js', 'loader-browser.js'), join(dist, 'loader.js'));
// seeded-backoff/outbox (browser only): its modules in dist/outbox/, over dist/index.js.
mkdirSync(join(dist, 'outbox'));
for (const name of readdirSync(join(wasmDir, 'js', 'outbox'))) copyFileSync(join(wasmDir, 'js', 'outbox', name), join(dist, 'outbox', name));
for (const name of readdirSync(pkg)) copyFileSync(join(pkg, name), join(dist, name));

const loaderPlugin = (file) => ({
  name: 'loader',
  setup(build) {
    build.onResolve({ filter: /^\.\/loader\.js$/ }, () => ({ path: join(wasmDir, 'js', file) }));
  },
});
const common = { entryPoints: [join(wasmDir, 'js', 'index.js')], bundle: true, target: 'es2022',
  logLevel: 'warning', legalComments: 'none' };
await esbuild.build({ ...common, outfile: join(dist, 'node.mjs'), format: 'esm', platform: 'node',
  plugins: [loaderPlugin('loader-node-esm.js')] });
await esbuild.build({ ...common, outfile: join(dist, 'node.cjs'), format: 'cjs', platform: 'node',
  plugins: [loaderPlugin('loader-node-cjs.js')],
  // Only the browser loader reads `import.meta.url`; Node's CommonJS loader uses __dirname.
  logOverride: { 'empty-import-meta': 'silent' } });
// The outbox for Node (IndexedDB from a polyfill, in tests), over node.mjs.
await esbuild.build({ ...common, entryPoints: [join(wasmDir, 'js', 'outbox', 'index.js')], outfile: join(dist, 'outbox-node.mjs'),
  format: 'esm', platform: 'node', plugins: [{ name: 'package', setup(build) {
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: './node.mjs', external: true }));
  } }] });
for (const name of readdirSync(join(wasmDir, 'types'))) {
  copyFileSync(join(wasmDir, 'types', name), join(dist, name));
}
copyFileSync(join(wasmDir, 'types', 'index.d.ts'), join(dist, 'index.d.cts'));
writeFileSync(join(wasmDir, 'README.md'), npmReadme(readFileSync(join(root, 'README.md'), 'utf8'),
  JSON.parse(readFileSync(join(wasmDir, 'package.json'), 'utf8'))));
console.log(`built ${dist}: wasm ${sizes.join(', ')}`);
