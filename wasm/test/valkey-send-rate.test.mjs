// seeded-backoff/valkey's paceConnections(client, { sendRate }) without a server: fake clients
// whose connector records when it is asked to connect, on a fake clock (performance.now and
// setTimeout). The times are derived by hand from SPEC.md §17.4: on an idle rate fixed at R/s
// (interval 1000/R ms) with burst B, K connects asked at one clock go at max(0, k − B)·1000/R ms
// after it (the k-th, from 1: ask k finds allowed = now + (k − B)·interval; a waiter reserves
// nothing and asks again when its wait ends). Then the answers each connection tells the rate,
// a fail-fast refusal, a disconnect while waiting, and bad input.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { RetryError } from 'seeded-backoff';
import { SendRate } from 'seeded-backoff/send-rate';
import { paceConnections } from 'seeded-backoff/valkey';
import { fixedRate, refusingRate } from './send-rate-fixtures.mjs';

const T0 = 50_000;
let now;
beforeEach(() => {
  now = T0;
  performance.now = () => now; // an own property over Performance.prototype.now, deleted after
  mock.timers.enable({ apis: ['setTimeout'] });
});
afterEach(() => {
  mock.timers.reset();
  delete performance.now;
});

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Moves the fake clock `ms` on, 1 ms at a time, letting the woken waits ask again at each. */
async function advance(ms) {
  for (let j = 0; j < 5; j++) await turn();
  for (let i = 0; i < ms; i++) {
    now += 1;
    mock.timers.tick(1);
    for (let j = 0; j < 5; j++) await turn();
  }
}

/** A send rate that records what it is told. */
const spied = (rate) => {
  rate.told = [];
  const answer = rate.answer.bind(rate);
  rate.answer = (kind, ...rest) => {
    rate.told.push(kind);
    return answer(kind, ...rest);
  };
  return rate;
};

/** A lazyConnect client as paceConnections reads one: its status, options and connector, whose
 * connect records the clock and resolves with a fake socket still connecting. */
function fakeClient(options = {}) {
  const client = { status: 'wait', options, asked: [], streams: [] };
  client.connector = {
    disconnected: 0,
    connect() {
      client.asked.push(now);
      const stream = Object.assign(new EventEmitter(), { connecting: true, destroyed: false });
      stream.on('error', () => {}); // as iovalkey's own listener
      client.streams.push(stream);
      return Promise.resolve(stream);
    },
    disconnect() {
      this.disconnected++;
    },
  };
  return client;
}

for (const [perS, burst] of [[20, 1], [20, 2], [50, 3]]) {
  test(`8 clients sharing ${perS}/s, burst ${burst}, connecting at one clock: the burst, then 1000/${perS} ms apart`, async () => {
    const sendRate = fixedRate(SendRate, perS, { burst });
    const clients = Array.from({ length: 8 }, () => paceConnections(fakeClient(), { sendRate }));
    const connects = clients.map((c) => c.connector.connect(() => {}));
    await advance(8 * 1000 / perS);
    await Promise.all(connects);
    const expected = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => T0 + Math.max(0, k - burst) * (1000 / perS));
    assert.deepEqual(clients.flatMap((c) => c.asked).sort((a, b) => a - b), expected);
  });
}

test('a rate that is off (no throttle yet) lets every connection go at once', async () => {
  const sendRate = new SendRate();
  const clients = Array.from({ length: 8 }, () => paceConnections(fakeClient(), { sendRate }));
  await Promise.all(clients.map((c) => c.connector.connect(() => {})));
  assert.deepEqual(clients.map((c) => c.asked), clients.map(() => [T0]));
});

test("a connected socket tells the rate 'accepted'; one closed or failed first, 'no_answer'", async () => {
  const sendRate = spied(new SendRate());
  const c = paceConnections(fakeClient(), { sendRate });
  (await c.connector.connect(() => {})).emit('connect');
  const refused = await c.connector.connect(() => {});
  refused.emit('error', new Error('ECONNREFUSED'));
  refused.emit('close');
  // A later close of the connected socket is not a second answer.
  c.streams[0].emit('close');
  assert.deepEqual(sendRate.told, ['accepted', 'no_answer']);
  // TLS: iovalkey waits for 'secureConnect', so the rate does too.
  const tls = paceConnections(fakeClient({ tls: {} }), { sendRate });
  const s = await tls.connector.connect(() => {});
  s.emit('connect');
  assert.equal(sendRate.told.length, 2);
  s.emit('secureConnect');
  assert.deepEqual(sendRate.told, ['accepted', 'no_answer', 'accepted']);
  // Sentinels: iovalkey waits for 'connect' unless enableTLSForSentinelMode.
  const sentinel = paceConnections(fakeClient({ tls: {}, sentinels: [{}] }), { sendRate });
  (await sentinel.connector.connect(() => {})).emit('connect');
  assert.equal(sendRate.told.length, 4);
  // The connector's own failure is no answer, and is the connect's.
  const failing = fakeClient();
  failing.connector.connect = () => Promise.reject(new Error('ENOENT'));
  paceConnections(failing, { sendRate });
  await assert.rejects(failing.connector.connect(() => {}), /ENOENT/);
  assert.equal(sendRate.told.at(-1), 'no_answer');
});

test("a fail-fast rate's refusal fails the connect with RetryError 'throttled', before any socket", async () => {
  const c = paceConnections(fakeClient(), { sendRate: refusingRate(SendRate) });
  const error = await c.connector.connect(() => {}).catch((e) => e);
  assert.ok(error instanceof RetryError, String(error));
  assert.equal(error.reason, 'throttled');
  assert.equal(error.attempts, 0);
  // The one give-up of a refused first attempt, as retry() and callWithBackoff() give it.
  assert.ok(!('cause' in error), `a cause: ${error.cause}`);
  assert.deepEqual(c.asked, []);
});

test('a disconnect while the connection waits for its turn ends it without a socket', async () => {
  const sendRate = fixedRate(SendRate, 10);
  const first = paceConnections(fakeClient(), { sendRate });
  const second = paceConnections(fakeClient(), { sendRate });
  await first.connector.connect(() => {});
  const waiting = second.connector.connect(() => {});
  await advance(50);
  second.connector.disconnect();
  await assert.rejects(waiting, { message: 'Connection is closed.' });
  assert.equal(second.connector.disconnected, 1);
  await advance(100);
  assert.deepEqual(second.asked, []);
});

test('bad input: a TypeError naming sendRate, the client or the option', () => {
  for (const sendRate of [undefined, null, {}, 1, 'rate']) {
    assert.throws(() => paceConnections(fakeClient(), { sendRate }), (e) => e instanceof TypeError && /sendRate/.test(e.message), String(sendRate));
  }
  assert.throws(() => paceConnections(fakeClient()), (e) => e instanceof TypeError && /sendRate/.test(e.message));
  const sendRate = new SendRate();
  assert.throws(() => paceConnections(fakeClient(), { sendRate, burst: 2 }), { name: 'TypeError', message: /unknown option "burst"/ });
  assert.throws(() => paceConnections(fakeClient(), null), TypeError);
  const connected = Object.assign(fakeClient(), { status: 'ready' });
  assert.throws(() => paceConnections(connected, { sendRate }), { name: 'TypeError', message: /lazyConnect: true/ });
  for (const client of [undefined, {}, { status: 'wait' }]) {
    assert.throws(() => paceConnections(client, { sendRate }), { name: 'TypeError', message: /client must be/ });
  }
});
