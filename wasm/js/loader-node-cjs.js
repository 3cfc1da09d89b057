// Node (CommonJS): the wasm files sit next to this bundle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instantiate } from './wasm.js';

export function loadSync(p) {
  instantiate(p, readFileSync(join(__dirname, `seeded_backoff_${p.name}.wasm`)));
  return true;
}

export const loadAsync = async (p) => loadSync(p);
