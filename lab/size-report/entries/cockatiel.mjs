// The same job for every library: retry a failing call with Google's shape (1 s, x2, 32 s, 10 retries).
import { ExponentialBackoff, handleAll, retry } from 'cockatiel';

const policy = retry(handleAll, {
  maxAttempts: 10,
  backoff: new ExponentialBackoff({ initialDelay: 1000, maxDelay: 32000, exponent: 2 }),
});
export const run = (fn) => policy.execute(fn);
