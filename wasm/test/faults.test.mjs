// fetchWithBackoff() in Node against tests/faults/fault_server.py on 127.0.0.1: resets before and
// after the headers, a stall, headers that trickle in, a truncated chunked body, a refused port, a
// storm of 5xx/429 with garbage hints (the cases in faults-cases.mjs, which Chromium meets too:
// browser/faults.mjs). For each: the loop ends (a failing one on its deadline, well within ten
// times its budget: LIMIT_MS), the final error names the last failure, the caller's signal has no
// listener left, and the server holds no connection of ours afterwards. Each loop's time is
// printed (lab/web-faults.sh sets it beside the budget).
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, test } from 'node:test';
import { fetchWithBackoff, RetryError } from 'seeded-backoff';
import { ANSWERED, FAILING, faultUrl, LIMIT_MS, runFault } from './faults-cases.mjs';
import { startFaultServer } from './fault-server.mjs';

let server;
before(async () => {
  server = await startFaultServer();
});
after(() => server.close());

async function run(fault) {
  const ac = new AbortController();
  const out = await runFault(fetchWithBackoff, RetryError, fault, faultUrl(fault, server, 'node'), ac.signal);
  out.listeners = getEventListeners(ac.signal, 'abort').length;
  return out;
}

for (const [fault] of FAILING) {
  test(`${fault}: ends on the deadline (within ${LIMIT_MS} ms), naming the last failure, leaving nothing behind`, async () => {
    const out = await run(fault);
    assert.ok(out.retryError, `${fault}: ${out.message}`);
    assert.equal(out.reason, 'deadline');
    assert.ok(out.lastMatches, `${fault}: the last failure was ${out.cause}`);
    assert.ok(out.ms <= LIMIT_MS, `${fault}: ${out.ms.toFixed(0)} ms`);
    assert.equal(out.listeners, 0);
    console.log(`node ${fault}: gave up after ${out.attempts} attempts in ${out.ms.toFixed(0)} ms: ${out.message}`);
    assert.equal(await server.openConnections(), 1);
  });
}

for (const fault of ANSWERED) {
  test(`${fault}: the headers arrived, so the attempt answered; its body is cut short, as fetch gives it`, async () => {
    const out = await run(fault);
    assert.equal(out.status, 200);
    // Reading the body rejects (the reset) or ends early (Node's fetch ends a chunked body at the
    // connection's close without an error).
    assert.ok(out.bodyLength === null || out.bodyLength <= 10, `${fault}: ${out.bodyLength} bytes`);
    assert.ok(out.ms <= LIMIT_MS);
    assert.equal(out.listeners, 0);
    assert.equal(await server.openConnections(), 1);
  });
}
