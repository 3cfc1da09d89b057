// seeded-backoff/shared with the real iovalkey (pinned) against a real redis-server on 127.0.0.1
// (SPEC.md §19): the vectors of §10, §16 and §17 replayed through the store by two clients taking
// turns on one key give the vectors' answers bit for bit; clients at once on one key behave as one
// part; a value Python wrote decodes in Node to the same state and the other way round. Expected
// values are the vectors' (the independent model's) and a local part's given the same events.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Valkey from 'iovalkey';
import { importEntry } from './package-entry.mjs';
import { redisServer } from './redis-server.mjs';
import { budgetOf, sendRateOptions } from '../replay.mjs';
import { VECTORS_DIR } from '../vectors-fs.mjs';

// The main entry and the concerns' entries, as one object.
const api = { ...(await importEntry('.')), ...(await importEntry('./budget')), ...(await importEntry('./pacer')), ...(await importEntry('./send-rate')) };
const { SharedBudget, SharedPacer, SharedSendRate, CAS_SCRIPT } = await importEntry('./shared');
const cases = (name) => JSON.parse(readFileSync(join(VECTORS_DIR, name), 'utf8')).cases;
// A wide bound: a loaded machine must not make these replays decide alone (the faults' test keeps
// the 50 ms one).
const WIDE = { storeClock: false, boundMs: 5000 };

let server;
let clients;
before(async () => {
  server = await redisServer();
  clients = [0, 1, 2, 3].map(() => new Valkey({ host: '127.0.0.1', port: server.port }));
});
after(async () => {
  for (const c of clients) c.disconnect();
  await server.close();
});

test('the compare-and-set script is SPEC.md §19.4 text, byte for byte', () => {
  const spec = readFileSync(join(VECTORS_DIR, '..', '..', 'SPEC.md'), 'utf8');
  const block = spec.slice(spec.indexOf('```lua\n', spec.indexOf('### 19.4')) + 7);
  assert.equal(CAS_SCRIPT, block.slice(0, block.indexOf('```')));
});

test('the budget vectors through the store, two clients taking turns', async () => {
  for (const [n, c] of cases('budget.json').entries()) {
    const parts = clients.slice(0, 2).map((cl) => new SharedBudget(cl, `js-budget-${n}`, budgetOf(api, c.budget), WIDE));
    for (const [i, op] of c.ops.entries()) {
      const part = parts[i % 2];
      const kind = { e: 'error', t: 'timeout' }[op[1]];
      let allowed = 1;
      if (op[0] === 'f') await part.recordFailure(kind);
      else if (op[0] === 'a') allowed = (await part.tryAcquire(kind)) ? 1 : 0;
      else await part.recordSuccess(kind);
      assert.deepEqual([allowed, part.tokensMilli], c.expect[i], `budget ${n} op ${i} ${op}`);
    }
    assert.ok(parts.every((p) => p.linkState === 'joined' && p.stats.alone === 0));
  }
});

test('the pacer vectors through the store, two clients taking turns', async () => {
  for (const [n, c] of cases('pacer.json').filter((x) => !x.error).entries()) {
    const k = c.config;
    const make = () => new api.Pacer({ capacityPerS: k.capacity_per_s, reservePerMille: k.reserve_per_mille, maxWaitS: k.max_wait_s, seed: BigInt(k.seed) });
    const parts = clients.slice(0, 2).map((cl) => new SharedPacer(cl, `js-pacer-${n}`, make(), WIDE));
    for (const [i, op] of c.ops.entries()) {
      const part = parts[i % 2];
      const now = BigInt(op.slice(1));
      if (op[0] === 'a') {
        const s = await part.assign(now);
        assert.deepEqual([s.retryAfterS, s.resetMs, s.full ? 1 : 0], c.expect[i], `pacer ${n} op ${i} ${op}`);
      } else {
        assert.equal(await part.pending(now), c.expect[i], `pacer ${n} op ${i} ${op}`);
      }
    }
    assert.ok(parts.every((p) => p.stats.alone === 0));
  }
});

// JSON numbers parse as doubles: the one clock reading past 2^53 the file holds is u64::MAX, which
// parses as 2^64 (as ../replay.mjs reads it).
const clock = (v) => (Number.isSafeInteger(v) ? BigInt(v) : v === 2 ** 64 ? 2n ** 64n - 1n : assert.fail(`reading ${v}`));

test('the send-rate vectors through the store, two clients taking turns', async () => {
  for (const [n, c] of cases('send-rate.json').entries()) {
    const parts = clients.slice(0, 2).map((cl) => new SharedSendRate(cl, `js-rate-${n}`, new api.SendRate(sendRateOptions(c.config)), WIDE));
    for (const [i, ev] of c.events.entries()) {
      const part = parts[i % 2];
      let got;
      if (ev.e === 'ask') {
        const p = await part.ask(clock(ev.now));
        got = p.kind === 'send' ? { pace: p.kind } : { pace: p.kind, ms: p.ms };
      } else {
        await part.answer(ev.e, ev.hint_ms ?? 0, clock(ev.now));
        got = { rate_milli: part.rateMilli };
      }
      assert.deepEqual(got, c.expect[i], `${c.name} event ${i}`);
    }
    assert.ok(parts.every((p) => p.stats.alone === 0));
  }
  // waitTurn waits out the fleet's wait: a throttle with a 30 ms hint told by one client holds the other.
  const [a, b] = clients.slice(0, 2).map((cl) => new SharedSendRate(cl, 'js-rate-turn', new api.SendRate(), { boundMs: 5000 }));
  await a.answer('throttled', 30);
  assert.equal((await b.ask()).kind, 'wait');
  assert.deepEqual(await b.waitTurn(), { kind: 'send', ms: 0 });
});

test('the loops that ask a budget synchronously refuse a shared one by name', () => {
  const budget = new SharedBudget(clients[0], 'js-refused', new api.RetryBudget({ mode: 'aws_quota' }));
  const policy = new api.Policy();
  assert.throws(() => new api.Run(policy, { budget }), { name: 'TypeError', message: /^budget must be a RetryBudget/ });
  assert.throws(() => new api.Backoff(policy, 1).nextDelay({ budget }), { name: 'TypeError', message: /^budget must be/ });
  const sendRate = new SharedSendRate(clients[0], 'js-refused-rate', new api.SendRate());
  assert.throws(() => new api.Run(policy, { sendRate }), { name: 'TypeError', message: /^sendRate must be a SendRate/ });
});

test('bad arguments are refused by name', () => {
  const c = clients[0];
  assert.throws(() => new SharedSendRate({}, 'k', new api.SendRate()), { name: 'TypeError', message: /^client must be/ });
  assert.throws(() => new SharedSendRate(c, '', new api.SendRate()), { name: 'TypeError', message: /^key must be/ });
  assert.throws(() => new SharedSendRate(c, 'k', new api.Pacer({ capacityPerS: 1 })), { name: 'TypeError', message: /^sendRate must be a SendRate/ });
  assert.throws(() => new SharedBudget(c, 'k', new api.SendRate()), { name: 'TypeError', message: /^budget must be a RetryBudget/ });
  assert.throws(() => new SharedSendRate(c, 'k', new api.SendRate(), { boundMs: 0 }), { name: 'RangeError', message: /^boundMs must be/ });
  assert.throws(() => new SharedSendRate(c, 'k', new api.SendRate(), { bound: 50 }), { name: 'TypeError' });
});

test('clients at once spend one budget, fill one schedule and count each answer once', async () => {
  // Four clients at once, each making its decisions one after another. A decision meeting
  // MAX_TRIES conflicts is made alone and may reach the store with that process's next one
  // (SPEC.md §19.4): the exact counts hold when there was none.
  const atOnce = async (parts, calls, decide) => {
    const each = async (p) => {
      const out = [];
      for (let i = 0; i < calls; i++) out.push(await decide(p));
      return out;
    };
    const out = await Promise.all(parts.map(each));
    const alone = parts.reduce((a, p) => a + p.stats.alone, 0);
    assert.ok(alone <= (parts.length * calls) / 10, `${alone} decisions alone`);
    return [out.flat(), alone];
  };
  const config = { kind: 'aws_quota', capacity: 500, retry_cost: 5, timeout_cost: 10, no_retry_increment: 1 };
  const budgets = clients.map((c) => new SharedBudget(c, 'js-once-budget', budgetOf(api, config), WIDE));
  const [allowed, alone] = await atOnce(budgets, 40, (b) => b.tryAcquire());
  const yes = allowed.filter(Boolean).length;
  assert.ok(yes <= 100 + alone && yes >= 100 - alone, `${yes} acquires allowed`);
  if (alone === 0) assert.equal(yes, 100);

  const pacers = clients.map((c) => new SharedPacer(c, 'js-once-pacer', new api.Pacer({ capacityPerS: 100, seed: 7 }), WIDE));
  const [slots, pacerAlone] = await atOnce(pacers, 30, (p) => p.assign(0));
  const local = new api.Pacer({ capacityPerS: 100, seed: 7 });
  const key = (s) => `${s.retryAfterS}:${s.resetMs}`;
  if (pacerAlone === 0) {
    assert.deepEqual(slots.map(key).sort(), slots.map(() => key(local.assign(0))).sort());
  }

  const rates = clients.map((c) => new SharedSendRate(c, 'js-once-rate', new api.SendRate(), WIDE));
  const [, rateAlone] = await atOnce(rates, 40, (r) => r.answer('accepted', 0, 10));
  const one = new SharedSendRate(clients[0], 'js-once-rate-ref', new api.SendRate(), WIDE);
  for (let i = 0; i < 160; i++) await one.answer('accepted', 0, 10);
  if (rateAlone === 0) {
    assert.deepEqual(await clients[0].getBuffer('js-once-rate'), await clients[0].getBuffer('js-once-rate-ref'));
  }
});

// The repository's .venv with the package built (scripts/test.d/70-python.sh installs it there).
const PYTHON = join(VECTORS_DIR, '..', '..', '.venv', 'bin', 'python');

test('a value Python wrote is the same state in Node, and the other way round', { skip: !existsSync(PYTHON) && 'no .venv' }, async () => {
  const port = String(server.port);
  const script = join(import.meta.dirname, 'shared_cross.py');
  // Python writes: a send rate throttled at 0 then accepted 9 times, a budget that spent 3
  // acquires, a pacer that gave 5 slots at 0.
  execFileSync(PYTHON, [script, port, 'write', 'py'], { stdio: 'inherit' });
  const rate = new SharedSendRate(clients[0], 'py:rate', new api.SendRate({ minRateMilli: 1000 }), WIDE);
  const budget = new SharedBudget(clients[0], 'py:budget', new api.RetryBudget({ mode: 'aws_quota' }), WIDE);
  const pacer = new SharedPacer(clients[0], 'py:pacer', new api.Pacer({ capacityPerS: 10, seed: 3 }), WIDE);
  // Joining reads the value; a pending, a refused-nothing ask... each read decides on it.
  assert.equal(await pacer.pending(0), 5);
  await rate.ask(100);
  const local = new api.SendRate({ minRateMilli: 1000 });
  local.answer('throttled', 0, 0);
  for (let i = 1; i < 10; i++) local.answer('accepted', 0, i * 10);
  assert.equal(rate.rateMilli, local.rateMilli);
  assert.equal(await budget.tryAcquire(), true);
  assert.equal(budget.tokensMilli, 500_000 - 4 * 5000);
  // Node writes the same; Python reads it and prints what it decoded.
  const mine = [
    new SharedSendRate(clients[1], 'js:rate', new api.SendRate({ minRateMilli: 1000 }), WIDE),
    new SharedBudget(clients[1], 'js:budget', new api.RetryBudget({ mode: 'aws_quota' }), WIDE),
    new SharedPacer(clients[1], 'js:pacer', new api.Pacer({ capacityPerS: 10, seed: 3 }), WIDE),
  ];
  await mine[0].answer('throttled', 0, 0);
  for (let i = 1; i < 10; i++) await mine[0].answer('accepted', 0, i * 10);
  for (let i = 0; i < 3; i++) await mine[1].tryAcquire();
  for (let i = 0; i < 5; i++) await mine[2].assign(0);
  const read = JSON.parse(execFileSync(PYTHON, [script, port, 'read', 'js'], { encoding: 'utf8' }));
  assert.deepEqual(read, { rate_milli: local.rateMilli, tokens_milli: 500_000 - 3 * 5000, pending: 5 });
  // And the bytes are the ones this process encodes for the same state.
  assert.deepEqual(new Uint8Array(await clients[0].getBuffer('js:rate')), mine[0].storedValue());
  assert.deepEqual(new Uint8Array(await clients[0].getBuffer('py:pacer')), (await pacer.pending(0), pacer.storedValue()));
});
