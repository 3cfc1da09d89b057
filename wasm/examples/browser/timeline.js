// A live timeline of one retry() loop: attempts (dots: red 503, green 200, grey a network error),
// the sleeps the core chose (blue), time offline (grey band) and the wait re-drawn after it
// (orange). The answers come from a stand-in server in this page, so it runs from any static
// server; the offline state is the browser's own (navigator.onLine and its events).
import { retry } from '../../dist/index.js';

const W = 900;
const H = 300;
const PAD = { left: 90, right: 20, top: 20, bottom: 40 };
const ROWS = { attempts: 70, sleeps: 140, network: 210 };
const svg = document.getElementById('timeline');
const seed = Number(new URLSearchParams(location.search).get('seed') ?? 3);
const t0 = performance.now();
const now = () => performance.now() - t0;
const events = [];
let answered = 0;
let done = false;

async function standIn() {
  // A stand-in for fetch(): offline it fails as fetch does; online, 503 four times, then 200.
  if (!navigator.onLine) throw new TypeError('Failed to fetch');
  return new Response(null, { status: ++answered < 5 ? 503 : 200 });
}

function el(name, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  svg.append(node);
  return node;
}

function draw() {
  const end = Math.max(12000, now() + 500);
  const x = (ms) => PAD.left + (ms / end) * (W - PAD.left - PAD.right);
  svg.replaceChildren();
  for (let s = 0; s * 1000 <= end; s += 2) {
    el('line', { class: 'grid', x1: x(s * 1000), x2: x(s * 1000), y1: PAD.top, y2: H - PAD.bottom });
    el('text', { class: 'label', x: x(s * 1000), y: H - PAD.bottom + 16, 'text-anchor': 'middle' }, `${s} s`);
  }
  el('line', { class: 'axis', x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom });
  for (const [name, y] of Object.entries(ROWS)) el('text', { class: 'row', x: 8, y: y + 4 }, name);
  let offlineAt = null;
  for (const e of events) {
    if (e.kind === 'offline') offlineAt = e.t;
    if (e.kind === 'online' && offlineAt !== null) {
      el('rect', { class: 'pause', x: x(offlineAt), y: PAD.top, width: x(e.t) - x(offlineAt), height: H - PAD.top - PAD.bottom });
      el('text', { class: 'label', x: x(offlineAt) + 4, y: ROWS.network + 4 }, 'offline: paused');
      el('text', { class: 'label', x: x(e.t) + 4, y: ROWS.sleeps + 24 }, 're-drawn wait');
      const next = events.find((n) => n.kind === 'attempt' && n.t > e.t);
      if (next) el('rect', { class: 'redraw', x: x(e.t), y: ROWS.sleeps - 8, width: x(next.t) - x(e.t), height: 16 });
      offlineAt = null;
    }
    if (e.kind === 'sleep') {
      // A sleep ends early when the page goes offline: the pause and the re-drawn wait replace it.
      const cut = events.find((n) => n.kind === 'offline' && n.t > e.t && n.t < e.t + e.delayMs);
      el('rect', { class: 'sleep', x: x(e.t), y: ROWS.sleeps - 8, width: x(cut ? cut.t : e.t + e.delayMs) - x(e.t), height: 16 });
    }
    if (e.kind === 'attempt') el('circle', { class: `attempt ${e.result}`, cx: x(e.t), cy: ROWS.attempts, r: 7 });
  }
  if (offlineAt !== null) el('rect', { class: 'pause', x: x(offlineAt), y: PAD.top, width: x(now()) - x(offlineAt), height: H - PAD.top - PAD.bottom });
  if (!done) el('line', { class: 'now', x1: x(now()), x2: x(now()), y1: PAD.top, y2: H - PAD.bottom });
  document.getElementById('log').textContent = events.map((e) => `${(e.t / 1000).toFixed(2)} s  ${e.kind} ${e.result ?? e.delayMs ?? ''}`).join('\n');
}

for (const kind of ['online', 'offline']) addEventListener(kind, () => events.push({ kind, t: now() }));
const timer = setInterval(draw, 200);
await retry(async () => {
  const e = { kind: 'attempt', t: now() };
  events.push(e);
  try {
    const res = await standIn();
    e.result = `s${res.status}`;
    return res;
  } catch (err) {
    e.result = 'error';
    throw err;
  }
}, { initialMs: 1000, maxBackoffMs: 2000, jitter: 'none', seed, onRetry: ({ delayMs }) => events.push({ kind: 'sleep', t: now(), delayMs }) });
done = true;
clearInterval(timer);
draw();
svg.dataset.done = 'true';
