// The vector files of tests/vectors, read from disk for the Node tests: the top level and the
// startup delay's runs (startup/, SPEC.md §15.3). reconnect/ is the C library's loop alone.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VECTORS_DIR = fileURLToPath(new URL('../../tests/vectors/', import.meta.url));

export function vectorFiles() {
  const names = [...readdirSync(VECTORS_DIR), ...readdirSync(`${VECTORS_DIR}startup`).map((n) => `startup/${n}`)]
    .filter((n) => n.endsWith('.json')).sort();
  if (names.length === 0) throw new Error(`no vector files in ${VECTORS_DIR}`);
  return names.map((name) => ({ name, json: JSON.parse(readFileSync(VECTORS_DIR + name, 'utf8')) }));
}
