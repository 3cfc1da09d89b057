// Browsers have no synchronous way to get the wasm bytes: `init()` fetches them instead.
import { adopt, imports } from './wasm.js';

export const loadSync = () => false;

export async function loadAsync(p, base = new URL('./', import.meta.url)) {
  const res = fetch(new URL(`seeded_backoff_${p.name}.wasm`, base));
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(res, imports(p));
  } catch {
    // Served without the application/wasm type: compile from the bytes instead.
    result = await WebAssembly.instantiate(await (await res).arrayBuffer(), imports(p));
  }
  if (!p.ready) adopt(p, result.instance);
}
