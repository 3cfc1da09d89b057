// Every function and method wasm/README.md calls in its prose (`name(` inside a code span) is
// declared by the package's types (wasm/types/*.d.ts): the npm page cannot name a function the
// package does not have. Reads text only, so it needs no build.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const types = new URL('../types/', import.meta.url);
const declarations = readdirSync(types)
  .filter((f) => f.endsWith('.d.ts'))
  .map((f) => readFileSync(new URL(f, types), 'utf8'))
  .join('\n');

// What the README calls that is not the package's: `import()`, a fetch Response's `json()`, and
// the reader's own `sleep`/`now` given as options (declared as such, checked below).
const OUTSIDE = new Set(['import', 'json']);

const escape = (name) => name.replace(/\$/g, '\\$');

/** Whether the .d.ts files declare `name`: a function, class, method or property. */
function declared(name) {
  const n = escape(name);
  return new RegExp(`(?:function|class|const|interface|type) ${n}\\b|(?:^|[\\s(,{])${n}\\??\\s*[(<:]`, 'm').test(declarations);
}

/** The names `markdown` calls in its prose's code spans (code blocks run as tests of their own). */
function called(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const names = new Set();
  for (const [, span] of prose.matchAll(/`([^`]+)`/g)) {
    for (const [, name] of span.matchAll(/([A-Za-z_$][\w$]*)\(/g)) names.add(name);
  }
  return [...names];
}

const missing = (markdown) => called(markdown).filter((name) => !OUTSIDE.has(name) && !declared(name));

test('every function and method wasm/README.md calls is declared by the package types', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  assert.ok(called(readme).length >= 25, `only ${called(readme).length} names checked`);
  assert.deepEqual(missing(readme), []);
});

test('a name the types do not declare is found', () => {
  assert.deepEqual(missing('`new Backoff(policy)`, `b.nextDelayWithHintAt(5)`, `r.json()`\n\n```js\nnope()\n```\n'),
    ['nextDelayWithHintAt']);
});
