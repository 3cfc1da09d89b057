// The adapters on a page that refuses WebAssembly (a Content-Security-Policy without
// 'wasm-unsafe-eval') and lacks `import 'seeded-backoff/csp'`: made at a module's top level, they
// throw nothing; a request makes its first attempt, and its first failure ends with the error that
// names the line. The refusal is the one a browser gives (a CompileError from both compile paths)
// to the package's engine (Node's own fetch compiles WebAssembly too, and keeps doing so),
// installed before the package is imported (node:test runs each file in its own process).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ky from 'ky';
import { startServer } from './helpers.mjs';

const ours = () => /dist\/engine\.js/.test(new Error().stack);
const refusing = (f) => function (...args) {
  if (ours()) throw new WebAssembly.CompileError("WebAssembly.Module(): Refused to compile or instantiate WebAssembly module because 'wasm-eval' is not an allowed source of script");
  return new.target ? Reflect.construct(f, args, new.target) : f.apply(this, args);
};
WebAssembly.Module = refusing(WebAssembly.Module);
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  if (ours()) throw new WebAssembly.CompileError('WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module');
  return instantiate.apply(this, args);
};
const { kyRetry } = await import('seeded-backoff/ky');
const { axiosRetryOptions } = await import('seeded-backoff/axios-retry');
const { gotRetry } = await import('seeded-backoff/got');

let server;
before(async () => {
  server = await startServer({ '/down': [[503]] });
});
after(() => server.close());

test('each adapter is made without the engine; a request makes its first attempt, then names the missing line', async () => {
  const options = kyRetry({ preset: 'google' }, 1);
  axiosRetryOptions({ preset: 'google' }, 1);
  gotRetry({ preset: 'google' }, 1);
  const api = ky.create({ ...options, timeout: false });
  await assert.rejects(api.get(`${server.url}/down`).text(), (e) => {
    assert.match(String(e?.message), /import 'seeded-backoff\/csp'/);
    return true;
  });
  assert.equal(server.hits('/down'), 1);
});
