// Node (CommonJS): the wasm file sits next to this bundle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../pkg/seeded_backoff.js';

export function tryLoadSync() {
  initSync({ module: readFileSync(join(__dirname, 'seeded_backoff_bg.wasm')) });
  return true;
}
