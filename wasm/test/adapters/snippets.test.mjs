// wasm/README.md's adapter snippets, each run as pasted (as a module in this folder, where ky,
// axios, axios-retry and got are installed) against a local HTTP server (503, then 200): the one
// wait is the model's first for seed 42.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelDelays, recordWaits, startServer } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const doc = readFileSync(join(here, '..', '..', 'README.md'), 'utf8');
const FIRST = modelDelays(42, [null]);

/** The snippet under `### heading`, as a module of this folder that also exports what it made. */
async function load(heading, made) {
  const block = doc.split(`### ${heading}\n`)[1].split('```js\n')[1].split('```')[0];
  const file = join(here, `.snippet-${heading.split(' ')[0]}.mjs`);
  writeFileSync(file, `${block}export { ${made} };\n`);
  try {
    return await import(pathToFileURL(file));
  } finally {
    rmSync(file);
  }
}

let server;
before(async () => {
  server = await startServer({
    '/ky': [[503], [200]], '/axios': [[503], [200]], '/got': [[503], [200]], '/rate-ky': [[429], [200]], '/rate-axios': [[429], [200]],
  });
});
after(() => server.close());

test('the ky snippet', async () => {
  const { api } = await load('ky 2', 'api');
  const { value, waits } = await recordWaits('ky', () => api.get(`${server.url}/ky`, { timeout: false }).text());
  assert.equal(value, '200 #2');
  assert.deepEqual(waits, FIRST);
});

test('the axios-retry snippet (on the global axios)', async () => {
  const { axios } = await load('axios-retry 4', 'axios');
  const { value, waits } = await recordWaits('axios-retry', () => axios.get(`${server.url}/axios`));
  assert.equal(value.data, '200 #2');
  assert.deepEqual(waits, FIRST);
});

test('the got snippet', async () => {
  const { client } = await load('got 16', 'client');
  const { value, waits } = await recordWaits('got', () => client.get(`${server.url}/got`).text());
  assert.equal(value, '200 #2');
  assert.deepEqual(waits, FIRST);
});

test('the send-rate snippet: ky and axios paced by one SendRate, told each answer', async () => {
  const { api, instance, sendRate } = await load('Behind a send rate', 'api, instance, sendRate');
  assert.equal(await api.get(`${server.url}/rate-ky`, { timeout: false }).text(), '200 #2');
  assert.equal((await instance.get(`${server.url}/rate-axios`)).data, '200 #2');
  // Each 429 without a hint turned the rate on (§17.5: off until the first throttle).
  assert.ok(sendRate.rateMilli > 0, `${sendRate.rateMilli}`);
});
