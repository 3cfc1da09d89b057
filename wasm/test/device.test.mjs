// seeded-backoff/device: devicePreset()'s rules (User-Agent Client Hints first, then "Mobi" in the
// User-Agent or a coarse primary pointer, else 'google'), the README's snippet as pasted, and that
// a call site without it does not carry it. The browser's own answers, with device emulation on
// and off, are in test/browser/device.mjs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { devicePreset } from '../dist/device.js';
import { runReadmeSnippet } from './readme-snippet.mjs';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const media = (coarse) => (query) => ({ matches: query === '(pointer: coarse)' && coarse });

test('User-Agent Client Hints decide where the browser has them', () => {
  // Chrome's "request desktop site" on a phone: the hint says desktop, whatever the pointer.
  assert.equal(devicePreset({ userAgentData: { mobile: false }, userAgent: IPHONE }, media(true)), 'google');
  assert.equal(devicePreset({ userAgentData: { mobile: true }, userAgent: FIREFOX_LINUX }, media(false)), 'mobile');
});

test('elsewhere: "Mobi" in the User-Agent or a coarse primary pointer', () => {
  assert.equal(devicePreset({ userAgent: IPHONE }, media(false)), 'mobile');
  assert.equal(devicePreset({ userAgent: FIREFOX_ANDROID }, undefined), 'mobile');
  assert.equal(devicePreset({ userAgent: IPAD }, media(true)), 'mobile');
  assert.equal(devicePreset({ userAgent: IPAD }, media(false)), 'google');
  assert.equal(devicePreset({ userAgent: FIREFOX_LINUX }, media(false)), 'google');
  // A userAgentData without a boolean `mobile` is not a hint.
  assert.equal(devicePreset({ userAgentData: {}, userAgent: IPHONE }, media(false)), 'mobile');
});

test('with neither a navigator nor matchMedia (Node): google', () => {
  assert.equal(devicePreset(undefined, undefined), 'google');
  assert.equal(devicePreset({}, 'not a function'), 'google');
  // Node 21+ has a navigator, without userAgentData or matchMedia.
  assert.equal(devicePreset(), 'google');
});

test("README's phones snippet as pasted prints the model's Google delays in Node", () => {
  // SPEC.md's model, not the package: the google preset's first two delays for seed 42.
  const model = execFileSync('python3', ['-c', `import spec_model as m
b = m.Backoff(m.preset("google"), 42)
print("google", b.next().delay_ms, b.next().delay_ms)`], { env: { ...process.env, PYTHONPATH: new URL('../../tests/model', import.meta.url).pathname }, encoding: 'utf8' });
  assert.equal(runReadmeSnippet('### Phones: `seeded-backoff/device`'), model);
});
