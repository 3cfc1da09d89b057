// The package's wasm parts (main, date, snapshot, budget: one file each) and how they load. A part
// is registered by the module that uses it, so `init()` fetches only what the program imports.
// Node loads a part synchronously on first use; browsers need `await init()` (retry() and
// fetchWithBackoff() call it themselves).
import { loadAsync, loadSync } from './loader.js';

const parts = [];
// Where a browser fetches parts from, as given to `init()`.
let base;

/**
 * The part `name`; `glue` is what its wasm-bindgen glue gives: `set` (its `__wbg_set_wasm`), `io`
 * (the export with the shared area's address) and `imports` (what the module imports from it).
 * `eager`: `init()` loads it.
 */
export function part(name, glue, eager) {
  let p = parts.find((q) => q.name === name);
  if (!p) parts.push((p = { name, glue, ready: false }));
  p.eager ||= eager;
  return p;
}

/**
 * What `part()` needs of a wasm-bindgen glue module: its `__wbg_set_wasm`, the part's export of
 * its shared area, and its `__wbindgen_init_externref_table` (the module's one import). Passed as
 * functions, not the glue module, so that a bundler keeps only the glue the program calls.
 */
export const glueOf = (set, io, initTable) => ({
  set,
  io,
  imports: { __wbindgen_init_externref_table: initTable },
});

/** Instantiates `p` from a compiled module or its bytes. */
export function instantiate(p, module) {
  const m = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
  adopt(p, new WebAssembly.Instance(m, imports(p)));
}

export const imports = (p) => ({ [`./seeded_backoff_${p.name}_bg.js`]: p.glue.imports });

/** Makes `instance` part `p`'s module: hands its exports to the glue and maps its shared area. */
export function adopt(p, instance) {
  const x = instance.exports;
  p.glue.set(x);
  x.__wbindgen_start?.();
  const at = p.glue.io();
  // The memory never grows (nothing allocates), so these views stay valid.
  p.u32 = new Uint32Array(x.memory.buffer, at, 32);
  p.u8 = new Uint8Array(x.memory.buffer, at + 128, 256);
  p.ready = true;
}

/** `p`, loaded; throws with the fix where that cannot be done synchronously. */
export function ensure(p) {
  if (!p.ready && !loadSync(p)) {
    throw new Error(`seeded-backoff: call \`await init()\` once before using it in a browser`);
  }
  return p;
}

/** Loads `p` (fetching it in a browser, once however many callers wait for it). */
export async function load(p) {
  if (!p.ready) {
    await (p.loading ??= loadAsync(p, base).catch((e) => {
      p.loading = undefined; // a failed fetch may be tried again
      throw e;
    }));
  }
  return p;
}

/**
 * Loads the parts the program imports. In a browser each is fetched from `base` (default: next to
 * the module) as `seeded_backoff_<part>.wasm`.
 */
export async function init(from) {
  base = from ?? base;
  await Promise.all(parts.filter((p) => p.eager).map(load));
}

/**
 * Instantiates parts synchronously from their bytes or compiled modules: `{ main, date, … }`.
 * (A browser's main thread compiles only modules under 4 KB from bytes: pass a `WebAssembly.Module`
 * there.)
 */
export function initSync(modules) {
  for (const p of parts) if (modules?.[p.name] && !p.ready) instantiate(p, modules[p.name]);
}
