// The JavaScript column of SPEC.md §18's table of public names is the package's: each name is an
// export of one of its entry points (by import and by require), or of seeded-backoff/shared
// (§19's parts, an ES module), a type its declarations export (a type has no value at run time),
// or (the failure kind) a field its types declare for an outcome. And the main entry is the
// narrow one its README's first examples use.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as main from 'seeded-backoff';
// The fleet's shared parts (SPEC.md §19) are the seeded-backoff/shared entry's (an ES module).
import * as shared from 'seeded-backoff/shared';
import { cjs, esm } from './api.mjs';

const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
const FIELDS = new Set(['failureKind']);

function jsColumn() {
  const section = read('../../SPEC.md').split('\n## 18. ')[1].split('\n## ')[0];
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const at = rows[0].split('|').map((c) => c.trim()).indexOf('JavaScript');
  return rows.slice(2).flatMap((row) => [...row.split('|')[at].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

test('every name of SPEC.md §18 is an export of the package (or a field of its types)', () => {
  const names = jsColumn();
  assert.ok(names.length >= 15, `${names.length} names`);
  const types = readdirSync(new URL('../types/', import.meta.url)).map((f) => read(`../types/${f}`)).join('\n');
  const missing = [];
  for (const name of names) {
    if (FIELDS.has(name)) {
      if (!new RegExp(`\\b${name}\\??:`).test(types)) missing.push(`${name} (a field of the declarations)`);
    } else if (new RegExp(`^export (interface|type) ${name}\\b`, 'm').test(types)) {
      // A type only: nothing to find at run time.
    } else if (name in shared) {
      // An export of seeded-backoff/shared.
    } else {
      for (const [how, api] of [['import', esm], ['require', cjs]]) {
        if (!(name in api)) missing.push(`${name} (${how})`);
      }
    }
  }
  assert.deepEqual(missing, [], 'names SPEC.md §18 gives that the package does not export');
});

test('the main entry exports what a first program uses, the same by import and by require', () => {
  const everyday = ['Backoff', 'Policy', 'RetryError', 'Run', 'fetchWithBackoff', 'hintFromHeaders', 'nowMs', 'retry'];
  assert.deepEqual(Object.keys(main).sort(), everyday);
  assert.deepEqual(Object.keys(createRequire(import.meta.url)('seeded-backoff')).sort(), everyday);
  // index.d.ts declares the same values (its types aside).
  const declared = [...read('../types/index.d.ts').matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), everyday);
});
