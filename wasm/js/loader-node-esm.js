// Node (ESM): the wasm file sits next to this bundle.
import { readFileSync } from 'node:fs';
import { initSync } from '../pkg/seeded_backoff.js';

export function tryLoadSync() {
  initSync({ module: readFileSync(new URL('./seeded_backoff_bg.wasm', import.meta.url)) });
  return true;
}
