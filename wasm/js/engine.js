// The engine: the Rust core, compiled once per part (main, date, snapshot, budget, fleet, pacer,
// send_rate) to a small WebAssembly module whose bytes are inlined in a JS module
// (pkg/<part>-part.js), so that nothing is fetched, nothing is copied next to a bundle and no
// bundler needs a setting. The synchronous API compiles a part the first time it is used; retry()
// compiles it asynchronously while its first attempt is in flight, so that attempt waits for
// nothing.
//
// Where WebAssembly is refused (a Content-Security-Policy without 'wasm-unsafe-eval'), the same
// core compiled to JS by binaryen's wasm2js is imported instead: the same exports, the same memory
// layout, the same delays bit for bit. It is a dynamic import, so that pages which compile
// WebAssembly never fetch it; retry() and fetchWithBackoff() wait for it themselves, the
// synchronous API needs `await ready()` once on such a page.
import { BYTES, WORDS } from '../pkg/tables.js';
import { gate } from './gate.js';

const parts = [];

/**
 * What retry() needs beside the main part, registered by its modules when the program imports
 * them statically (a module service worker, which may not `import()`, imports the index).
 */
export const registry = {};

/** The part `name` if the program imported it statically, else undefined. */
export const imported = (name) => parts.find((p) => p.name === name);

/**
 * A part from its name, its module's bytes (hex) and the import of its JS build. Its calls are marked pure,
 * so that a bundler drops a part the program never uses (and `ready()` never loads it).
 */
export function part(name, hex, js) {
  const p = { name, hex, js };
  parts.push(p);
  return p;
}

function adopt(p, x) {
  const at = x.io();
  // The memory never grows (nothing allocates), so these views stay valid.
  p.u32 = new Uint32Array(x.memory.buffer, at, WORDS);
  p.u8 = new Uint8Array(x.memory.buffer, at + WORDS * 4, BYTES);
  p.x = x;
  return p;
}

// The budget a step asks (gate.js): the one function the engine imports.
const IMPORTS = { env: { gate } };

const bytes = (p) => Uint8Array.from(p.hex.match(/../g), (h) => parseInt(h, 16));

/** `p`, ready for synchronous calls: compiled now if need be. */
export function get(p) {
  if (!p.x) {
    let m;
    try {
      m = new WebAssembly.Module(bytes(p));
    } catch (e) {
      throw new Error(`seeded-backoff: this page cannot compile WebAssembly (${e?.message}); \`await ready()\` once to use the JS build before calling the synchronous API`, { cause: e });
    }
    adopt(p, new WebAssembly.Instance(m, IMPORTS).exports);
  }
  return p;
}

/**
 * `p`, ready: the WebAssembly build where it compiles (compiled off the main thread), else the JS
 * build.
 */
export async function load(p) {
  if (!p.x) {
    let x;
    try {
      x = (await WebAssembly.instantiate(bytes(p), IMPORTS)).instance.exports;
    } catch {
      x = await p.js();
    }
    if (!p.x) adopt(p, x);
  }
  return p;
}

/**
 * Resolves once every part the program imports can be called synchronously. Only a page whose
 * Content-Security-Policy refuses WebAssembly needs it, before `new Backoff()`, `new Policy()`,
 * `parseRetryAfter()`…; elsewhere it resolves at once.
 */
export const ready = () => Promise.all(parts.map(load)).then(() => {});
