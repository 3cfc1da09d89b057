// Send rates whose rate is known by hand from SPEC.md §17, for the tests of the loops and adapters
// that take a `sendRate`, and the checks on what such a loop left a server.
import assert from 'node:assert/strict';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A send rate fixed at `perS` requests a second, on now: minRateMilli = maxRateMilli = perS·1000,
 * turned on by one throttle without a hint (§17.5: the rate is clamped to [min, max], so it is
 * perS·1000 whatever was measured, and no probe can raise it). Its interval is 1000 / perS ms, and
 * burst 1 (§17.4 step 3: allowed = next_us) lets no two attempts go closer than that.
 */
export function fixedRate(SendRate, perS, options = {}) {
  const rate = new SendRate({ minRateMilli: perS * 1000, maxRateMilli: perS * 1000, burst: 1, ...options });
  rate.answer('throttled', 0);
  assert.equal(rate.rateMilli, perS * 1000);
  return rate;
}

/**
 * A send rate that learnt 98/s just now: 100 accepted over the last second (at now − 1000 + 10·t),
 * then a throttle without a hint at now. §17.2: span = min(now − 250·e + 1000, now − first) = 1000
 * ms and all 100 in the kept buckets, so accepted_rate = 100 000; §17.5: current = 100 000, base =
 * max(min(100 000, 100 000), 50 000), rate = 100 000 · 980 ÷ 1000 = 98 000. probeMs 60 000 keeps a
 * probe from raising it while a test runs.
 */
export async function learntRate(SendRate) {
  if (performance.now() < 1100) await sleep(1100 - performance.now());
  const now = Math.floor(performance.now());
  const rate = new SendRate({ probeMs: 60_000 });
  for (let t = 0; t < 100; t++) rate.answer('accepted', 0, now - 1000 + t * 10);
  rate.answer('throttled', 0, now);
  assert.equal(rate.rateMilli, 98_000);
  return rate;
}

/**
 * After a 429 without a hint, from 98 000 (§17.5): base = max(min(98 000, accepted_rate),
 * 49 000), so the rate is at most 98 000 · 980 ÷ 1000 = 96 040 and at least 49 000 · 980 ÷ 1000 =
 * 48 020, whatever the window measured meanwhile.
 */
export const CUT = [48_020, 96_040];

/** A send rate that refuses at once: fail-fast, held 60 s by a throttle's hint (§17.4 step 2). */
export function refusingRate(SendRate) {
  const rate = new SendRate({ failFast: true });
  rate.answer('throttled', 60_000);
  assert.equal(rate.ask().kind, 'refuse');
  return rate;
}

/**
 * Slack allowed on each gap between two arrivals and on their whole span, in ms: a timer fires
 * late, and the N clients share one thread, so the first request's send waits behind the others'
 * setup (up to 14 ms seen under the test machine's load). The span still tells a rate 20 % off
 * (5 arrivals at 40 ms apart span 160 ms, not 200 − 20).
 */
export const SLACK_MS = 20;

/**
 * That the arrival times `at` (ms, any order) are spaced by at least `intervalMs` less SLACK_MS
 * each, and that all of them took no less than (n − 1)·interval − SLACK_MS.
 */
export function assertSpaced(at, intervalMs, what) {
  const t = [...at].sort((a, b) => a - b);
  const gaps = t.slice(1).map((x, i) => Math.round((x - t[i]) * 10) / 10);
  assert.ok(gaps.every((g) => g >= intervalMs - SLACK_MS), `${what}: gaps ${gaps.join(', ')} ms, each should be >= ${intervalMs} - ${SLACK_MS}`);
  assert.ok(t.at(-1) - t[0] >= (t.length - 1) * intervalMs - SLACK_MS, `${what}: span ${t.at(-1) - t[0]} ms`);
}
