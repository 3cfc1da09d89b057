//! wasm-bindgen bindings (issue 4): filled in by the npm package work.
