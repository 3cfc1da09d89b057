// What the adapter tests share: the independent model's delays, and a record of the waits a
// library schedules.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { startServer } from '../server.mjs';

const modelDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'model');

/**
 * The delays of SPEC.md's model (tests/model/spec_model.py) for `seed` and the google preset with
 * `fields` (snake_case), one per hint: null, { retryAfter: ms } or { rateLimit: ms }. A give-up
 * is null.
 */
/**
 * The seed of a loop's second call (SPEC.md §14: call 1 mixes in SplitMix64's first output from 0,
 * 0xE220A8397B1DCDAF), as a decimal string for the model.
 */
export const secondCallSeed = (seed) => String(BigInt(seed) ^ 0xe220a8397b1dcdafn);

export function modelDelays(seed, hints, fields = {}) {
  const script = `
import json, sys
sys.path.insert(0, sys.argv[1])
import spec_model as m
seed, hints, fields = json.loads(sys.argv[2])
b = m.Backoff(m.preset("google", **fields), int(seed))
def hint(h):
    if h is None: return None
    return m.RetryAfter(h["retryAfter"]) if "retryAfter" in h else m.RateLimit(h["rateLimit"])
out = [b.next(hint=hint(h)) for h in hints]
print(json.dumps([s.delay_ms if isinstance(s, m.Retry) else None for s in out]))
`;
  const arg = JSON.stringify([seed, hints, fields]);
  return JSON.parse(execFileSync('python3', ['-c', script, modelDir, arg], { encoding: 'utf8' }));
}

/** The module of each library that sleeps between retries (its other timers are left alone). */
const SLEEPS = {
  ky: '/node_modules/ky/distribution/utils/delay.js',
  'axios-retry': '/node_modules/axios-retry/',
  got: '/node_modules/got/dist/source/core/index.js',
};

/**
 * Replaces setTimeout while `run()` runs: a timer set by `lib`'s retry sleep is recorded (its ms)
 * and fires at once; every other timer is left alone. None of the three libraries takes a clock
 * or a sleep function; each sleeps between retries with the global setTimeout, so the record is
 * exactly what it would have waited.
 */
export async function recordWaits(lib, run) {
  const real = globalThis.setTimeout;
  const waits = [];
  globalThis.setTimeout = function setTimeout(fn, ms, ...args) {
    const stack = new Error().stack;
    // got's `timeout.request` timer is set from the same module as its sleep, by this method.
    if (stack.includes(SLEEPS[lib]) && !stack.includes('_checkRequestTimeout')) {
      waits.push(ms);
      return real(fn, 0, ...args);
    }
    return real(fn, ms, ...args);
  };
  try {
    return { value: await run(), waits };
  } catch (error) {
    return { error, waits };
  } finally {
    globalThis.setTimeout = real;
  }
}
