// paceConnections(client, { sendRate }) with the real iovalkey (pinned) against a real
// redis-server on 127.0.0.1: 10 clients sharing one SendRate fixed at 20/s (50 ms apart, burst 1),
// the server killed and restarted 1 s later. Each client's backoff is the same (Google's, 200 ms
// first, no jitter), so without the rate they reconnect together; with it, the connections of
// every client (each socket the connector makes, timed by a wrapper under the gate) leave no
// sooner than the rate lets them (the k-th at least k intervals after the kill), and all are ready
// within 10 s of the restart. A fail-fast rate held by a hint (as an HTTP loop sharing it would learn) refuses:
// each client fails with RetryError 'throttled' and ends without another socket. The interval is
// derived by hand in ../send-rate-fixtures.mjs and SPEC.md §17.4.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Valkey from 'iovalkey';
import { assertPaced, fixedRate } from '../send-rate-fixtures.mjs';
import { importEntry } from './package-entry.mjs';
import { redisServer } from './redis-server.mjs';

const { paceConnections, retryStrategy } = await importEntry('./valkey');
const { Policy, RetryError } = await importEntry('.');
const { SendRate } = await importEntry('./send-rate');

const CLIENTS = 10;
const DOWN_MS = 1000;
const INTERVAL_MS = 50; // 20/s: 10^9 ÷ 20 000 µs (§17.4 step 3)
const POLICY = new Policy({ preset: 'google', initialMs: 200, jitterMs: 0 });

const once = (c, event) => new Promise((resolve) => c.once(event, resolve));

/**
 * CLIENTS lazyConnect clients (paced by `sendRate` if given), connected; the server killed,
 * `during(sendRate)` called, the server restarted DOWN_MS later. Returns when every client is
 * ready again (or, with `ends`, has ended): the time of the kill, the times (ms) of the sockets
 * made after it, and the errors the clients emitted.
 */
async function outage(sendRate, { ends = false, during = () => {} } = {}) {
  const server = await redisServer();
  const made = [];
  const errors = [];
  let killed = false;
  let killedAt;
  const clients = Array.from({ length: CLIENTS }, (_, i) => {
    const c = new Valkey({ host: '127.0.0.1', port: server.port, lazyConnect: true, maxRetriesPerRequest: null,
      retryStrategy: retryStrategy({ policy: POLICY, seed: i }) });
    // Under the gate: the time each socket is made (the client's own connector, as paced).
    const connect = c.connector.connect.bind(c.connector);
    c.connector.connect = (...args) => {
      if (killed) made.push(performance.now());
      return connect(...args);
    };
    c.on('error', (e) => errors.push(e)); // refused connects while the server is down
    return sendRate ? paceConnections(c, { sendRate }) : c;
  });
  try {
    await Promise.all(clients.map((c) => c.connect()));
    const done = clients.map((c) => once(c, ends ? 'end' : 'ready'));
    killedAt = performance.now();
    killed = true;
    await server.kill();
    during(sendRate);
    await sleep(DOWN_MS);
    await server.start();
    const all = await Promise.race([Promise.all(done), sleep(10_000, null, { ref: false })]);
    assert.ok(all, `every client ${ends ? 'ended' : 'was ready again'} within 10 s of the restart`);
    return { killedAt, made, errors };
  } finally {
    clients.forEach((c) => c.disconnect());
    await server.close();
  }
}

const gaps = (at) => [...at].sort((a, b) => a - b).map((t, i, s) => (i ? t - s[i - 1] : Infinity)).slice(1);

test(`${CLIENTS} iovalkey clients sharing one SendRate at 20/s reconnect ${INTERVAL_MS} ms apart`, async () => {
  const start = performance.now();
  const { killedAt, made } = await outage(fixedRate(SendRate, 20));
  // At least one reconnection each; those made before the restart failed and were redone.
  assert.ok(made.length >= CLIENTS, `${made.length} reconnections`);
  assertPaced(made, killedAt, INTERVAL_MS, 'iovalkey reconnections');
  console.log(`iovalkey, ${CLIENTS} clients sharing 20/s: ${made.length} sockets after the kill, least gap ` +
    `${Math.min(...gaps(made)).toFixed(1)} ms, all ready ${((performance.now() - start) / 1000).toFixed(2)} s after the start`);
});

test('the same outage without the rate: the reconnections come together (the check above can fail)', async () => {
  const { killedAt, made } = await outage(undefined);
  assert.ok(made.length >= CLIENTS, `${made.length} reconnections`);
  // Together, 200 ms after the kill: the tenth long before the 450 ms the rate would have made it wait.
  assert.throws(() => assertPaced(made, killedAt, INTERVAL_MS, 'unpaced'), /unpaced: attempt \d+ left/);
});

test("a fail-fast rate's refusal ends every client without another socket: RetryError 'throttled'", async () => {
  // Off until the hint (connections go at once); then held 60 s, as a 429 another loop sharing it
  // got would hold it: every reconnection is refused.
  const sendRate = new SendRate({ failFast: true });
  const { made, errors } = await outage(sendRate, { ends: true, during: (r) => r.answer('throttled', 60_000) });
  assert.deepEqual(made, []);
  const refused = errors.filter((e) => e instanceof RetryError);
  assert.equal(refused.length, CLIENTS);
  assert.ok(refused.every((e) => e.reason === 'throttled' && e.attempts === 0), refused.map(String).join('; '));
});
