// What the ky, axios-retry and got adapters share: one seeded run per request (the core's Run,
// SPEC.md §15), and a response's hint read by the core. The build points '../index.js' at the
// package itself, so an adapter and its user share one copy of it; the other modules are the
// package's own files beside it, which its main entry imports too.
// With a `sendRate`, the run is paced by it (SPEC.md §15.2): the library's hook before each
// attempt, the first included, awaits `gate()`, and every response's status is told to the core,
// which reads its answer (§17.3).
import { Backoff, hintFromHeaders, nowMs as clock, RetryError, Run } from '../index.js';
// The classes of a status without the HTTP-date parser, which the retry-after entry brings.
import { classifyHttp } from '../classify.js';
import { callSeed } from '../policy.js';
import { keys } from '../check.js';

// The request's own signal (one per request): its listener goes with it.
const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(signal.reason);
  }, { once: true });
});

/**
 * One request's run: the library makes the attempts and sleeps, the run answers each failure
 * with a delay or gives up (null). A class, not a plain object, so that a library that merges
 * options (axios) carries it by reference. Without a send rate it starts when it is made (at the
 * request's first failure); with one, at the first `gate()`.
 */
class Request {
  #run;
  #paced;
  #asleep = false;
  #started = false;

  constructor(policy, seed, sendRate) {
    this.#paced = sendRate !== undefined;
    this.#run = new Run(policy, { seed, sendRate });
    if (!this.#paced) this.#start();
  }

  #start() {
    this.#started = true;
    return this.#run.start(clock());
  }

  /**
   * Before an attempt of a paced request: resolves when the send rate lets it go, after its
   * waits; rejects with a RetryError when the run gives up (a fail-fast refusal, 'throttled', or
   * a wait past maxElapsedMs, 'deadline'). Without a send rate, resolves at once.
   */
  async gate(signal) {
    if (!this.#paced) return;
    let a = this.#started ? this.#run.wake(clock()) : this.#start();
    this.#asleep = false;
    while (a.type === 'wait') {
      await sleep(a.delayMs, signal);
      a = this.#run.wake(clock());
    }
    // The core's give-up, as retry() gives it: the library holds the last error, if any.
    if (a.type === 'give_up') throw new RetryError(undefined, a.attempts, a.reason);
  }

  /**
   * The next delay in ms, or null to give up; `hint` as `hintFromHeaders` gives it, `status` the
   * response's (the send rate's answer), omitted for an error without a response (no answer).
   */
  next(hint = {}, status = undefined) {
    // The library slept the last delay and made the next attempt: this failure is its outcome.
    if (this.#asleep) this.#run.wake(clock());
    const a = this.#run.outcome(hint, clock(), this.#paced ? status : undefined);
    this.#asleep = a.type === 'retry' && !this.#paced;
    return a.type === 'retry' ? a.delayMs : null;
  }

  /**
   * The next delay after a response with `status` and `headers` (a Headers or an object of
   * values): its hint by the core's rule (a valid Retry-After, else for a 429 the first rate-limit
   * header that parses; unparseable values are ignored, as RFC 9110 lets a recipient do). The
   * HTTP-date parser is loaded only when such a value arrives, hence a promise.
   */
  async after(status, headers) {
    return this.next(await hintFromHeaders(status, headers), status);
  }

  /**
   * A paced request's response that is not retried (a status the core does not retry): the run
   * ends, telling the send rate its answer. Nothing without a send rate, or once the run ended.
   */
  settle(status) {
    if (!this.#paced || !this.#started || this.#run.phase !== 'attempting') return;
    this.#run.outcome(classifyHttp(status) === 'success' ? 'success' : 'permanent', clock(), status);
  }
}

/**
 * A function giving each new request its Request: request i (in the order they start) runs with
 * `callSeed(seed, i)` (SPEC.md §14, as every loop of every binding), so that concurrent requests
 * jitter apart while a test stays reproducible. Omitted, the seed is a random one. A bad policy,
 * seed or `sendRate` throws here, once, with the package's usual TypeError or RangeError. On a
 * page that refuses WebAssembly without `import 'seeded-backoff/csp'`, the check waits for the
 * first request that needs the engine, which then throws the error naming that line: an adapter
 * made at a module's top level never takes the module down.
 */
export function requests(policy, seed, sendRate) {
  let made;
  const make = () => {
    if (!made) {
      const { policy: p, seed: base } = new Backoff(policy, seed);
      // Checked now (a TypeError naming sendRate), not at the first request.
      if (sendRate !== undefined) new Run(p, { sendRate });
      made = { p, base };
    }
    return made;
  };
  try {
    make();
  } catch (e) {
    if (!String(e?.message).includes("import 'seeded-backoff/csp'")) throw e;
  }
  let i = 0;
  return () => {
    const { p, base } = make();
    return new Request(p, callSeed(base, i++), sendRate);
  };
}

/** The adapters' third argument, `{ sendRate }` (and `extra` names), checked. */
export function adapterOptions(name, options, extra = []) {
  return keys(`${name} options`, options, ['sendRate', ...extra]);
}
