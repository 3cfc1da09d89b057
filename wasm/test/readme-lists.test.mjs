// The lists a newcomer reads in wasm/README.md are the core's (pkg/tables.js, generated from the
// Rust core by wasm/examples/gen_js_tables.rs): the options, in the core's order, with their named
// values and the ranges of the core's messages, and the give-up reasons. The .d.ts PolicyOptions
// has the same keys. A list that drifts from the core fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEADLINES, GIVE_UP, JITTERS, OPTIONS, PRESETS, RULES } from '../pkg/tables.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dts = readFileSync(new URL('../types/index.d.ts', import.meta.url), 'utf8');

/** The bullets (`- \`name\`: text`) of the section under `heading`, as [name, text]. */
function bullets(markdown, heading) {
  const at = markdown.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `wasm/README.md has no heading ${heading}`);
  const section = markdown.slice(at + heading.length + 2).split(/\n#/)[0];
  return [...section.matchAll(/^- `([^`]+)`: (.*)$/gm)].map(([, name, text]) => [name, text]);
}

const quoted = (text) => [...text.matchAll(/`'([^']*)'`/g)].map(([, v]) => v);

test("the README's options are the core's, in its order, with its names and ranges", () => {
  const list = bullets(readme, '### Options');
  assert.deepEqual(list.map(([name]) => name), OPTIONS);
  const named = { preset: PRESETS, jitter: JITTERS, deadline: DEADLINES };
  for (const [i, [name, text]] of list.entries()) {
    if (named[name]) {
      assert.deepEqual(quoted(text), named[name], name);
    } else if (name !== 'paced') {
      // The range of the core's message ("initialMs must be in 1..=2147483647").
      const range = /(\S+\.\.=\S+)/.exec(RULES[i])[1];
      assert.ok(text.includes(range), `${name}: the README says ${JSON.stringify(text)}, the core ${range}`);
    }
  }
});

test("the README's give-up reasons are the core's, in its order", () => {
  const list = bullets(readme, '### Why a run gives up');
  assert.deepEqual(list.map(([name]) => name.replace(/^'|'$/g, '')), GIVE_UP.filter((r) => r !== null));
  // The README names no give-up reason the core does not have.
  for (const [, r] of readme.matchAll(/giveUpReason\W[^\n]*?'([a-z_]+)'/g)) assert.ok(GIVE_UP.includes(r), r);
});

test('the .d.ts PolicyOptions has the core\'s options, in its order', () => {
  const body = /export interface PolicyOptions \{([\s\S]*?)\n\}/.exec(dts)[1].replace(/\/\*\*[\s\S]*?\*\//g, '');
  assert.deepEqual([...body.matchAll(/^\s+(\w+)\?:/gm)].map(([, k]) => k), OPTIONS);
});

test('a list that drifts is found', () => {
  const drifted = readme.replace("- `'throttled'`: ", "- `'rate_limited'`: ");
  assert.notDeepEqual(bullets(drifted, '### Why a run gives up').map(([n]) => n.replace(/'/g, '')), GIVE_UP.filter((r) => r !== null));
});
