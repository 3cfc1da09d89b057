// Node (ESM): the wasm files sit next to this bundle.
import { readFileSync } from 'node:fs';
import { instantiate } from './wasm.js';

export function loadSync(p) {
  instantiate(p, readFileSync(new URL(`./seeded_backoff_${p.name}.wasm`, import.meta.url)));
  return true;
}

export const loadAsync = async (p) => loadSync(p);
