// One Node process of lab/fleet-quota-mixed.sh's fleet: WORKERS concurrent loops of
// fetchWithBackoff on PATH_NAME from START_AT (Unix ms) for SECONDS, behind one send rate: the
// process's own SendRate where STORE_PORT is empty, else a SharedSendRate on KEY of the
// redis-server at STORE_PORT (iovalkey, from wasm/test/google-cloud's locked dependencies), the
// same key the fleet's Rust and Python processes share. FIXED_MILLI pins the rate (min = max), as
// the Rust client's fleet_config does. Prints the rate it learnt and, shared, its decisions.
import { createRequire } from 'node:module';

const { PORT, PATH_NAME, STORE_PORT, KEY, PACKAGE, FIXED_MILLI } = process.env;
const WORKERS = Number(process.env.WORKERS);
const SECONDS = Number(process.env.SECONDS);
const START_AT = Number(process.env.START_AT ?? Date.now());
const { fetchWithBackoff } = await import(`${PACKAGE}/index.js`);
const { SendRate } = await import(`${PACKAGE}/send-rate.js`);
const options = FIXED_MILLI ? { minRateMilli: Number(FIXED_MILLI), maxRateMilli: Number(FIXED_MILLI) } : {};
let sendRate = new SendRate(options);
let store;
if (STORE_PORT) {
  const { SharedSendRate } = await import(`${PACKAGE}/shared.js`);
  const Valkey = createRequire(new URL('../../wasm/test/google-cloud/package.json', import.meta.url))('iovalkey');
  // As wasm/README.md says: a command fails at once while the store is away.
  store = new Valkey({ port: Number(STORE_PORT), host: '127.0.0.1', enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  await new Promise((resolve) => store.once('ready', resolve));
  // BOUND_MS: the link's bound, SPEC.md's 50 ms unless the lab sets another.
  sendRate = new SharedSendRate(store, KEY, sendRate, process.env.BOUND_MS ? { boundMs: Number(process.env.BOUND_MS) } : {});
}

await new Promise((r) => setTimeout(r, Math.max(0, START_AT - Date.now())));
const end = performance.now() + SECONDS * 1000;
const url = `http://127.0.0.1:${PORT}${PATH_NAME}`;
// The Node loop of lab/quota/quota.mjs: many retries within 30 s, so a request is retried
// rather than dropped; the send rate paces every attempt.
const retryOptions = { sendRate, maxRetries: 100, maxElapsedMs: 30_000, initialMs: 10, maxBackoffMs: 100, jitter: 'full' };
// A request the send rate would not let go within maxElapsedMs (a rate cut to a few a minute)
// gives up with no attempt made: counted, and its worker pauses 100 ms before the next, as the
// Rust and Python clients do, rather than asking again in a loop that holds a core.
let notSent = 0;
async function worker() {
  while (performance.now() < end) {
    const res = await fetchWithBackoff(url, {}, retryOptions).catch((e) => (e.attempts === 0 ? null : e.cause));
    if (res === null) {
      notSent += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A 429 given up on was read by the loop already; a 200 is drained here.
    if (res && !res.bodyUsed) await res.arrayBuffer?.().catch(() => {});
  }
}
await Promise.all(Array.from({ length: WORKERS }, worker));
const stats = store ? ` decisions ${sendRate.stats.decisions} alone ${sendRate.stats.alone} conflicts ${sendRate.stats.conflicts} link ${sendRate.linkState}` : '';
console.log(`learnt ${PATH_NAME} ${sendRate.rateMilli} not-sent ${notSent}${stats}`);
store?.disconnect();
process.exit(0);
