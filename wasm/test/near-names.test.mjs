// A newcomer's mistakes get the error that fixes them: a misspelt option key or value is named with
// the name it most likely meant ("did you mean 'maxRetries'?"), a value of the wrong type names
// the option and its type, in every function that takes an options object, through import and
// require. The near names below are chosen by hand (a letter doubled, two swapped, a plural, p-retry's
// `retries`), so they do not come from the code under test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';

const cjs = cjsAll;

/** `f()`'s error (thrown or rejected). */
async function errorOf(f) {
  try {
    await f();
  } catch (e) {
    return e;
  }
  assert.fail('no error');
}

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  const policy = new api.Policy();
  const never = () => assert.fail('fn was called');

  test(`${how}: the issue's three values name the option, its allowed values or type, and the near one`, async () => {
    for (const call of [(o) => api.retry(never, o), (o) => api.fetchWithBackoff('data:,', {}, o), (o) => new api.Policy(o), (o) => new api.Backoff(o)]) {
      let e = await errorOf(() => call({ maxRetries: '5' }));
      assert.equal(`${e.name}: ${e.message}`, 'TypeError: maxRetries must be a number in 0..=4294967295, got "5"');
      e = await errorOf(() => call({ jitter: 'fulll' }));
      assert.equal(`${e.name}: ${e.message}`, `RangeError: jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got "fulll" (did you mean 'full'?)`);
      e = await errorOf(() => call({ preset: 'googel' }));
      assert.equal(`${e.name}: ${e.message}`, `RangeError: preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile', got "googel" (did you mean 'google'?)`);
    }
  });

  test(`${how}: a misspelt key gets "did you mean" in every function that takes options`, async () => {
    const cases = [
      ['retry options', 'maxRetry', 'maxRetries', (o) => api.retry(never, o)],
      ['retry options', 'retries', 'maxRetries', (o) => api.retry(never, o)],
      ['retry options', 'attemptTimeout', 'attemptTimeoutMs', (o) => api.retry(never, o)],
      ['fetchWithBackoff options', 'retryMethod', 'retryMethods', (o) => api.fetchWithBackoff('data:,', {}, o)],
      ['fetchWithBackoff options', 'onretry', 'onRetry', (o) => api.fetchWithBackoff('data:,', {}, o)],
      ['Policy options', 'initalMs', 'initialMs', (o) => new api.Policy(o)],
      ['Backoff options', 'sed', 'seed', (o) => new api.Backoff(o)],
      ['nextDelay input', 'retryAfter', 'retryAfterMs', (o) => new api.Backoff(policy).nextDelay(o)],
      ['Run options', 'sendrate', 'sendRate', (o) => new api.Run(policy, o)],
      ['retryable outcome', 'failurekind', 'failureKind', (o) => new api.Run(policy).outcome(o)],
      ['RetryBudget options', 'maxToken', 'maxTokens', (o) => new api.RetryBudget(o)],
      ['SendRate options', 'burts', 'burst', (o) => new api.SendRate(o)],
      ['Pacer options', 'capacityPerSecond', 'capacityPerS', (o) => new api.Pacer(o)],
      ['Run options', 'budgte', 'budget', (o) => api.restoreRun(policy, new Uint8Array(100), o)],
    ];
    for (const [where, typo, meant, call] of cases) {
      const e = await errorOf(() => call({ [typo]: 1 }));
      assert.ok(e instanceof TypeError, `${typo}: ${e}`);
      assert.match(e.message, new RegExp(`^unknown option "${typo}" in ${where} \\(did you mean '${meant}'\\?\\); known: `), typo);
    }
  });

  test(`${how}: a misspelt value gets "did you mean"; a far one only the list`, async () => {
    const cases = [
      ['deadline', 'clmap', 'clamp', (v) => new api.Policy({ deadline: v })],
      ['preset', 'awsStandard', 'aws_standard', (v) => new api.Policy({ preset: v })],
      ['preset', 'GRPC', 'grpc', (v) => new api.Policy({ preset: v })],
      ['offline', 'wiat', 'wait', (v) => api.retry(never, { offline: v })],
      ['whenHidden', 'paused', 'pause', (v) => api.retry(never, { whenHidden: v })],
      ['mode', 'grcp', 'grpc', (v) => new api.RetryBudget({ mode: v })],
      ['failureKind', 'timout', 'timeout', (v) => new api.Backoff(policy).nextDelay({ failureKind: v })],
      ['reason', 'hiden', 'hidden', (v) => new api.Run(policy).pause(v)],
    ];
    for (const [name, typo, meant, call] of cases) {
      const e = await errorOf(() => call(typo));
      assert.ok(e instanceof RangeError, `${typo}: ${e}`);
      assert.match(e.message, new RegExp(`^${name} must be one of .*, got "${typo}" \\(did you mean '${meant}'\\?\\)$`), typo);
    }
    const far = await errorOf(() => new api.Policy({ jitter: 'exponential' }));
    assert.match(far.message, /^jitter must be one of .*, got "exponential"$/);
    const unknown = await errorOf(() => api.retry(never, { factor: 2 }));
    assert.match(unknown.message, /^unknown option "factor" in retry options \(a typo\?\); known: /);
  });
}

test("the README's bad-input example prints what its comments say", async () => {
  const { readFileSync } = await import('node:fs');
  const { runReadmeSnippet } = await import('./readme-snippet.mjs');
  const marker = 'Bad input is refused with an error';
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = readme.slice(readme.indexOf(marker)).split('```')[1];
  // Each call's comment is its line, with … for the elided rest.
  const said = [...block.matchAll(/^tryIt\(.*\/\/ (.*)$/gm)].map(([, c]) => c);
  const printed = runReadmeSnippet(marker).trimEnd().split('\n');
  assert.equal(printed.length, said.length);
  assert.ok(said.length >= 5);
  said.forEach((c, i) => {
    const pattern = `^${c.split('…').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`;
    assert.match(printed[i], new RegExp(pattern));
  });
});
