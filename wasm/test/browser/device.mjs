// seeded-backoff/device in headless Chromium, with device emulation on and off (CDP): the
// README's phones snippet runs as pasted in an import-map page and must print the preset the
// device calls for and that preset's first two delays for seed 42, as the independent model
// (tests/model/spec_model.py) computes them.
//  - off: Chromium's own desktop User-Agent Client Hints (mobile false): google;
//  - a phone (Emulation.setUserAgentOverride with userAgentMetadata.mobile true, touch and a
//    phone's screen): mobile;
//  - the hints say desktop on a touch screen ("request desktop site"): google, the hints decide;
//  - without User-Agent Client Hints (as in Safari and Firefox, the page's navigator.userAgentData
//    removed before it runs): an iPhone's User-Agent is mobile; an iPad's desktop User-Agent with
//    a touch screen is mobile by its coarse pointer; a desktop's is google.
// Exits non-zero on any failure.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../server.mjs';
import { finish, launch, serveFile, wasmDir } from './chromium.mjs';

const readme = readFileSync(join(wasmDir, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Phones: `seeded-backoff/device`'));
const start = section.indexOf('```js\n') + 6;
const snippet = section.slice(start, section.indexOf('```', start));

const model = JSON.parse(execFileSync('python3', ['-c', `import json, spec_model as m
out = {}
for p in ("google", "mobile"):
    b = m.Backoff(m.preset(p), 42)
    out[p] = "%s %d %d" % (p, b.next().delay_ms, b.next().delay_ms)
print(json.dumps(out))`], { env: { ...process.env, PYTHONPATH: join(wasmDir, '..', 'tests', 'model') }, encoding: 'utf8' }));

const importMap = JSON.stringify({ imports: { 'seeded-backoff': '/dist/index.js', 'seeded-backoff/device': '/dist/device.js' } });
const page = `<!doctype html><meta charset="utf-8"><script type="importmap">${importMap}</script>
<script type="module">${snippet}</script>`;
const server = await startServer({}, (req, res, path) => {
  if (path === '/device.html') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    return true;
  }
  return serveFile(req, res, path);
});

const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const metadata = (mobile) => ({ brands: [{ brand: 'Chromium', version: '126' }], fullVersion: '126.0.0.0',
  platform: mobile ? 'Android' : 'Linux', platformVersion: mobile ? '14' : '', architecture: mobile ? '' : 'x86',
  model: mobile ? 'Pixel 8' : '', mobile });
const PHONE_SCREEN = { width: 412, height: 915, deviceScaleFactor: 2.625, mobile: true };

const { context, close } = await launch();
await finish(async () => {
  /** The snippet's line on a fresh page set up by `emulate(cdp)`, and what the page reports. */
  async function run(name, emulate, { noHints = false } = {}) {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    const printed = new Promise((resolve) => tab.on('console', (m) => resolve(m.text())));
    // Safari and Firefox have no navigator.userAgentData: removed before the page's scripts run.
    if (noHints) await tab.addInitScript(() => Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined }));
    const cdp = await context.newCDPSession(tab);
    await emulate(cdp);
    await tab.goto(`${server.url}/device.html`);
    const line = await Promise.race([printed, new Promise((_, no) => setTimeout(() => no(new Error(`${name}: nothing printed`)), 20000))]);
    const seen = await tab.evaluate(() => ({ hints: navigator.userAgentData?.mobile ?? null,
      coarse: matchMedia('(pointer: coarse)').matches, ua: navigator.userAgent }));
    assert.deepEqual(errors, [], name);
    await tab.close();
    console.log(`chromium: ${name}: ${line} (userAgentData.mobile ${seen.hints}, pointer coarse ${seen.coarse})`);
    return { line, ...seen };
  }
  const touch = (cdp) => cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });

  const phoneScreen = async (cdp, ua, mobile) => {
    await cdp.send('Emulation.setUserAgentOverride', { userAgent: ua, userAgentMetadata: metadata(mobile) });
    await touch(cdp);
    await cdp.send('Emulation.setDeviceMetricsOverride', PHONE_SCREEN);
  };
  const userAgent = (ua) => (cdp) => cdp.send('Emulation.setUserAgentOverride', { userAgent: ua });
  const noHints = { noHints: true };
  // [what, the emulation, page options, what the page must show]
  const cases = [
    ['emulation off', async () => {}, {}, { line: model.google, hints: false, coarse: false }],
    ['a phone (hints mobile true, touch, phone screen)', (cdp) => phoneScreen(cdp, PIXEL, true), {},
      { line: model.mobile, hints: true }],
    ['hints mobile false on a touch screen', (cdp) => phoneScreen(cdp, DESKTOP, false), {},
      { line: model.google, hints: false, coarse: true }],
    ['no hints, an iPhone User-Agent', userAgent(IPHONE), noHints, { line: model.mobile, hints: null, coarse: false }],
    ['no hints, an iPad (desktop User-Agent, touch screen)', async (cdp) => {
      await userAgent(IPAD)(cdp);
      await touch(cdp);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 820, height: 1180, deviceScaleFactor: 2, mobile: true });
    }, noHints, { line: model.mobile, hints: null, coarse: true }],
    ['no hints, a desktop User-Agent, no touch', userAgent(IPAD), noHints, { line: model.google, hints: null, coarse: false }],
  ];
  for (const [what, emulate, options, want] of cases) {
    const got = await run(what, emulate, options);
    for (const [key, value] of Object.entries(want)) assert.equal(got[key], value, `${what}: ${key}`);
  }
}, close, server.close);
