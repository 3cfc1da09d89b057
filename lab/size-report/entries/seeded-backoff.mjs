// The same job for every library: retry a failing call with Google's shape (1 s, x2, 32 s, 10 retries).
// Resolved by the size report to wasm/dist/index.js; the .wasm it loads is counted separately.
import { retry } from 'seeded-backoff';

export const run = (fn) => retry(fn, { preset: 'google' });
