// The TypeScript types make a newcomer's mistakes visible with the error that fixes them: tsc,
// run on wasm/test/types/mistakes.ts against the built package's .d.ts, reports an error on every
// marked line, matching the line's `// error:` pattern (the option's own type, its literal values,
// a near name where TypeScript suggests one), and on no other line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
const dir = fileURLToPath(new URL('./types/', import.meta.url));

test('tsc names the option, its type or values, and the near name, on every mistake in mistakes.ts', () => {
  const source = readFileSync(new URL('./types/mistakes.ts', import.meta.url), 'utf8').split('\n');
  const expected = new Map();
  source.forEach((line, i) => {
    const m = /^\/\/ error: (.*)$/.exec(line);
    if (m) expected.set(i + 2, new RegExp(m[1]));
  });
  assert.ok(expected.size >= 15);
  const out = spawnSync(tsc, ['--ignoreConfig', '--strict', '--noEmit', '--pretty', 'false', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--types', '', 'mistakes.ts'],
  { cwd: dir, encoding: 'utf8' });
  // Each error, with its continuation lines (an overload's), by the line it is on.
  const errors = new Map();
  let at;
  for (const line of out.stdout.split('\n')) {
    const m = /^mistakes\.ts\((\d+),\d+\): error (.*)$/.exec(line);
    if (m) errors.set((at = +m[1]), (errors.get(+m[1]) ?? '') + m[2]);
    else if (at !== undefined && line.startsWith(' ')) errors.set(at, `${errors.get(at)} ${line.trim()}`);
  }
  assert.deepEqual([...errors.keys()].sort((a, b) => a - b), [...expected.keys()], out.stdout);
  for (const [line, pattern] of expected) assert.match(errors.get(line), pattern, `mistakes.ts line ${line}`);
});
