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
 * That the times `at` (ms on performance.now(), any order; each taken after its attempt was let
 * go) are paced by a burst-1 send rate of `intervalMs` that let no attempt go since `startMs`:
 * §17.4 step 4 sets next_us to at least the sending reading plus the interval, and with burst 1 the
 * next send needs now >= next_us, so the k-th send since `startMs` (from 0) reads at least
 * startMs's reading + k·interval on the package's clock (whole ms, rounded down); the k-th earliest time is no
 * earlier than the k-th send. Only the order of events and the rate's arithmetic enter: a timer
 * firing late cannot fail it, an attempt let go early does.
 */
export function assertPaced(at, startMs, intervalMs, what) {
  // On the package's clock (nowMs(): the epoch reading performance.timeOrigin + performance.now(),
  // rounded down), whose whole milliseconds are not performance.now()'s: the times of this process
  // moved onto it, so that a send read at whole ms m happens no earlier than m.
  const o = performance.timeOrigin;
  const t = [...at].map((x) => x + o).sort((a, b) => a - b);
  const base = Math.floor(o + startMs);
  const early = t.findIndex((x, k) => x < base + k * intervalMs);
  assert.equal(early, -1, `${what}: attempt ${early + 1} left ${(t[early] - base).toFixed(1)} ms after the start, ` +
    `before ${early} intervals of ${intervalMs} ms; all at +${t.map((x) => (x - base).toFixed(1)).join(', ')} ms`);
}
