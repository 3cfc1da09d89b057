// The simulator's `shed` with what the server answers, against a real server: 1,000 clients arrive
// within one second at lab/pacing's server on 127.0.0.1, which serves 100 requests in each
// second of its clock and answers 429 above it. Half the clients are Node (the npm package's
// fetchWithBackoff, in NODE_PROCS processes), half Python (the package's asyncio `retry` over
// aiohttp, one process), every fleet both. One fleet after another, each against a fresh server:
// - the pacer (the core's PaceLayer, 6 % kept for first attempts in its first second) with `paced` clients;
// - `Retry-After: 1` on every 429, `equal` clients;
// - no Retry-After, `full` clients; and `google` clients.
// Every client runs the simulator's policy for the row: Google's (1 s × 2, cap 32 s) with the
// fleet's jitter and 50 retries. The server's log (every request, its time and status) gives the
// per-second served and refused and the calls per client; each client reports when it got its 200.
// `seeded-backoff simulate --scenario shed --format json` gives the prediction, and the checks
// below hold the real figures to it.
//
// Run by lab/pacing.sh. Environment: SERVER (the pace server binary), SIMULATOR (the
// CLI binary), PACKAGE (the npm package's Node entry), PYTHON (a Python with the package and
// aiohttp), OUT (markdown table), and optionally CLIENTS, NODE_SHARE, NODE_PROCS, SEED, FLEETS
// (comma-separated answers to run: paced,constant,full,google).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServerLog, run } from './child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`pacing.mjs: ${name} is not set`);
  return v;
};
const CLIENTS = Number(env('CLIENTS', '1000'));
const NODE_SHARE = Number(env('NODE_SHARE', `${CLIENTS / 2}`));
const NODE_PROCS = Number(env('NODE_PROCS', '2'));
const CAPACITY = 100;
const RESERVE_PER_MILLE = 60;
const SEED = Number(env('SEED', '1'));
// A fleet still running this long after its start has failed (the slowest predicted is ~36 s).
const FLEET_LIMIT_S = 75;
const log = (line) => process.stderr.write(`pacing: ${line}\n`);

// The rows of the simulator's pacing comparison, by its names, and what each client runs.
const FLEETS = [
  { key: 'paced', sim: 'pacer + paced clients', answer: 'paced', jitter: 'full', paced: true },
  { key: 'constant', sim: 'equal, Retry-After: 1', answer: 'constant', jitter: 'equal' },
  { key: 'full', sim: 'full, no Retry-After', answer: 'bare', jitter: 'full' },
  { key: 'google', sim: 'google, no Retry-After', answer: 'bare', jitter: 'google' },
].filter((f) => env('FLEETS', 'paced,constant,full,google').split(',').includes(f.key));

/** Client `id`'s start in the first second, as clients.mjs and clients.py take it. */
const offsetMs = (id) => (id * 617) % 1000;

/** The simulator's policy for a fleet: `outage_policy` at a 1 s base with 50 retries. */
function nodeOptions(f) {
  const o = { preset: 'google', jitter: f.jitter, initialMs: 1000, maxBackoffMs: 32_000, maxHintMs: 32_000, maxRetries: 50 };
  if (f.jitter === 'google') o.jitterMs = 1000;
  if (f.paced) o.paced = true;
  return o;
}
function pythonOptions(f) {
  const o = { preset: 'google', jitter: f.jitter, initial_ms: 1000, max_backoff_ms: 32_000, max_hint_ms: 32_000, max_retries: 50 };
  if (f.jitter === 'google') o.jitter_ms = 1000;
  if (f.paced) o.paced = true;
  return o;
}

async function fleet(f, dir) {
  const logPath = join(dir, `${f.key}.log`);
  let portKnown;
  const portReady = new Promise((r) => (portKnown = r));
  const server = run(env('SERVER'), ['--answer', f.answer, '--capacity', `${CAPACITY}`, '--reserve-per-mille',
    `${RESERVE_PER_MILLE}`, '--seed', `${SEED}`, '--log', logPath, '--max-s', `${FLEET_LIMIT_S + 30}`], {},
  FLEET_LIMIT_S + 35, (line) => {
    const m = /^listening (\d+)$/.exec(line);
    if (m) portKnown(Number(m[1]));
  });
  server.catch((e) => portKnown(Promise.reject(e)));
  const port = await portReady;
  const url = `http://127.0.0.1:${port}/${f.key}`;
  const common = { URL: url };
  // Every client process opens its connections, then says `ready`; when all have, the server's
  // clock and the clients start together, a little later.
  const waiting = [];
  let procs = 0;
  let startAt;
  const ready = async (line, child) => {
    if (line !== 'ready') return;
    waiting.push(child);
    if (waiting.length < procs) return;
    startAt = Date.now() + 300;
    await fetch(`http://127.0.0.1:${port}/__start/${startAt}`).then((r) => r.text());
    for (const c of waiting) c.stdin.end(`${startAt}\n`);
  };
  const parts = [];
  const per = Math.ceil(NODE_SHARE / NODE_PROCS);
  for (let first = 0; first < NODE_SHARE; first += per) {
    parts.push(run(process.execPath, [join(here, 'clients.mjs')], {
      ...common, PACKAGE: env('PACKAGE'), FIRST: `${first}`, COUNT: `${Math.min(per, NODE_SHARE - first)}`,
      OPTIONS: JSON.stringify(nodeOptions(f)),
    }, FLEET_LIMIT_S, ready));
  }
  if (CLIENTS > NODE_SHARE) {
    parts.push(run(env('PYTHON'), [join(here, 'clients.py')], {
      ...common, FIRST: `${NODE_SHARE}`, COUNT: `${CLIENTS - NODE_SHARE}`, OPTIONS: JSON.stringify(pythonOptions(f)),
    }, FLEET_LIMIT_S, ready));
  }
  procs = parts.length;
  let outputs;
  try {
    outputs = await Promise.all(parts);
  } finally {
    await fetch(`http://127.0.0.1:${port}/__end`).then((r) => r.text()).catch(() => {});
    await server.catch(() => {});
  }
  const clients = outputs.flatMap((o) => o.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)));
  // The server's view: each request's ms on its clock (0 = startAt) and status.
  const late = new Map();
  const { perSecond, calls, requests } = readServerLog(logPath, (id, ms) => {
    // How late the client's first attempt reached the server (the log is in arrival order).
    if (!late.has(id)) late.set(id, ms - offsetMs(id));
  });
  const done = clients.filter((c) => c.doneMs !== null).map((c) => c.doneMs).sort((a, b) => a - b);
  const lateness = [...late.values()].sort((a, b) => a - b);
  const mismatchedList = clients.filter((c) => c.calls !== (calls.get(c.id) ?? 0));
  for (const c of mismatchedList.slice(0, 10)) log(`${f.key}: client ${c.id} counted ${c.calls} calls, the server logged ${calls.get(c.id) ?? 0}`);
  const mismatched = mismatchedList.length;
  return {
    ...f,
    perSecond,
    requests,
    callsPerClient: requests / CLIENTS,
    lastDoneMs: done.length ? done[done.length - 1] : NaN,
    laterPeak: Math.max(0, ...perSecond.slice(1).map(([a, b]) => a + b)),
    unfinished: CLIENTS - done.length,
    lateP50: lateness[Math.floor(lateness.length / 2)],
    lateMax: lateness[lateness.length - 1],
    mismatched,
    python: clients.filter((c) => c.id >= NODE_SHARE).length,
  };
}

function simulate() {
  const json = execFileSync(env('SIMULATOR'), ['simulate', '--scenario', 'shed', '--clients', `${CLIENTS}`, '--capacity',
    `${CAPACITY}`, '--runs', '1', '--strategies', 'full', '--seed', `${SEED}`, '--format', 'json'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return Object.fromEntries(JSON.parse(json).shed.pacing.map((r) => [r.fleet, r]));
}

const started = Date.now();
const sim = simulate();
const dir = mkdtempSync(join(tmpdir(), 'pacing-'));
const rows = [];
try {
  for (const f of FLEETS) {
    if (!sim[f.sim]) throw new Error(`the simulator has no row "${f.sim}"`);
    log(`${f.key}: ${CLIENTS} clients (${NODE_SHARE} Node in ${NODE_PROCS} processes, ${CLIENTS - NODE_SHARE} Python)`);
    const r = await fleet(f, dir);
    rows.push(r);
    log(`${f.key}: ${r.requests} requests, last done ${r.lastDoneMs} ms, unfinished ${r.unfinished}`);
  }
} finally {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else log(`logs kept in ${dir}`);
}

const s = (ms) => (Number.isNaN(ms) ? '–' : (ms / 1000).toFixed(2));
const names = { paced: 'pacer (6 % kept) + `paced` clients', constant: '`Retry-After: 1`, `equal`', full: 'no `Retry-After`, `full`', google: 'no `Retry-After`, `google`' };
const table = [
  `${CLIENTS} clients start within 1 s (${NODE_SHARE} Node \`fetchWithBackoff\` in ${NODE_PROCS} processes, ` +
    `${CLIENTS - NODE_SHARE} Python asyncio \`retry\` over aiohttp) at a server on 127.0.0.1 (hyper, the core's ` +
    `\`PaceLayer\` for the pacer) that serves ${CAPACITY} requests in each second and answers 429 above it. ` +
    `Each cell: simulator (\`simulate --scenario shed --seed ${SEED}\`, one run) / real (one run). Last done: ` +
    `seconds from the start to the last client's 200. Later peak: requests in the busiest second after the first.`,
  '',
  '| server answer, clients | calls per client | last client done | later peak | unfinished | first attempts late (p50, max) |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => {
    const p = sim[r.sim];
    return `| ${names[r.key]} | ${(p.calls / CLIENTS).toFixed(2)} / ${r.callsPerClient.toFixed(2)} | ` +
      `${s(p.last_done_ms)} / ${s(r.lastDoneMs)} | ${p.later_peak_rps} / ${r.laterPeak} | ${p.unfinished} / ${r.unfinished} | ${r.lateP50}, ${r.lateMax} ms |`;
  }),
  '',
  'Served / refused per second (real; the simulator\'s served in brackets), one fleet a line:',
  '',
  ...rows.map((r) => {
    const p = sim[r.sim];
    const cells = r.perSecond.map(([a, b], i) => `${a}/${b}${p.accepted_per_second[i] === undefined ? '' : ` (${p.accepted_per_second[i]})`}`);
    return `- ${r.key}: ${cells.join(' ')}`;
  }),
  '',
  `Wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
].join('\n');
console.log(table);
if (process.env.OUT) writeFileSync(process.env.OUT, `${table}\n`);

// The checks. The paced fleet is held to the simulator within 15 % on each figure, and to the
// goals (done by 11 s, at most 2 calls per client, no later second above 1.05 × capacity) within
// 15 %; the other fleets, whose last client is a long tail (21 to 36 s for `full` over six
// simulator seeds), to the simulator's calls per client within 25 %. Everywhere: every client got
// its 200, the server never served more than its capacity in a second, and each client's own count
// of its calls is the server's.
const failures = [];
const off = (a, b) => Math.abs(a - b) / b;
for (const r of rows) {
  const p = sim[r.sim];
  if (r.unfinished) failures.push(`${r.key}: ${r.unfinished} clients never got a 200`);
  if (r.mismatched) failures.push(`${r.key}: ${r.mismatched} clients counted other calls than the server logged`);
  if (r.perSecond.some(([a]) => a > CAPACITY)) failures.push(`${r.key}: a second served more than ${CAPACITY}`);
  const simCalls = p.calls / CLIENTS;
  const within = r.key === 'paced' ? 0.15 : 0.25;
  if (off(r.callsPerClient, simCalls) > within) {
    failures.push(`${r.key}: ${r.callsPerClient.toFixed(2)} calls per client, the simulator predicts ${simCalls.toFixed(2)} (±${within * 100} %)`);
  }
  if (r.key !== 'paced') continue;
  if (off(r.lastDoneMs, p.last_done_ms) > 0.15) failures.push(`paced: last client done at ${r.lastDoneMs} ms, predicted ${p.last_done_ms} ms (±15 %)`);
  if (off(r.laterPeak, p.later_peak_rps) > 0.15) failures.push(`paced: busiest later second ${r.laterPeak}, predicted ${p.later_peak_rps} (±15 %)`);
  if (r.lastDoneMs > 11_000 * 1.15) failures.push(`paced: last client done at ${r.lastDoneMs} ms, the goal is 11 s (+15 %)`);
  if (r.callsPerClient > 2.0 * 1.15) failures.push(`paced: ${r.callsPerClient} calls per client, the goal is 2.0 (+15 %)`);
  if (r.laterPeak > 1.05 * CAPACITY * 1.15) failures.push(`paced: busiest later second ${r.laterPeak}, the goal is ${1.05 * CAPACITY} (+15 %)`);
  for (const other of rows.filter((o) => o.key !== 'paced')) {
    if (!(r.lastDoneMs < other.lastDoneMs && r.callsPerClient < other.callsPerClient)) {
      failures.push(`paced: not done sooner with fewer calls than ${other.key}`);
    }
  }
}
// Under load the clients cannot keep their start (measured: first attempts late by 0 to 32 ms at
// the median when the run passes, 130 to 780 ms when a busy machine failed it); said with the
// failures, as their likely cause.
const busy = rows.filter((r) => r.lateP50 > 50);
if (failures.length && busy.length) {
  failures.push(`(first attempts late by ${busy.map((r) => `${r.lateP50} ms in ${r.key}`).join(', ')} at the median: ` +
    'the machine was too busy for the clients to keep their start)');
}
if (failures.length) {
  console.log(`\npacing: FAILED\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('\npacing: ok');
