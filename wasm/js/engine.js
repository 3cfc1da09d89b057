// The engine: the Rust core, compiled once per part (main, date, snapshot, budget, fleet, pacer,
// send_rate) to a small WebAssembly module whose bytes are inlined in a JS module
// (pkg/<part>-part.js), so that nothing is fetched, nothing is copied next to a bundle and no
// bundler needs a setting. Every part a program uses is in its static import graph: a call made
// while the network is gone finds its engine in hand. The synchronous API compiles a part the
// first time it is used; retry() compiles it asynchronously while its first attempt is in flight,
// so that attempt waits for nothing.
//
// Where WebAssembly is refused (a Content-Security-Policy without 'wasm-unsafe-eval'), the same
// core compiled to JS by binaryen's wasm2js runs instead: the same exports, the same memory
// layout, the same delays bit for bit. A page opts in with `import 'seeded-backoff/csp'` (the main
// and date parts) or `seeded-backoff/csp/full` (every part), which register those builds here;
// other programs never carry them.
import { BYTES, WORDS } from '../pkg/tables.js';
import { gate } from './gate.js';

/** The JS builds of the parts, by name, once `seeded-backoff/csp` is imported. */
const builds = {};

/** Registers the JS build `exports` of the part `name` (seeded-backoff/csp). */
export function useJsBuild(name, exports) {
  builds[name] = exports;
}

/** The parts the program imports, by name. */
const parts = {};

/** The part `name` if the program imports it statically, else undefined. */
export const imported = (name) => parts[name];

/** What modules register for others that do not import them: `pace` (send-rate.js). */
export const registry = {};

/**
 * A part from its name and its module's bytes (hex). Its calls are marked pure, so that a bundler
 * drops a part the program never uses.
 */
export const part = (name, hex) => (parts[name] = { name, hex });

function adopt(p, x) {
  const at = x.io();
  // The memory never grows (nothing allocates), so these views stay valid.
  p.u32 = new Uint32Array(x.memory.buffer, at, WORDS);
  p.u8 = new Uint8Array(x.memory.buffer, at + WORDS * 4, BYTES);
  p.x = x;
  return p;
}

/**
 * Gives part `p`'s area to another writer: the Backoff whose live state the area holds copies it
 * back first (backoff.js keeps stepping there, and reads nothing back, while it owns the area).
 */
export function release(p) {
  p.flush?.(p);
  p.flush = p.owner = null;
}

// The budget a step asks (gate.js): the one function the engine imports.
const IMPORTS = { env: { gate } };

const bytes = (p) => Uint8Array.from(p.hex.match(/../g), (h) => parseInt(h, 16));

/** The JS build of `p` where this page refused its WebAssembly (`e`), or the error that says what to add. */
function jsBuild(p, e) {
  const x = builds[p.name];
  if (x) return x;
  const line = p.name === 'main' || p.name === 'date' ? 'seeded-backoff/csp' : 'seeded-backoff/csp/full';
  throw new Error(`seeded-backoff: this page refuses WebAssembly (${e?.message}): add \`import '${line}'\` once, before the package is used, to run its JS build`, { cause: e });
}

/** `p`, ready for synchronous calls: compiled now if need be. */
export function get(p) {
  if (!p.x) {
    let x;
    try {
      x = new WebAssembly.Instance(new WebAssembly.Module(bytes(p)), IMPORTS).exports;
    } catch (e) {
      x = jsBuild(p, e);
    }
    adopt(p, x);
  }
  return p;
}

/** `p`, ready: its WebAssembly compiled off the main thread, or its JS build where that is refused. */
export async function load(p) {
  if (!p.x) {
    let x;
    try {
      x = (await WebAssembly.instantiate(bytes(p), IMPORTS)).instance.exports;
    } catch (e) {
      x = jsBuild(p, e);
    }
    if (!p.x) adopt(p, x);
  }
  return p;
}
