// `seeded-backoff/snapshot`: snapshot() and restore() alone, for CommonJS (the snapshot wasm part). The
// documentation of each export is in index.d.ts.
export { restore, snapshot, type SnapshotErrorCode } from './index.cjs';
