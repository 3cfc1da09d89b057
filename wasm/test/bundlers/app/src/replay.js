// Every vector file replayed through the package as bundled, with `seeded-backoff/csp/full` imported
// (under a Content-Security-Policy that refuses WebAssembly, the JS build answers). Also says
// whether this page may compile WebAssembly at all, so that the test knows which build gave the
// results.
import 'seeded-backoff/csp/full';
import * as index from 'seeded-backoff';
import * as budgets from 'seeded-backoff/budget';
import * as fleet from 'seeded-backoff/fleet';
import * as pacers from 'seeded-backoff/pacer';
import * as answers from 'seeded-backoff/retry-after';
import * as sendRates from 'seeded-backoff/send-rate';
import * as snapshots from 'seeded-backoff/snapshot';
import { expectedChecks, replayFile, replayInterleaved } from './replay.mjs';

// Every entry's exports, as the replay reaches them.
const api = { ...index, ...answers, ...snapshots, ...budgets, ...fleet, ...pacers, ...sendRates };

async function main() {
  let wasmRefused = null;
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (e) {
    wasmRefused = `${e.name}: ${e.message}`;
  }
  const names = await (await fetch('/vectors/')).json();
  let checks = 0;
  const schedules = [];
  for (const name of names) {
    const file = await (await fetch(`/vectors/${name}`)).json();
    const n = replayFile(api, file);
    if (n !== expectedChecks(file)) throw new Error(`${name}: ${n} checks of ${expectedChecks(file)}`);
    checks += n;
    if (file.kind === 'schedule') schedules.push(file);
  }
  checks += replayInterleaved(api, schedules);
  return { wasmRefused, files: names.length, checks };
}
main().then(
  (r) => { globalThis.result = r; },
  (e) => { globalThis.result = { error: `${e.name}: ${e.message}` }; },
);
