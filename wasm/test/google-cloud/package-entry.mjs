// The built npm package (wasm/dist), each entry point found through its package.json "exports"
// as Node resolves it for `import`: the tests use the package as its users get it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WASM = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function importEntry(subpath) {
  const exports = JSON.parse(readFileSync(join(WASM, 'package.json'), 'utf8')).exports;
  const file = exports[subpath]?.import;
  const path = typeof file === 'string' ? file : file?.default;
  if (!path) throw new Error(`package.json exports no Node import for ${subpath}`);
  return import(pathToFileURL(join(WASM, path)).href);
}
