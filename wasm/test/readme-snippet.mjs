// The first ```js block under a heading of wasm/README.md, run as pasted in a fresh Node process
// (an ES module, from the package's folder so that `seeded-backoff` resolves to this build).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What the snippet under `heading` (its text from the start) prints. */
export function runReadmeSnippet(heading, timeout = 20_000) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const at = readme.indexOf(heading);
  if (at < 0) throw new Error(`wasm/README.md has no heading ${heading}`);
  const section = readme.slice(at);
  const start = section.indexOf('```js\n') + 6;
  const snippet = section.slice(start, section.indexOf('```', start));
  return execFileSync(process.execPath, ['--input-type=module', '-e', snippet],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', timeout });
}
