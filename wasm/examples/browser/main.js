// Draws a policy's schedule: for each of 30 seeds, the delay of every retry (a dot), and the
// un-jittered schedule (a line). Every number comes from the package.
import { Backoff, Policy } from '../../dist/index.js';

const CLIENTS = 30;
const W = 900;
const H = 460;
const PAD = { left: 70, right: 20, top: 20, bottom: 50 };
const svg = document.getElementById('chart');
const form = document.getElementById('form');
const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  svg.append(node);
  return node;
}

// One Policy for many schedules: validated once, then each Backoff is cheap (and nothing to free).
function schedules(options, seeds) {
  const policy = new Policy(options);
  return seeds.map((seed) => [...new Backoff(policy, seed)]);
}

function draw() {
  const data = new FormData(form);
  const options = { preset: data.get('preset'), maxRetries: Number(data.get('maxRetries')) };
  if (data.get('jitter')) options.jitter = data.get('jitter');
  const firstSeed = BigInt(data.get('seed') || 0);
  svg.replaceChildren();
  document.getElementById('error').textContent = '';
  let clients;
  let base;
  try {
    clients = schedules(options, Array.from({ length: CLIENTS }, (_, i) => firstSeed + BigInt(i)));
    [base] = schedules({ ...options, jitter: 'none' }, [0]);
  } catch (e) {
    document.getElementById('error').textContent = `${e.name}: ${e.message}`;
    return;
  }
  const n = Math.max(base.length, ...clients.map((c) => c.length));
  const maxMs = Math.max(1, ...base, ...clients.flat());
  const x = (i) => PAD.left + ((i + 0.5) * (W - PAD.left - PAD.right)) / n;
  const y = (ms) => H - PAD.bottom - (ms / maxMs) * (H - PAD.top - PAD.bottom);
  for (let t = 0; t <= 4; t++) {
    const ms = (maxMs * t) / 4;
    el('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(ms), y2: y(ms) });
    el('text', { class: 'label', x: PAD.left - 8, y: y(ms) + 4, 'text-anchor': 'end' }, `${(ms / 1000).toFixed(1)} s`);
  }
  el('line', { class: 'axis', x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom });
  el('line', { class: 'axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom });
  for (let i = 0; i < n; i++) {
    el('text', { class: 'label', x: x(i), y: H - PAD.bottom + 18, 'text-anchor': 'middle' }, String(i));
  }
  el('text', { class: 'label', x: (W + PAD.left) / 2, y: H - 10, 'text-anchor': 'middle' }, 'retry number');
  for (const delays of clients) {
    delays.forEach((ms, i) => el('circle', { class: 'client', cx: x(i) + ((ms * 7) % 13) - 6, cy: y(ms), r: 4 }));
  }
  el('polyline', { class: 'base', points: base.map((ms, i) => `${x(i)},${y(ms)}`).join(' ') });
  svg.dataset.points = String(clients.flat().length);
  svg.dataset.ready = 'true';
}

const params = new URLSearchParams(location.search);
for (const [k, v] of params) if (form.elements[k]) form.elements[k].value = v;
form.addEventListener('input', draw);
draw();
