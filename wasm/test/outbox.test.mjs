// seeded-backoff/outbox in Node, over fake-indexeddb (an in-memory IndexedDB) and a local HTTP
// server: Node has no Web Locks, so the election is the IndexedDB lease. Expected waits come from
// the independent model (tests/model/outbox_expect.py). Headless Chromium runs the same outbox
// with real IndexedDB, tabs, reloads and a service worker (test/browser/outbox*.mjs).
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { Backoff, nowMs, Policy, Run } from 'seeded-backoff';
import { restoreRun, snapshot } from 'seeded-backoff/snapshot';
import { Outbox, OutboxError, SharedRetryBudget } from 'seeded-backoff/outbox';

const model = (q) => JSON.parse(execFileSync('python3', [new URL('../../tests/model/outbox_expect.py', import.meta.url).pathname], { input: JSON.stringify(q) }));
const FAST = { initialMs: 50, multiplier: 2, maxBackoffMs: 400, jitter: 'none', maxRetries: 5, maxElapsedMs: 0 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const event = (target, type) => new Promise((r) => target.addEventListener(type, r, { once: true }));

// Each path answers 503 as many times as `fails` says, then 201; every request is logged. A path
// in `hinted` fails with that [status, headers] instead.
const fails = new Map();
const hinted = new Map();
const log = [];
let base;
const server = createServer((req, res) => {
  log.push({ path: req.url, key: req.headers['idempotency-key'], t: Date.now() });
  const left = fails.get(req.url) ?? 0;
  fails.set(req.url, left - 1);
  const [status, headers] = left > 0 ? hinted.get(req.url) ?? [503, {}] : [201, {}];
  res.writeHead(status, headers).end(left > 0 ? 'down' : 'created');
});
before(() => new Promise((r) => server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`;
  r();
})));
after(() => new Promise((r) => {
  server.close(r);
  server.closeAllConnections();
}));

/** Writes `value` under `key` in outbox `name`'s database, as a damaged or older record is found. */
function putRaw(name, key, value) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(`seeded-backoff-outbox:${name}`);
    open.onsuccess = () => {
      const tx = open.result.transaction('requests', 'readwrite');
      tx.objectStore('requests').put(value, key);
      tx.oncomplete = () => { open.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  });
}
function getAll(name) {
  return new Promise((resolve) => {
    const open = indexedDB.open(`seeded-backoff-outbox:${name}`);
    open.onsuccess = () => {
      const r = open.result.transaction('requests').objectStore('requests').getAll();
      r.onsuccess = () => { open.result.close(); resolve(r.result); };
    };
  });
}

test('a POST is delivered after failures, with one generated Idempotency-Key', async () => {
  fails.set('/a', 2);
  const box = new Outbox({ name: 'a', policy: FAST });
  const res = await box.send(`${base}/a`, { method: 'POST', body: 'x' });
  assert.equal(res.status, 201);
  assert.equal(await res.text(), 'created');
  const seen = log.filter((l) => l.path === '/a');
  assert.equal(seen.length, 3);
  assert.ok(seen[0].key && seen.every((l) => l.key === seen[0].key));
  assert.deepEqual(await getAll('a'), []);
  box.close();
});

test('a GET gets no Idempotency-Key; a given one is kept', async () => {
  const box = new Outbox({ name: 'b', policy: FAST });
  await box.send(`${base}/b-get`);
  await box.send(`${base}/b-post`, { method: 'POST', headers: { 'Idempotency-Key': 'mine' } });
  assert.equal(log.find((l) => l.path === '/b-get').key, undefined);
  assert.equal(log.find((l) => l.path === '/b-post').key, 'mine');
  box.close();
});

test('the server\'s hint sets the wait: Retry-After, and a 429\'s rate-limit header (SPEC.md §8.3)', async () => {
  // FAST waits 50 ms (no jitter); with hints honoured up to 5 s, each hint asks for more:
  // Retry-After 1 s; a 429's reset in 0.4 s, a floor to which the core adds an upward jitter of up
  // to 1 s + 10 %. A 503's rate-limit header is a quota's, not a hint.
  const cases = [
    ['/h-ra', [503, { 'retry-after': '1' }], 1000, 1600],
    ['/h-rl', [429, { 'ratelimit-reset': '0.4' }], 400, 2000],
    ['/h-503', [503, { 'ratelimit-reset': '0.4' }], 50, 390],
  ];
  const box = new Outbox({ name: 'h', policy: { ...FAST, maxHintMs: 5000 } });
  try {
    await Promise.all(cases.map(([path, answer]) => {
      fails.set(path, 1);
      hinted.set(path, answer);
      return box.send(`${base}${path}`, { method: 'POST' });
    }));
    for (const [path, , low, high] of cases) {
      const [first, second] = log.filter((l) => l.path === path).map((l) => l.t);
      assert.ok(second - first >= low && second - first <= high, `${path}: ${second - first} ms`);
    }
  } finally {
    box.close();
  }
});

test('the schedule gives up with the core\'s reason', async () => {
  fails.set('/c', Infinity);
  const box = new Outbox({ name: 'c', policy: { ...FAST, maxRetries: 1 } });
  await assert.rejects(box.send(`${base}/c`, { method: 'POST' }), (e) => e instanceof OutboxError && e.code === 'gave-up' && e.reason === 'max_retries' && e.status === 503);
  box.close();
});

test('a request older than the policy\'s maxElapsedMs gives up with the core\'s reason deadline (SPEC.md §15.4)', async () => {
  fails.set('/age', Infinity);
  const box = new Outbox({ name: 'age', policy: { ...FAST, maxRetries: 100, maxElapsedMs: 300 } });
  await assert.rejects(box.send(`${base}/age`, { method: 'POST' }), (e) => e instanceof OutboxError && e.code === 'gave-up' && e.reason === 'deadline' && e.status === 503);
  // 50, 100 and 200 ms waits fit in 300 ms; no schedule of this policy reaches a fifth attempt.
  const n = log.filter((l) => l.path === '/age').length;
  assert.ok(n >= 2 && n <= 4, `${n} attempts`);
  box.close();
});

test('a write that fails decides nothing: reported, and the run\'s wait stands (SPEC.md §15.4)', async () => {
  fails.set('/sfail', 1);
  const put = IDBObjectStore.prototype.put;
  let refused = 0;
  // The driver's write of the run after the 503 fails once, as a full disk would.
  IDBObjectStore.prototype.put = function (value, key) {
    if (value?.url?.endsWith('/sfail') && refused++ === 0) throw new DOMException('disk full', 'UnknownError');
    return put.call(this, value, key);
  };
  const box = new Outbox({ name: 'sfail', policy: FAST });
  const errors = [];
  box.addEventListener('error', (e) => errors.push(e.error));
  try {
    assert.equal((await box.send(`${base}/sfail`, { method: 'POST' })).status, 201);
  } finally {
    IDBObjectStore.prototype.put = put;
    box.close();
  }
  assert.equal(refused, 1, 'the one write refused');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].name, 'UnknownError');
  // The retry came after the run's 50 ms (FAST, no jitter), not after a wait of the outbox's own.
  const [first, second] = log.filter((l) => l.path === '/sfail').map((l) => l.t);
  assert.ok(second - first >= 50 && second - first < 500, `${second - first} ms`);
});

test('a driver that starts offline pauses its runs, and each resumes at its pause\'s longest (SPEC.md §13, §15.4)', async () => {
  const nav = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: false }, configurable: true });
  const policy = new Policy(FAST);
  const box = new Outbox({ name: 'offline', policy });
  try {
    const t0 = nowMs();
    const { done } = await box.queue(`${base}/offline`, { method: 'POST' });
    // The stored run pauses once the driver has read it (within the pause's 400 ms).
    let phase;
    while (phase !== 'paused' && nowMs() - t0 < 350) {
      const [rec] = await getAll('offline');
      phase = rec && restoreRun(policy, rec.run).phase;
      if (phase !== 'paused') await sleep(10);
    }
    assert.equal(phase, 'paused');
    // An offline report can be wrong: the pause ends after max_backoff_ms (400 ms) at the latest.
    assert.equal((await done).status, 201);
    const [sent] = log.filter((l) => l.path === '/offline').map((l) => l.t);
    assert.ok(sent - t0 >= 400, `sent ${sent - t0} ms after the queue`);
  } finally {
    if (nav) Object.defineProperty(globalThis, 'navigator', nav);
    else delete globalThis.navigator;
    box.close();
  }
});

test('limits: maxEntries and maxBytes reject with code limit; bad options throw', async () => {
  const box = new Outbox({ name: 'd', maxEntries: 1, maxBytes: 300, drive: false });
  await box.queue(`${base}/d`, { method: 'POST' });
  await assert.rejects(box.queue(`${base}/d`, { method: 'POST' }), { code: 'limit', message: /maxEntries 1/ });
  const big = new Outbox({ name: 'd2', maxBytes: 300, drive: false });
  await assert.rejects(big.queue(`${base}/d`, { method: 'POST', body: 'x'.repeat(400) }), { code: 'limit', message: /maxBytes 300/ });
  assert.throws(() => new Outbox({ maxEntries: 0 }), { name: 'RangeError', message: /maxEntries/ });
  // A request's age is bounded by the policy's maxElapsedMs, as every run's (SPEC.md §15.4).
  assert.throws(() => new Outbox({ maxAgeMs: 1 }), { name: 'TypeError', message: /unknown option 'maxAgeMs'/ });
  assert.throws(() => new Outbox({ nmae: 'x' }), { name: 'TypeError', message: /unknown option 'nmae'/ });
  await assert.rejects(box.queue(`${base}/d`, undefined, { seed: -1 }), { name: 'RangeError', message: /seed/ });
  box.close();
  big.close();
});

test('IndexedDB missing: send rejects with code unavailable', async () => {
  const idb = globalThis.indexedDB;
  globalThis.indexedDB = undefined;
  try {
    const box = new Outbox({ name: 'e' });
    await assert.rejects(box.send(`${base}/e`), { name: 'OutboxError', code: 'unavailable' });
    box.close();
  } finally {
    globalThis.indexedDB = idb;
  }
});

test('damaged and foreign records are skipped and reported; the good one is delivered', async () => {
  const sender = new Outbox({ name: 'f', policy: FAST, drive: false });
  const { id, done } = await sender.queue(`${base}/f`, { method: 'POST' });
  const [rec] = await getAll('f');
  const flipped = rec.run.slice();
  flipped[9] ^= 0x10;
  await putRaw('f', 'crc', { ...rec, id: 'crc', run: flipped });
  await putRaw('f', 'v9', { ...rec, id: 'v9', v: 9 });
  await putRaw('f', 'junk', 42);
  const other = new Policy({ initialMs: 7 });
  await putRaw('f', 'policy', { ...rec, id: 'policy', run: snapshot(new Run(other, { seed: 1 })) });
  const finished = new Run(new Policy(FAST), { seed: 1 });
  finished.start(0);
  finished.outcome('success', 1);
  await putRaw('f', 'done', { ...rec, id: 'done', run: snapshot(finished) });
  await putRaw('f', 'backoff', { ...rec, id: 'backoff', run: snapshot(new Backoff(FAST, 1)) });
  const driver = new Outbox({ name: 'f', policy: FAST });
  const skipped = [];
  driver.addEventListener('skip', (e) => skipped.push(`${e.id}: ${e.reason}`));
  assert.equal((await done).status, 201);
  assert.deepEqual(skipped.sort(), ['backoff: run snapshot refused: wrong_length', 'crc: run snapshot refused: bad_checksum',
    'done: run snapshot in phase done', 'junk: not a record',
    'policy: run snapshot refused: policy_mismatch', 'v9: record format 9, this outbox reads 1']);
  assert.equal((await getAll('f')).length, 6, 'the skipped records are left as stored');
  assert.ok(id);
  sender.close();
  driver.close();
});

test('a sleep that ended with no driver is re-drawn by the next driver in the sleep\'s window, as the model says (SPEC.md §15.4)', async () => {
  const policy = { ...FAST, initialMs: 400, maxBackoffMs: 400 };
  const sender = new Outbox({ name: 'g', policy, drive: false });
  const { done } = await sender.queue(`${base}/g`, { method: 'POST' }, { seed: 77 });
  const [rec] = await getAll('g');
  // A driver that made the first attempt, was answered 503 and slept its retry (400 ms, no
  // jitter), then went away before it was due; the next driver comes after.
  const run = restoreRun(new Policy(policy), rec.run);
  run.start(nowMs());
  assert.deepEqual(run.outcome({}, nowMs()), { type: 'retry', attempt: 1, delayMs: 400 });
  await putRaw('g', rec.id, { ...rec, run: snapshot(run), due: nowMs() - 5000 });
  const t0 = nowMs();
  const driver = new Outbox({ name: 'g', policy });
  await event(driver, 'drive');
  const t1 = nowMs();
  const [r] = await getAll('g');
  // The run's first re-draw (k = 1) in the window of the sleep it replaces.
  const [wait] = model({ policy: { initial_ms: 1, max_backoff_ms: 1 }, seed: '0', resumes: [['77', 1, 400]] }).resumes;
  assert.ok(r.due - wait >= t0 && r.due - wait <= t1, `due ${r.due - t0} ms after the start, the model's wait ${wait} ms`);
  assert.equal(restoreRun(new Policy(policy), r.run).attempts, 1, 'the run counts the attempts: the re-drawn wait numbers none');
  assert.equal((await done).status, 201);
  sender.close();
  driver.close();
});

test('one driver by the IndexedDB lease; another takes over when it closes', async () => {
  fails.set('/h', 3);
  const a = new Outbox({ name: 'h', policy: { ...FAST, initialMs: 300, maxBackoffMs: 300 } });
  await event(a, 'drive');
  const b = new Outbox({ name: 'h', policy: { ...FAST, initialMs: 300, maxBackoffMs: 300 } });
  const { done } = await b.queue(`${base}/h`, { method: 'POST' });
  await sleep(400);
  assert.equal(a.driving, true);
  assert.equal(b.driving, false);
  const took = event(b, 'drive');
  a.close();
  await took;
  assert.equal((await done).status, 201);
  const seen = log.filter((l) => l.path === '/h');
  assert.ok(seen.every((l) => l.key === seen[0].key));
  b.close();
});

test('SharedRetryBudget: two budgets of one name spend one pool of tokens', () => {
  const x = new SharedRetryBudget('api', { mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
  const y = new SharedRetryBudget('api', { mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
  for (let i = 0; i < 3; i++) x.recordFailure();
  // Node has no localStorage: the value travels on the BroadcastChannel, asynchronously.
  return sleep(50).then(() => {
    assert.equal(y.tokensMilli, 7000);
    y.recordFailure();
    return sleep(50);
  }).then(() => {
    assert.equal(x.tokensMilli, 6000);
    assert.throws(() => new SharedRetryBudget('', {}), { name: 'TypeError', message: /name/ });
    x.close();
    y.close();
  });
});
