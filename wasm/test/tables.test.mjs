// The package's hand-written surface against the core's tables and the SPEC: the .d.ts unions
// (presets, jitters, give-up reasons, error codes, classes) are the names the core generated into
// pkg/tables.js, and retry()'s names are SPEC.md §14's JavaScript column, observed on a real run.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { esm as api } from './api.mjs';
import * as tables from '../pkg/tables.js';

const types = new URL('../types/', import.meta.url);
const dts = readdirSync(types).map((f) => readFileSync(new URL(f, types), 'utf8')).join('\n');

/** The string literals of `export type NAME = …;` in the .d.ts files, in order. */
function union(name) {
  const m = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `no .d.ts declares a type ${name}`);
  return [...m[1].replace(/\/\*\*[\s\S]*?\*\//g, '').matchAll(/'([^']*)'/g)].map((x) => x[1]);
}

test('the .d.ts unions are the core\'s names, in the core\'s order', () => {
  assert.deepEqual(union('Preset'), tables.PRESETS);
  assert.deepEqual(union('Jitter'), tables.JITTERS);
  assert.deepEqual(union('GiveUpReason'), tables.GIVE_UP.slice(1));
  assert.deepEqual(union('Classification'), tables.CLASSES);
  assert.deepEqual(union('RetryAfterErrorCode'), tables.PARSE_ERRORS.map(([name]) => name));
  assert.deepEqual(union('SnapshotErrorCode'), tables.SNAPSHOT_ERRORS.map(([name]) => name));
  // A rate-limit value fails only in these ways (it has no date), each a core parse error.
  for (const code of union('RateLimitErrorCode')) assert.ok(tables.PARSE_ERRORS.some(([name]) => name === code), code);
  assert.deepEqual(union('RateLimitHeaderName').map((n) => n.toLowerCase()), tables.RATE_LIMIT_HEADERS);
});

/** SPEC.md §14's table: concept -> the names in the JavaScript column. */
function spec() {
  const text = readFileSync(new URL('../../SPEC.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('\n## 14. '));
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| concept') && !l.startsWith('|---'));
  return Object.fromEntries(rows.map((l) => {
    const cells = l.split('|').map((c) => c.trim());
    return [cells[1], [...cells[3].matchAll(/`([^`]+)`/g)].map((x) => x[1])];
  }));
}

test('retry() speaks SPEC.md §14\'s JavaScript names: attempts from 1, onRetry({ attempt, delayMs, error }), RetryError', async () => {
  const names = spec();
  const seen = [];
  const events = [];
  const options = { initialMs: 1, maxBackoffMs: 2, maxRetries: 2, jitter: 'none', seed: 1 };
  options[names['retry callback'][0]] = (event) => events.push(event);
  const err = await api.retry(({ attempt }) => {
    seen.push(attempt);
    throw new Error(`failed ${attempt}`);
  }, options).catch((e) => e);
  assert.deepEqual(seen, [1, 2, 3], 'attempts count from 1');
  assert.equal(err.constructor.name, names['give-up error'][0]);
  assert.equal(err[names['last error of a give-up'][0]].message, 'failed 3');
  assert.equal(err[names['attempts made'][0]], 3);
  assert.equal(err[names['give-up reason'][0]], 'max_retries');
  assert.equal(events.length, 2);
  for (const [i, event] of events.entries()) {
    assert.deepEqual(Object.keys(event).sort(), [names['attempt that just failed, from 1'][0],
      names['delay before the next attempt, ms'][0], names["the failed attempt's error"][0]].sort());
    assert.equal(event.attempt, i + 1);
    assert.equal(event.error.message, `failed ${i + 1}`);
  }
  const b = new api.Backoff({ seed: 1 });
  b.nextDelay();
  assert.equal(b[names['retries issued so far'][0]], 1);
  // Call 0 keeps the seed; call 1 gets SplitMix64's first output from 0 mixed in (SPEC.md §14).
  const callSeed = api[names['the seed of call i of a loop (rule above)'][0]];
  assert.equal(callSeed(42, 0), 42n);
  assert.equal(callSeed(42, 1), 42n ^ 0xe220a8397b1dcdafn);
});
