// The same job for every library: retry a failing call with Google's shape (1 s, x2, 32 s, 10 retries).
// ky retries fetch requests itself (Retry-After and rate-limit headers included).
import ky from 'ky';

export const run = () =>
  ky('/api/items', { retry: { limit: 10, backoffLimit: 32000, delay: (n) => 1000 * 2 ** (n - 1) } }).json();
