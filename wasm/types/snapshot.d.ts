// `seeded-backoff/snapshot`: snapshot() and restore() alone (the snapshot wasm part). The
// documentation of each export is in index.d.ts.
export { restore, snapshot, type SnapshotErrorCode } from './index.js';
