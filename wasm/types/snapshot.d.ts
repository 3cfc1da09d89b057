// `seeded-backoff/snapshot`: snapshot(), restore() and restoreRun() alone (the snapshot wasm part). The
// documentation of each export is in index.d.ts.
export { restore, restoreRun, RUN_SNAPSHOT_SIZE, snapshot, SNAPSHOT_SIZE, type SnapshotErrorCode } from './index.js';
