// What the ky, axios-retry and got adapters share: one seeded run per request (the core's Run,
// SPEC.md §15), and a response's hint read by the core. Only the package's public API: the build
// points '../index.js' at the package itself, so an adapter and its user share one copy of it.
import { Backoff, callSeed, hintFromHeaders, Run } from '../index.js';

const clock = () => Math.floor(performance.now());

/**
 * One request's run, started when the request is: the library makes the attempts and sleeps, the
 * run answers each failure with a delay or gives up (null). A class, not a plain object, so that a
 * library that merges options (axios) carries it by reference.
 */
class Request {
  #run;
  #asleep = false;

  constructor(policy, seed) {
    this.#run = new Run(policy, { seed });
    this.#run.start(clock());
  }

  /** The next delay in ms, or null to give up; `hint` as `hintFromHeaders` gives it. */
  next(hint = {}) {
    // The library slept the last delay and made the next attempt: this failure is its outcome.
    if (this.#asleep) this.#run.wake(clock());
    const a = this.#run.outcome(hint, clock());
    this.#asleep = a.type === 'retry';
    return this.#asleep ? a.delayMs : null;
  }

  /**
   * The next delay after a response with `status` and `headers` (a Headers or an object of
   * values): its hint by the core's rule (a valid Retry-After, else for a 429 the first rate-limit
   * header that parses; unparseable values are ignored, as RFC 9110 lets a recipient do). The
   * HTTP-date parser is loaded only when such a value arrives, hence a promise.
   */
  async after(status, headers) {
    return this.next(await hintFromHeaders(status, headers));
  }
}

/**
 * A function giving each new request its Request: request i (in the order they start) runs with
 * `callSeed(seed, i)` (SPEC.md §14, as every loop of every binding), so that concurrent requests
 * jitter apart while a test stays reproducible. Omitted, the seed is a random one. A bad policy or
 * seed throws here, once, with the package's usual TypeError or RangeError.
 */
export function requests(policy, seed) {
  const { policy: p, seed: base } = new Backoff(policy, seed);
  let i = 0;
  return () => new Request(p, callSeed(base, i++));
}
