// seeded-backoff/valkey with the real iovalkey (pinned) against a real redis-server on 127.0.0.1:
// 50 clients connected, the server killed and restarted 3 s later. Every client reconnects; each
// one's reconnect delays are the independent model's for its seed, so their schedules spread (no
// 100 ms bin holds half of them); the reconnects' busiest 100 ms bin as they came is reported
// against iovalkey's default retryStrategy (min(times × 50, 2000) ms) on the same outage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Valkey from 'iovalkey';
import { modelDelays } from './model.mjs';
import { importEntry } from './package-entry.mjs';
import { redisServer } from './redis-server.mjs';

const { retryStrategy } = await importEntry('./valkey');
const { Policy } = await importEntry('.');

const CLIENTS = 50;
const DOWN_MS = 3000;
const SEED0 = 7000;

const ready = (c) => (c.status === 'ready' ? Promise.resolve() : new Promise((resolve) => c.once('ready', resolve)));

/** Connects CLIENTS clients, kills the server, restarts it DOWN_MS later; returns each client's ms
 * from the restart to its 'ready'. */
async function outage(options) {
  const server = await redisServer();
  const clients = Array.from({ length: CLIENTS }, (_, i) => new Valkey({ host: '127.0.0.1', port: server.port,
    maxRetriesPerRequest: null, ...options(i) }));
  try {
    await Promise.all(clients.map(ready));
    const lost = clients.map((c) => new Promise((resolve) => c.once('reconnecting', resolve)));
    await server.kill();
    await Promise.all(lost);
    const back = clients.map((c) => new Promise((resolve) => c.once('ready', () => resolve(performance.now()))));
    await sleep(DOWN_MS);
    await server.start();
    const restarted = performance.now();
    const times = await Promise.race([Promise.all(back), sleep(60_000).then(() => null)]);
    assert.ok(times, 'every client reconnected within 60 s');
    return times.map((t) => t - restarted);
  } finally {
    clients.forEach((c) => c.disconnect());
    await server.close();
  }
}

function busiestBin(ms) {
  const bins = new Map();
  for (const t of ms) bins.set(Math.floor(t / 100), (bins.get(Math.floor(t / 100)) ?? 0) + 1);
  return Math.max(...bins.values());
}

test('50 iovalkey clients reconnect on the model\'s schedule for their seeds, spread out', async () => {
  const asked = Array.from({ length: CLIENTS }, () => []);
  const ours = await outage((i) => ({
    retryStrategy: retryStrategy({ seed: SEED0 + i, onRetry: ({ attempt, delayMs }) => asked[i].push([attempt, delayMs]) }),
  }));
  const expected = modelDelays(asked.map((steps, i) => ({ seed: SEED0 + i, steps: steps.map(([times]) => ({ reset: times === 1 })) })));
  for (let i = 0; i < CLIENTS; i++) {
    assert.ok(asked[i].length >= 2, `client ${i} waited at least twice (3 s down, first delay 1-2 s): ${asked[i]}`);
    assert.deepEqual(asked[i].map(([, d]) => d), expected[i], `client ${i}`);
  }
  const lib = await outage(() => ({}));
  console.log(`iovalkey, ${CLIENTS} clients, server down ${DOWN_MS / 1000} s: busiest 100 ms bin of reconnects ` +
    `${busiestBin(ours)} with retryStrategy (Google's policy), ${busiestBin(lib)} with the library default; ` +
    `last reconnect ${(Math.max(...ours) / 1000).toFixed(2)} s / ${(Math.max(...lib) / 1000).toFixed(2)} s after the restart`);
  // The spread as scheduled: each client's waits from the loss to the reconnect that held (the
  // model's, checked above), not the times the reconnects came, which a busy machine bunches.
  const scheduled = asked.map((steps) => steps.reduce((n, [, d]) => n + d, 0));
  assert.ok(busiestBin(scheduled) < CLIENTS / 2, `busiest 100 ms bin of the scheduled reconnects: ${busiestBin(scheduled)}`);
});

test('the strategy gives up with null when the policy does (SPEC §14\'s give-up), and restarts at times = 1', () => {
  const events = [];
  const s = retryStrategy({
    policy: new Policy({ preset: 'google', maxRetries: 2 }),
    seed: 1,
    onRetry: (e) => events.push(e),
    onGiveUp: (e) => events.push(e),
  });
  const [expected] = modelDelays([{ seed: 1, overrides: { max_retries: 2 }, steps: [{ reset: true }, {}, {}] }]);
  assert.deepEqual([s(1), s(2), s(3)], expected.map((d) => (typeof d === 'number' ? d : null)));
  assert.deepEqual(events.slice(0, 2).map((e) => [e.attempt, e.delayMs]), [[1, expected[0]], [2, expected[1]]]);
  assert.equal(events[2].name, 'RetryError');
  assert.equal(events[2].attempts, 3);
  assert.equal(events[2].reason, 'max_retries');
  assert.equal(typeof s(1), 'number');
  assert.throws(() => s(0), RangeError);
  assert.throws(() => retryStrategy({ sead: 1 }), TypeError);
});
