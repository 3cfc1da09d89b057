// The function names in a wasm module's "name" section (what rustc and wasm-bindgen leave there),
// for the build check that no allocator or formatting code is linked.

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

/** Every function name in `bytes` (a wasm module); empty if it has no name section. */
export function functionNames(bytes) {
  const names = [];
  const text = new TextDecoder();
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 0) {
      let [len, p] = leb(bytes, at);
      if (text.decode(bytes.subarray(p, p + len)) === 'name') {
        p += len;
        while (p < end) {
          const sub = bytes[p++];
          let subSize;
          [subSize, p] = leb(bytes, p);
          if (sub === 1) {
            let count;
            let q;
            [count, q] = leb(bytes, p);
            for (let i = 0; i < count; i++) {
              let n;
              [, q] = leb(bytes, q);
              [n, q] = leb(bytes, q);
              names.push(text.decode(bytes.subarray(q, q + n)));
              q += n;
            }
          }
          p += subSize;
        }
      }
    }
    at = end;
  }
  return names;
}

/**
 * Names that mean an allocator, `core::fmt` or a panic path was linked, in every spelling rustc
 * uses (`core::fmt`, `core[hash]::fmt`, legacy-mangled `4core3fmt`).
 */
export const FORBIDDEN =
  /__rust_alloc|__rust_realloc|__rdl_|__rg_|dlmalloc|__wbindgen_malloc|__wbindgen_realloc|core(\[[0-9a-f]+\])?::fmt|4core3fmt|panicking|panic_fmt|panic_bounds_check/;
