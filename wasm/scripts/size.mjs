// Size report (printed; the test fails above the budget):
//  (a) what a browser downloads: the wasm plus the package's JS (glue + API), gzipped;
//  (b) the JS of a typical retry() usage bundled by esbuild --minify, gzipped. Budget: 3500 B.
//      The wasm is a separate file fetched by init(), as with any wasm package; it is in (a).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const BUDGET_B = 3500;
const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

const wasm = readFileSync(join(wasmDir, 'dist', 'seeded_backoff_bg.wasm'));
const bundle = async (contents) => {
  const out = await esbuild.build({
    stdin: { contents, resolveDir: wasmDir, sourcefile: 'usage.js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0].contents;
};
// (a): the whole API, so nothing is tree-shaken away.
const glueMin = await bundle("export * from 'seeded-backoff';");

const usage = `
import { retry } from 'seeded-backoff';
const controller = new AbortController();
const res = await retry(({ signal }) => fetch('/api/items', { signal }), {
  preset: 'google', maxRetries: 5, signal: controller.signal,
});
console.log(await res.json());
`;
const usageMin = await bundle(usage);

const rows = [
  ['(a) wasm', wasm.length, gz(wasm)],
  ['(a) JS: glue + whole API, esbuild --minify', glueMin.length, gz(glueMin)],
  ['(a) total', wasm.length + glueMin.length, gz(wasm) + gz(glueMin)],
  ['(b) retry() usage, esbuild --minify', usageMin.length, gz(usageMin)],
  ['(b) + the wasm it fetches', usageMin.length + wasm.length, gz(usageMin) + gz(wasm)],
];
console.log('size report (bytes):');
for (const [name, raw, z] of rows) {
  console.log(`  ${name.padEnd(44)} ${String(raw).padStart(7)} raw ${String(z).padStart(7)} gzip`);
}
const b = gz(usageMin);
if (b > BUDGET_B) {
  console.error(`FAIL: (b) is ${b} B gzipped, above the ${BUDGET_B} B budget`);
  process.exit(1);
}
console.log(`ok: (b) ${b} B <= ${BUDGET_B} B`);
