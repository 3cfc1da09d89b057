// Chromium's fetch against tests/faults/fault_server.py: the cases of test/faults-cases.mjs that
// Node meets in test/faults.test.mjs (resets before and after the headers, a stall, headers that
// trickle in, a truncated chunked body, a refused port, a 5xx/429 storm with garbage hints), run
// by fetchWithBackoff() from the browser build on a page of another local origin. For each: the
// loop ends (a failing one on its deadline, well within ten times its budget: LIMIT_MS), the error
// names the last failure, the caller's signal has no listener left (DevTools' DOMDebugger.getEventListeners), and
// the server holds no connection of Chromium's afterwards. About 20 s (bounded at 120 s).
import assert from 'node:assert/strict';
import { ANSWERED, FAILING, faultUrl, LIMIT_MS } from '../faults-cases.mjs';
import { startFaultServer } from '../fault-server.mjs';
import { startServer } from '../server.mjs';
import { finish, launch, serveFile } from './chromium.mjs';

const faults = await startFaultServer();
const server = await startServer({}, serveFile);
const { context, close } = await launch(120000);
await finish(async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/test/browser/faults.html`);
  await page.waitForFunction(() => window.ready);
  const cdp = await context.newCDPSession(page);

  /** The abort listeners on the caller's signal of `fault`'s loop, as DevTools lists them. */
  async function listeners(fault) {
    const { result } = await cdp.send('Runtime.evaluate', { expression: `window.signals[${JSON.stringify(fault)}]` });
    const { listeners: all } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return all.filter((l) => l.type === 'abort').length;
  }
  const run = (fault) => page.evaluate(([f, url]) => window.runFault(f, url), [fault, faultUrl(fault, faults, 'chromium')]);

  // The check can fail: a signal with a listener on it is counted.
  await page.evaluate(() => { window.signals.probe = new AbortController().signal; window.signals.probe.addEventListener('abort', () => {}); });
  assert.equal(await listeners('probe'), 1, 'DevTools counts a listener that is there');

  for (const [fault] of FAILING) {
    const out = await run(fault);
    assert.ok(out.retryError, `${fault}: ${out.message}`);
    assert.equal(out.reason, 'deadline', fault);
    assert.ok(out.lastMatches, `${fault}: the last failure was ${out.cause}`);
    assert.ok(out.ms <= LIMIT_MS, `${fault}: ${out.ms.toFixed(0)} ms`);
    assert.equal(await listeners(fault), 0, `${fault}: listeners left on the signal`);
    assert.equal(await faults.openConnections(), 1, `${fault}: connections left open`);
    console.log(`chromium ${fault}: gave up after ${out.attempts} attempts in ${out.ms.toFixed(0)} ms (last: ${out.cause}): ${out.message}`);
  }
  for (const fault of ANSWERED) {
    const out = await run(fault);
    assert.equal(out.status, 200, fault);
    // What arrived before the cut, or a rejected read: never more than the 10 (or 4) bytes sent.
    assert.ok(out.bodyLength === null || out.bodyLength <= 10, `${fault}: ${out.bodyLength} bytes`);
    assert.ok(out.ms <= LIMIT_MS, `${fault}: ${out.ms.toFixed(0)} ms`);
    assert.equal(await listeners(fault), 0, `${fault}: listeners left on the signal`);
    assert.equal(await faults.openConnections(), 1, `${fault}: connections left open`);
    console.log(`chromium ${fault}: answered 200 in ${out.ms.toFixed(0)} ms; body ${out.bodyLength === null ? 'rejected' : `${out.bodyLength} bytes`}`);
  }
  assert.deepEqual(errors, []);
}, close, server.close, faults.close);
