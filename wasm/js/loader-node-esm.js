// Node (ESM): the wasm file sits next to this bundle.
import { readFileSync } from 'node:fs';

export function loadSync() {
  return readFileSync(new URL('./seeded_backoff_bg.wasm', import.meta.url));
}
