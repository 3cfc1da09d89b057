// `seeded-backoff/pacer`: Pacer and pace() alone (the pacer wasm part, for servers). The
// documentation of each export is in index.d.ts.
export { type PacedResponse, pace, Pacer, type PacerHeaders, type PacerOptions, type PacerSlot } from './index.js';
