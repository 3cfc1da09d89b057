// One Node process of the pacing test's fleet (lab/pacing/pacing.mjs starts a few): clients
// FIRST..FIRST+COUNT-1, each one loop of the npm package's fetchWithBackoff against the server at
// URL. Once their connections are open it prints `ready` and reads the start (Unix ms) from
// stdin; each client starts then plus its own offset in the first second. Prints one JSON line per
// client: {id, doneMs (from the start to its 200, null if it gave up), calls}.
//
// Environment: PACKAGE (the built package's Node entry), URL, FIRST, COUNT, and OPTIONS (the
// fetchWithBackoff options as JSON, without the seed: client i runs with seed i + 1).
import { setTimeout as sleep } from 'node:timers/promises';

const env = (name) => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`clients.mjs: ${name} is not set`);
  return v;
};
const { fetchWithBackoff } = await import(env('PACKAGE'));
const [url, first, count] = [env('URL'), Number(env('FIRST')), Number(env('COUNT'))];
const options = JSON.parse(env('OPTIONS'));

// Before the start, as a fleet that has been running would be: every client's keep-alive
// connection open, and the package's engine loaded (one fetchWithBackoff that succeeds).
const origin = new URL(url).origin;
await fetchWithBackoff(`${origin}/__warm`).then((r) => r.text());
await Promise.all(Array.from({ length: count }, () => fetch(`${origin}/__warm`).then((r) => r.text())));
process.stdout.write('ready\n');
const startAt = await new Promise((resolve) => process.stdin.once('data', (d) => resolve(Number(String(d).trim()))));
process.stdin.destroy();
if (!(Date.now() < startAt)) {
  console.error(`clients.mjs: told to start at ${startAt}, ${Date.now() - startAt} ms ago`);
  process.exit(1);
}

/** Client `id`'s start in the first second: 617 is prime to 1000, so 1,000 clients take each ms once. */
const offsetMs = (id) => (id * 617) % 1000;

async function client(id) {
  await sleep(startAt + offsetMs(id) - Date.now());
  try {
    const response = await fetchWithBackoff(`${url}/${id}`, undefined, { ...options, seed: id + 1 });
    await response.text();
    return { id, doneMs: Date.now() - startAt };
  } catch {
    return { id, doneMs: null };
  }
}

// Each client's calls, counted where fetchWithBackoff makes them (the global fetch), by URL: a
// cross-check of the server's log.
const seen = new Map();
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const key = String(input?.url ?? input);
  seen.set(key, (seen.get(key) ?? 0) + 1);
  return realFetch(input, init);
};
const results = await Promise.all(Array.from({ length: count }, (_, i) => client(first + i)));
for (const r of results) {
  r.calls = seen.get(`${url}/${r.id}`) ?? 0;
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
