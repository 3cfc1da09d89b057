// Node (CommonJS): the wasm file sits next to this bundle.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

export function loadSync() {
  return readFileSync(join(__dirname, 'seeded_backoff_bg.wasm'));
}
