// The same job for every library: retry a failing call with Google's shape (1 s, x2, 32 s, 10 retries).
import pRetry from 'p-retry';

export const run = (fn) =>
  pRetry(fn, { retries: 10, factor: 2, minTimeout: 1000, maxTimeout: 32000, randomize: true });
