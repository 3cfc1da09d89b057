// Browsers have no synchronous way to get the wasm bytes: `init()` fetches them instead.
export function tryLoadSync() {
  return false;
}
