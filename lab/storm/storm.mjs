// The simulator's outage prediction against a real server: for each jitter strategy, CLIENTS Node
// clients call nginx on 127.0.0.1 through the npm package's fetchWithBackoff (real sockets). nginx
// answers 503 to everything while the outage lasts, then lets CAPACITY requests per second through
// (limit_req) and rejects the rest with 503. What nginx logged and when each client got its 200 are
// printed side by side with `seeded-backoff simulate` for the same parameters.
//
// Run by lab/storm.sh, which starts and stops nginx. Environment: PORT, UP_FILE (nginx
// serves 200s only while it exists), ACCESS_LOG ("$msec $status $uri" lines), SIMULATOR (the CLI
// binary), PACKAGE (the built package's Node entry), OUT (markdown table), and optionally CLIENTS,
// OUTAGE_S, CAPACITY, BASE_MS.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const env = (name, fallback) => process.env[name] ?? fallback;
const PORT = Number(env('PORT'));
const UP_FILE = env('UP_FILE');
const ACCESS_LOG = env('ACCESS_LOG');
const CLIENTS = Number(env('CLIENTS', '300'));
const OUTAGE_S = Number(env('OUTAGE_S', '6'));
const CAPACITY = Number(env('CAPACITY', '100'));
const BASE_MS = Number(env('BASE_MS', '100'));
// A client still failing this long after the recovery counts as unfinished.
const GIVE_UP_AFTER_S = 40;
const STRATEGIES = ['none', 'google', 'full', 'equal', 'decorrelated', 'proportional'];

const { fetchWithBackoff } = await import(env('PACKAGE'));

// The same policy as the simulator's outage: Google's, scaled to a first delay of BASE_MS. The time
// budget (maxElapsedMs) makes a client that is still failing long after the recovery give up.
function options(jitter, seed) {
  const o = {
    preset: 'google',
    jitter,
    initialMs: BASE_MS,
    maxBackoffMs: 32 * BASE_MS,
    maxHintMs: 32 * BASE_MS,
    maxRetries: 1_000_000,
    maxElapsedMs: (OUTAGE_S + GIVE_UP_AFTER_S) * 1000,
    seed,
  };
  if (jitter === 'google') o.jitterMs = BASE_MS;
  if (jitter === 'proportional') o.spreadPerMille = 200;
  return o;
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1] : NaN;

async function storm(strategy) {
  rmSync(UP_FILE, { force: true });
  // Lets nginx's limiter forget the previous strategy.
  await sleep(1500);
  const url = `http://127.0.0.1:${PORT}/${strategy}`;
  const t0 = Date.now();
  const recovery = setTimeout(() => writeFileSync(UP_FILE, 'up\n'), OUTAGE_S * 1000);
  const done = [];
  let unfinished = 0;
  // Clients notice the outage within one base delay, as in the simulator.
  let x = 12345;
  const clients = [];
  for (let i = 0; i < CLIENTS; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const start = x % BASE_MS;
    clients.push(
      (async () => {
        await sleep(start);
        try {
          const response = await fetchWithBackoff(url, undefined, options(strategy, i + 1));
          await response.text();
          done.push(Date.now() - t0);
        } catch {
          unfinished++;
        }
      })(),
    );
  }
  await Promise.all(clients);
  clearTimeout(recovery);
  await sleep(300);
  // nginx's view: every request of this strategy, by second since t0.
  const perSecond = [];
  let requests = 0;
  let rejected = 0;
  for (const line of readFileSync(ACCESS_LOG, 'utf8').split('\n')) {
    const [msec, status, uri] = line.split(' ');
    if (uri !== `/${strategy}`) continue;
    requests++;
    if (status === '503') rejected++;
    const s = Math.floor((Number(msec) * 1000 - t0) / 1000);
    if (s >= 0) perSecond[s] = (perSecond[s] ?? 0) + 1;
  }
  const after = Array.from(perSecond.slice(OUTAGE_S), (n) => n ?? 0);
  done.sort((a, b) => a - b);
  return {
    strategy,
    requests,
    rejected,
    unfinished,
    peak: Math.max(0, ...after),
    perSecond: Array.from(perSecond, (n) => n ?? 0).join(' '),
    p50: percentile(done, 50),
    p99: percentile(done, 99),
    max: percentile(done, 100),
  };
}

function simulate() {
  const json = execFileSync(
    env('SIMULATOR'),
    ['simulate', '--scenario', 'outage', '--clients', `${CLIENTS}`, '--runs', '20', '--outage-s',
      `${OUTAGE_S}`, '--capacity', `${CAPACITY}`, '--base-ms', `${BASE_MS}`, '--format', 'json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return Object.fromEntries(JSON.parse(json).outage.results.map((r) => [r.strategy, r]));
}

const started = Date.now();
const sim = simulate();
// Opens the clients' connections before the first strategy (they are kept alive, as a fleet's
// are), so that the first strategy does not pay for 300 TCP handshakes at once.
writeFileSync(UP_FILE, 'up\n');
await Promise.all(
  Array.from({ length: CLIENTS }, () => fetch(`http://127.0.0.1:${PORT}/warm-up`).then((r) => r.text())),
);
const rows = [];
for (const strategy of STRATEGIES) {
  const real = await storm(strategy);
  rows.push(real);
  console.log(`storm: ${strategy}: ${JSON.stringify(real)} (sim: requests ${sim[strategy].requests_per_run}, ` +
    `rejected ${sim[strategy].rejected_per_run}, p50 ${sim[strategy].completion_p50_ms} ms)`);
}
const s = (ms) => (Number.isNaN(ms) ? '–' : (ms / 1000).toFixed(1));
const table = [
  `${CLIENTS} clients per strategy, server down ${OUTAGE_S} s, then ${CAPACITY} requests/s ` +
    `(nginx limit_req, burst ${CAPACITY}, nodelay; 503 above); Google's policy scaled to a ${BASE_MS} ms ` +
    `first delay (cap ${(32 * BASE_MS) / 1000} s). Each cell: simulator (mean of 20 runs) / nginx ` +
    `(one run). Done: seconds from the start until a client's 200.`,
  '',
  '| strategy | requests | rejected (503) | done p50 | done p99 | done max | busiest second after recovery | unfinished |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => {
    const p = sim[r.strategy];
    return `| ${r.strategy} | ${p.requests_per_run} / ${r.requests} | ${p.rejected_per_run} / ${r.rejected} | ` +
      `${s(p.completion_p50_ms)} / ${s(r.p50)} | ${s(p.completion_p99_ms)} / ${s(r.p99)} | ` +
      `${s(p.completion_max_ms)} / ${s(r.max)} | ${p.peak_rps_mean} / ${r.peak} | ${p.unfinished} / ${r.unfinished} |`;
  }),
  '',
  `Wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
].join('\n');
console.log(`\n${table}`);
if (env('OUT', '')) writeFileSync(env('OUT'), `${table}\n`);

// The checks: every client got through, and nginx saw what the simulator predicts, within
// tolerances for what the model leaves out (nginx's leaky bucket, which takes a burst of CAPACITY
// at once, against the model's fixed per-second window; real timers on a shared machine): requests
// within 35 %, the median client within 45 % (measured: within 30 %). `seeded-backoff simulate` is the prediction; it is not
// tuned to this run.
const failures = [];
for (const r of rows) {
  const p = sim[r.strategy];
  if (r.unfinished) failures.push(`${r.strategy}: ${r.unfinished} clients never got a 200`);
  const off = (a, b) => Math.abs(a - b) / b;
  if (off(r.requests, p.requests_per_run) > 0.35) {
    failures.push(`${r.strategy}: nginx saw ${r.requests} requests, the simulator predicts ${p.requests_per_run}`);
  }
  if (off(r.p50, p.completion_p50_ms) > 0.45) {
    failures.push(`${r.strategy}: median client done after ${r.p50} ms, predicted ${p.completion_p50_ms} ms`);
  }
}
const real = Object.fromEntries(rows.map((r) => [r.strategy, r]));
// The shape the README tells: without jitter at the cap, bursts well above full jitter's peak
// (predicted 1.9×; measured 1.5× to 1.8×).
for (const bursty of ['none', 'google']) {
  if (!(real[bursty].peak > 1.3 * real.full.peak)) {
    failures.push(`${bursty}'s busiest second (${real[bursty].peak}) is not well above full jitter's (${real.full.peak})`);
  }
}
if (failures.length) {
  console.log(`storm: FAILED\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('storm: ok');
