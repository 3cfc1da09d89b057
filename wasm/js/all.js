// Every export of every entry point: what the package's own integrations and the outbox import,
// and the one CommonJS module (dist/all.cjs) that each `require()` entry picks its names from, so
// that every entry shares one copy of the classes and the engine.
export * from './index.js';
export { fetchWithBackoff, IDEMPOTENT_METHODS, retry } from './retry.js';
export * from './retry-after.js';
export * from './snapshot.js';
export * from './budget.js';
export * from './fleet.js';
export * from './pacer.js';
export * from './send-rate.js';

// The one driver of a run and the settings it takes, for the integrations (google-cloud.js): not an
// export of any entry point, but of the one copy of the package they share.
export { drive } from './driver.js';
export { settings } from './settings.js';
