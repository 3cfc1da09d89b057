// What the ky, axios-retry and got adapters share: one seeded schedule per request, and a
// response's hint read by the core. Only the package's public API: the build points '../index.js'
// at the package itself, so an adapter and its user share one copy of it.
import { Backoff, parseRateLimit, parseRetryAfter, RATE_LIMIT_HEADERS, rateLimitApplies } from '../index.js';

/**
 * One request's retries: its seeded Backoff and its start (the time since counts against the
 * policy's maxElapsedMs). A class, not a plain object, so that a library that merges options
 * (axios) carries it by reference.
 */
class Request {
  constructor(backoff) {
    this.backoff = backoff;
    this.start = Date.now();
  }

  /**
   * The next delay in ms, or null to give up. With a response (`status`, and `header(name)` that
   * is null or undefined when absent): its valid Retry-After, else for a 429 the first rate-limit
   * header that parses; unparseable values are ignored, as RFC 9110 lets a recipient do.
   */
  step(status, header) {
    const now = Date.now();
    const input = { elapsedMs: Math.max(0, now - this.start) };
    const parse = (name, f) => {
      const v = header(name);
      if (v != null) {
        try {
          return f(String(v), now);
        } catch {
          // Ignored: the delay is the schedule's.
        }
      }
    };
    if (status !== undefined) {
      input.retryAfterMs = parse('retry-after', parseRetryAfter);
      if (input.retryAfterMs === undefined && rateLimitApplies(status)) {
        for (const name of RATE_LIMIT_HEADERS) {
          if ((input.rateLimitMs = parse(name, (v, t) => parseRateLimit(name, v, t))) !== undefined) break;
        }
      }
    }
    return this.backoff.nextDelay(input);
  }
}

/**
 * A function giving each new request its Request: the first request that fails uses `seed`, the
 * next `seed + 1`, and so on (as the Rust TowerPolicy does), so that concurrent requests jitter
 * apart while a test stays reproducible. Omitted, the seeds start at a random one. A bad policy or
 * seed throws here, once, with the package's usual TypeError or RangeError.
 */
export function requests(policy, seed) {
  const { policy: p, seed: base } = new Backoff(policy, seed);
  let k = 0n;
  return () => new Request(new Backoff(p, (base + k++) & 0xffffffffffffffffn));
}
