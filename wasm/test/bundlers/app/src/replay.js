// Every vector file replayed through the package as bundled, with `seeded-backoff/csp/full` imported
// (under a Content-Security-Policy that refuses WebAssembly, the JS build answers). Also says
// whether this page may compile WebAssembly at all, so that the test knows which build gave the
// results.
import 'seeded-backoff/csp/full';
import * as api from 'seeded-backoff';
import { expectedChecks, replayFile, replayInterleaved } from './replay.mjs';

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
