// `seeded-backoff/fleet`: seedFromDevice() and startupDelay() alone (the fleet wasm part). The
// documentation of each export is in index.d.ts.
export { seedFromDevice, startupDelay } from './index.js';
