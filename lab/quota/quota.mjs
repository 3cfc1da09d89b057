// 50 concurrent Node workers against nginx's limit_req (429 past its rate), one mode after the
// other, each on its own path so that nginx's access log tells them apart:
//   none      each worker loops fetchWithBackoff() (per-request backoff on 429, no shared limiter);
//   sendrate  each worker loops fetchWithBackoff() with one shared npm SendRate as its `sendRate`:
//             the run asks it before every attempt and tells it every status (SPEC.md §15.2).
//             The send rate paces the retries too, so their own backoff is short (10-100 ms, full
//             jitter): with Google's 1 s a refused worker sat idle, and the goodput was 84-88 %.
//   change    (MODE=change, alone) the shared SendRate on /change for SECONDS while the script
//             changes nginx's rate; lab/quota/change.py counts it.
// Goodput is nginx's served requests over the quota (rate × the mode's span in the log); refused
// is its 429s over all attempts. Env: PORT, ACCESS_LOG, RATE, BURST, PACKAGE, SECONDS, OUT.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

const { PORT, ACCESS_LOG, PACKAGE, OUT } = process.env;
const RATE = Number(process.env.RATE);
const BURST = Number(process.env.BURST);
const SECONDS = Number(process.env.SECONDS ?? 20);
const WORKERS = 50;
const { fetchWithBackoff } = await import(PACKAGE);
// The send rate's own entry, beside the main one in dist/.
const { SendRate } = await import(new URL('send-rate.js', new URL(PACKAGE, 'file:///')).href);
const base = `http://127.0.0.1:${PORT}`;

async function none(end) {
  while (performance.now() < end) {
    const res = await fetchWithBackoff(`${base}/none`, {}, { maxRetries: 100, maxElapsedMs: 30_000 }).catch((e) => e.response);
    await res?.arrayBuffer();
  }
}

const rate = new SendRate();
async function sendrate(end, path = '/sendrate') {
  while (performance.now() < end) {
    const res = await fetchWithBackoff(`${base}${path}`, {}, { sendRate: rate, maxRetries: 100, maxElapsedMs: 30_000, initialMs: 10, maxBackoffMs: 100, jitter: 'full' })
      .catch((e) => e.cause);
    await res?.arrayBuffer();
  }
}

if (process.env.MODE === 'change') {
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: WORKERS }, () => sendrate(end, '/change')));
  console.log(`learnt /change ${rate.rateMilli}`);
  process.exit(0);
}

const rows = [];
for (const [name, worker] of [['none', none], ['sendrate', sendrate]]) {
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: WORKERS }, () => worker(end)));
  await new Promise((r) => setTimeout(r, 1500)); // the log flushed; nginx's bucket refilled
  const lines = readFileSync(ACCESS_LOG, 'utf8').trim().split('\n').map((l) => l.split(' '))
    .filter(([, , uri]) => uri === `/${name}`);
  const t = lines.map(([ms]) => Number(ms));
  const span = Math.max(...t) - Math.min(...t);
  const served = lines.filter(([, s]) => s === '200').length;
  const refused = lines.filter(([, s]) => s === '429').length;
  const quota = RATE * span + BURST;
  rows.push({ name, span, served, refused, attempts: lines.length, goodput: served / quota, refusedShare: refused / lines.length,
    rateMilli: name === 'sendrate' ? rate.rateMilli : null });
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;
const table = [
  `nginx limit_req rate=${RATE}r/s burst=${BURST} nodelay, limit_req_status 429; ${WORKERS} Node workers, ${SECONDS} s a mode`,
  '',
  '| client | span s | attempts | served | refused | goodput / quota | refused / attempts |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name === 'none' ? 'no limiter (fetchWithBackoff per request)' : `one npm SendRate (learnt ${(r.rateMilli / 1000).toFixed(1)}/s)`} | ${r.span.toFixed(1)} | ${r.attempts} | ${r.served} | ${r.refused} | ${pct(r.goodput)} | ${pct(r.refusedShare)} |`),
].join('\n');
console.log(table);
if (OUT) writeFileSync(OUT, `${table}\n`);
const s = rows.find((r) => r.name === 'sendrate');
const goals = `goals (goodput >= 97 %, refused <= 3 %): goodput ${pct(s.goodput)} ${s.goodput >= 0.97 ? 'met' : 'NOT met'}, refused ${pct(s.refusedShare)} ${s.refusedShare <= 0.03 ? 'met' : 'NOT met'}`;
console.log(goals);
// The test itself checks that the log was read and that sharing the rate refused less than no limiter.
assert.ok(rows.every((r) => r.attempts > RATE), JSON.stringify(rows));
assert.ok(s.refusedShare < rows[0].refusedShare, 'the shared send rate refused less than no limiter');
