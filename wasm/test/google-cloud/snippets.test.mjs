// wasm/README.md's Google Cloud and Valkey snippets, run as pasted: each is written to a scratch folder whose
// node_modules links the built package (wasm/, resolved through its "exports") and this folder's
// client libraries, and run by Node against the local servers; the delays it prints are the
// independent model's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { memorystore } from './memorystore-server.mjs';
import { modelDelays } from './model.mjs';
import { redisServer } from './redis-server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const WASM = join(HERE, '..', '..');
const DOC = readFileSync(join(WASM, 'README.md'), 'utf8');

function snippet(heading) {
  const section = DOC.split(`## ${heading}`)[1];
  return section.split('```js\n')[1].split('```')[0];
}

async function run(code, env) {
  const dir = mkdtempSync(join(tmpdir(), 'sb-snippet-'));
  try {
    mkdirSync(join(dir, 'node_modules', '@google-cloud'), { recursive: true });
    symlinkSync(WASM, join(dir, 'node_modules', 'seeded-backoff'));
    for (const dep of ['@google-cloud/memorystore', 'google-auth-library', 'iovalkey']) {
      symlinkSync(join(HERE, 'node_modules', dep), join(dir, 'node_modules', dep));
    }
    writeFileSync(join(dir, 'snippet.mjs'), code);
    const { stdout } = await promisify(execFile)(process.execPath, ['snippet.mjs'],
      { cwd: dir, env: { ...process.env, ...env }, timeout: 60_000 });
    return stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the Google Cloud snippet', async () => {
  const [[first]] = modelDelays([{ seed: 7, elapsed: true, steps: [{}] }]);
  const server = await memorystore([[503, {}], [200, {}]]);
  try {
    const out = await run(snippet('Google Cloud client libraries'), { MEMORYSTORE_PORT: String(server.port) });
    assert.equal(out, `ACTIVE ${JSON.stringify([[503, first]])}`);
    assert.equal(server.paths.length, 2);
  } finally {
    await server.close();
  }
});

test('the Valkey snippet', async () => {
  const [delays] = modelDelays([{ seed: 7, steps: [{ reset: true }, {}, {}] }]);
  const server = await redisServer();
  try {
    const out = await run(snippet('Valkey and Redis clients'), { VALKEY_PORT: String(server.port) });
    assert.equal(out, `PONG\n[ ${delays.join(', ')} ]\nPONG`);
  } finally {
    await server.close();
  }
});

test('the fleet snippet (seeded-backoff/shared)', async () => {
  const server = await redisServer();
  try {
    const out = await run(snippet('A fleet through Valkey'), { VALKEY_PORT: String(server.port) });
    assert.equal(out, 'ok joined');
  } finally {
    await server.close();
  }
});
