// Loads the core's wasm once. Node loads it synchronously on first use (its loader reads the file
// next to the bundle); browsers need `await init()` first, as they only fetch asynchronously.
import initGlue, { initSync as initGlueSync } from '../pkg/seeded_backoff.js';
import { tryLoadSync } from './loader.js';

let ready = false;

/** Makes sure the wasm is instantiated; throws with the fix when it cannot be done synchronously. */
export function ensure() {
  if (!ready && !(ready = tryLoadSync())) {
    throw new Error('seeded-backoff: call `await init()` once before using it in a browser');
  }
}

/** Instantiates the wasm (fetching `seeded_backoff_bg.wasm` next to the module unless given). */
export async function init(input) {
  if (ready || (input === undefined && (ready = tryLoadSync()))) return;
  await initGlue(input === undefined ? undefined : { module_or_path: input });
  ready = true;
}

/** Instantiates the wasm from its bytes (or a compiled module), synchronously. */
export function initSync(module) {
  if (ready) return;
  initGlueSync({ module });
  ready = true;
}
