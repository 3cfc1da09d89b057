// The same job for every library: retry a failing call with Google's shape (1 s, x2, 32 s, 10 retries).
import { backOff } from 'exponential-backoff';

export const run = (fn) =>
  backOff(fn, { numOfAttempts: 11, startingDelay: 1000, timeMultiple: 2, maxDelay: 32000, jitter: 'full' });
