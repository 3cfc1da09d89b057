// `seeded-backoff/snapshot`: snapshot(), restore() and restoreRun() alone (the snapshot wasm part). The
// documentation of each export is in index.d.ts.
export { restore, restoreRun, snapshot, type SnapshotErrorCode } from './index.js';
