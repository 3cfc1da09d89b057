// seeded-backoff/shared when the store fails (SPEC.md §19.5, §19.6), with the real iovalkey against a
// real redis-server killed during a run and started again: every decision answers within ten times
// the bound; meanwhile the process decides from its own state (the answers a local part given the
// same events gives: never more than its own state allows); it rejoins at its first decision a
// second after its fall (on its clock, a virtual one here), publishing its own state to the empty
// store, with nothing reset; a flush under a joined process is a cold start; retry() loses no call.
// Counts, answers and states only; the one time asserted is the 10x bound.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Valkey from 'iovalkey';
import { importEntry } from './package-entry.mjs';
import { redisServer } from './redis-server.mjs';

// The main entry and the concerns' entries, as one object.
const api = { ...(await importEntry('.')), ...(await importEntry('./budget')), ...(await importEntry('./pacer')), ...(await importEntry('./send-rate')) };
const { SharedBudget, SharedSendRate, STORE_BOUND_MS } = await importEntry('./shared');
const { retry } = await importEntry('./retry');

const LIMIT_MS = 10 * STORE_BOUND_MS;
// Commands fail at once while the client is disconnected (nothing queued for a later replay), and
// the client reconnects soon after the server is back.
const OPTIONS = { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 };
const CONFIG = { minRateMilli: 1000, maxRateMilli: 100_000, burst: 1 };
const ready = async (c) => {
  for (const end = Date.now() + 10_000; c.status !== 'ready';) {
    assert.ok(Date.now() < end, 'the client did not reconnect within 10 s');
    await sleep(20);
  }
};

async function timed(promise) {
  const t0 = performance.now();
  const out = await promise;
  assert.ok(performance.now() - t0 < LIMIT_MS, 'a decision waited past ten times the bound');
  return out;
}

test('a killed store leaves each decision to the process, which rejoins after its restart', async () => {
  const server = await redisServer();
  const client = new Valkey({ host: '127.0.0.1', port: server.port, ...OPTIONS });
  client.on('error', () => {});
  try {
    let clock = 0;
    const rate = new SharedSendRate(client, 'sb:send-rate:faults', new api.SendRate(CONFIG), { storeClock: false, clock: () => clock });
    const budget = new SharedBudget(client, 'sb:budget:faults', new api.RetryBudget({ mode: 'aws_quota', capacity: 50 }), { clock: () => clock });
    let ref = new api.SendRate(CONFIG);
    let refBudget = new api.RetryBudget({ mode: 'aws_quota', capacity: 50 });
    const sends = [];
    // The same events to the shared parts and to local ones: the same answers.
    const step = async (t) => {
      clock = t;
      if (t % 50 === 0) {
        await timed(rate.answer('throttled', 0, t));
        ref.answer('throttled', 0, t);
      }
      const got = await timed(rate.ask(t));
      assert.deepEqual(got, ref.ask(t), `ask at ${t}`);
      assert.equal(await timed(budget.tryAcquire()), refBudget.tryAcquire(), `acquire at ${t}`);
      sends.push(got.kind);
    };
    const steps = async (from, to) => {
      for (let t = from; t < to; t += 10) await step(t);
    };
    await ready(client);
    await steps(0, 300);
    assert.deepEqual([rate.linkState, budget.linkState], ['joined', 'joined']);
    assert.deepEqual(new Uint8Array(await client.getBuffer('sb:send-rate:faults')), rate.storedValue());

    await server.kill();
    await steps(300, 600);
    assert.deepEqual([rate.linkState, budget.linkState], ['local', 'local']);
    assert.ok(rate.stats.alone >= 30 && budget.stats.alone >= 30);
    await server.start();
    await ready(client);
    // Still local until REJOIN_MS (200 ms) after its last ask of the dead store, at 500, on the
    // process's clock.
    await steps(600, 700);
    assert.equal(rate.linkState, 'local');
    await steps(700, 900);
    assert.deepEqual([rate.linkState, budget.linkState], ['joined', 'joined']);
    // The empty store got the process's own state: nothing reset.
    assert.deepEqual(new Uint8Array(await client.getBuffer('sb:send-rate:faults')), rate.storedValue());
    assert.ok(sends.includes('send') && sends.includes('wait'));

    // A flush under a joined process is a cold start: a send rate that is off, a full budget.
    await client.flushall();
    ref = new api.SendRate(CONFIG);
    refBudget = new api.RetryBudget({ mode: 'aws_quota', capacity: 50 });
    sends.length = 0;
    await steps(1510, 1550);
    assert.deepEqual(sends, ['send', 'send', 'send', 'send']);
    assert.equal(budget.tokensMilli, refBudget.tokensMilli);
  } finally {
    client.disconnect();
    await server.close();
  }
});

test('retry() loses no call while the store dies and comes back', async () => {
  const server = await redisServer();
  const client = new Valkey({ host: '127.0.0.1', port: server.port, ...OPTIONS });
  client.on('error', () => {});
  try {
    const sendRate = new SharedSendRate(client, 'sb:send-rate:loop', new api.SendRate());
    const budget = new SharedBudget(client, 'sb:budget:loop', new api.RetryBudget({ mode: 'aws_quota' }));
    let calls = 0;
    const call = (i) => timed(retry(() => {
      calls++;
      if (calls % 3 === 0) throw new Error('one failure in three, retried');
      return i;
    }, { sendRate, budget, seed: 7, initialMs: 1, maxBackoffMs: 2, jitterMs: 0 }));
    await ready(client);
    const got = [];
    for (let i = 0; i < 10; i++) got.push(await call(i));
    assert.equal(sendRate.linkState, 'joined');
    await server.kill();
    for (let i = 10; i < 20; i++) got.push(await call(i));
    assert.equal(sendRate.linkState, 'local');
    await server.start();
    await ready(client);
    let i = 20;
    for (const end = Date.now() + 5000; sendRate.linkState !== 'joined' || budget.linkState !== 'joined'; i++) {
      assert.ok(Date.now() < end, 'did not rejoin within 5 s of the restart');
      got.push(await call(i));
      await sleep(50);
    }
    assert.deepEqual(got, Array.from({ length: i }, (_, k) => k));
  } finally {
    client.disconnect();
    await server.close();
  }
});

test('a late reply costs its decision, three in a row make the process local until it rejoins', async () => {
  // SPEC.md §19.5 (LATE_LIMIT = 3): a store answering past the bound, paused here by CLIENT PAUSE.
  const server = await redisServer();
  const client = new Valkey({ host: '127.0.0.1', port: server.port, ...OPTIONS });
  const other = new Valkey({ host: '127.0.0.1', port: server.port });
  client.on('error', () => {});
  try {
    let clock = 0;
    const rate = new SharedSendRate(client, 'sb:send-rate:late', new api.SendRate(), { storeClock: false, clock: () => clock });
    await ready(client);
    await timed(rate.ask(0));
    assert.equal(rate.linkState, 'joined');
    await other.call('CLIENT', 'PAUSE', '400');
    await timed(rate.ask(10));
    assert.equal(rate.linkState, 'joined');
    await timed(rate.ask(20));
    assert.equal(rate.linkState, 'joined');
    await timed(rate.ask(30));
    assert.equal(rate.linkState, 'local');
    assert.equal(rate.stats.alone, 3);
    assert.equal(await other.ping(), 'PONG'); // answered once the pause is over
    clock = 1100;
    await timed(rate.ask(1100));
    assert.equal(rate.linkState, 'joined');
  } finally {
    client.disconnect();
    other.disconnect();
    await server.close();
  }
});

test("a process's own decisions go to the store one at a time: none conflicts with another", async () => {
  const server = await redisServer();
  const client = new Valkey({ host: '127.0.0.1', port: server.port, ...OPTIONS });
  try {
    await ready(client);
    const budget = new SharedBudget(client, 'sb:budget:turns', new api.RetryBudget({ mode: 'aws_quota', capacity: 50 }), { boundMs: 5000 });
    const allowed = await Promise.all(Array.from({ length: 20 }, () => budget.tryAcquire()));
    assert.equal(allowed.filter(Boolean).length, 10);
    assert.deepEqual([budget.stats.conflicts, budget.stats.alone], [0, 0]);
  } finally {
    client.disconnect();
    await server.close();
  }
});
