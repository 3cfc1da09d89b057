// The outbox's bad-storage cases in headless Chromium, each printed with its observed outcome:
// IndexedDB missing, refused (an opaque origin), the quota exceeded (a real quota, set through
// DevTools), damaged or foreign records, a database of a newer version, and the outbox's own
// limits. In none does the page throw, and no other record is lost.
import assert from 'node:assert/strict';
import { openPage, sleep, until } from './outbox.mjs';

const show = (o) => (Array.isArray(o) ? o.join(': ') : String(o));
/** In page `p`, sends with a new Outbox(options) and answers the error's name, code and message. */
const tryOutbox = (p, options, url, init) => p.evaluate(async ([o, u, i]) => {
  const { Outbox } = await import('/dist/outbox/index.js');
  try {
    await new Outbox(o).queue(u, i);
    return 'stored';
  } catch (e) {
    return [e.name, e.code, e.message];
  }
}, [options, url, init]);

export async function badStorage(context, server, errors) {
  const at = (q) => `${server.url}/test/browser/outbox.html?${q}`;
  const report = (name, got) => console.log(`outbox: bad storage: ${name}: ${show(got)}`);

  // IndexedDB missing (as in a browser or webview without it).
  const nodb = await context.newPage();
  nodb.on('pageerror', (e) => errors.push(String(e)));
  await nodb.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true }));
  await nodb.goto(at('name=nodb'));
  await nodb.waitForFunction(() => window.ready);
  const missing = await nodb.evaluate(() => box.send('/ob/nodb', { method: 'POST' }).then(() => 'sent', (e) => [e.name, e.code, e.message]));
  assert.deepEqual(missing.slice(0, 2), ['OutboxError', 'unavailable']);
  report('IndexedDB missing', missing);
  await nodb.close();

  // IndexedDB refused: a sandboxed frame has an opaque origin, where Chromium denies it.
  const host = await openPage(context, at('name=host'), errors);
  const refused = await host.evaluate((origin) => new Promise((resolve) => {
    addEventListener('message', (e) => resolve(e.data), { once: true });
    const f = document.createElement('iframe');
    f.sandbox = 'allow-scripts';
    f.srcdoc = `<script type="module">
      let r;
      try {
        const { Outbox } = await import('${origin}/dist/outbox/index.js');
        await new Outbox({ name: 'opaque' }).send('${origin}/ob/opaque', { method: 'POST' });
        r = 'sent';
      } catch (e) { r = [e.name, e.code, e.message]; }
      parent.postMessage(r, '*');
    <\/script>`;
    document.body.append(f);
  }), server.url);
  assert.deepEqual(refused.slice(0, 2), ['OutboxError', 'unavailable']);
  report('IndexedDB refused (opaque origin)', refused);

  // A database of a newer version of the outbox.
  const newer = await host.evaluate(() => new Promise((resolve) => {
    const r = indexedDB.open('seeded-backoff-outbox:newer', 5);
    r.onsuccess = () => { r.result.close(); resolve(); };
  }).then(async () => {
    const { Outbox } = await import('/dist/outbox/index.js');
    return new Outbox({ name: 'newer' }).send('/ob/newer', { method: 'POST' }).then(() => 'sent', (e) => [e.name, e.code, e.message]);
  }));
  assert.deepEqual(newer.slice(0, 2), ['OutboxError', 'version']);
  report('database of a newer version', newer);

  // The outbox's limits.
  const entries = await host.evaluate(async () => {
    const { Outbox } = await import('/dist/outbox/index.js');
    const box = new Outbox({ name: 'entries', maxEntries: 2, drive: false });
    await box.queue('/ob/entries', { method: 'POST' });
    await box.queue('/ob/entries', { method: 'POST' });
    return box.queue('/ob/entries', { method: 'POST' }).then(() => 'stored', (e) => [e.name, e.code, e.message]);
  });
  assert.deepEqual(entries.slice(0, 2), ['OutboxError', 'limit']);
  report('maxEntries 2, a third request', entries);
  const bytes = await tryOutbox(host, { name: 'bytes', maxBytes: 100, drive: false }, '/ob/bytes', { method: 'POST', body: 'x'.repeat(200) });
  assert.deepEqual(bytes.slice(0, 2), ['OutboxError', 'limit']);
  report('maxBytes 100, a 200-byte body', bytes);
  const options = await host.evaluate(async () => {
    const { Outbox } = await import('/dist/outbox/index.js');
    return [{ maxEntries: 0 }, { name: '' }, { nme: 'x' }].map((o) => {
      try {
        new Outbox(o);
        return 'accepted';
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    });
  });
  assert.ok(options[0].startsWith('RangeError: maxEntries') && options[1].startsWith('TypeError: name') && options[2].startsWith('TypeError'), options.join(' | '));
  report('bad options', options.join(' | '));
  server.fail('/ob/age', Infinity);
  const age = await host.evaluate(async () => {
    const { Outbox } = await import('/dist/outbox/index.js');
    const box = new Outbox({ name: 'age', policy: { ...P, maxElapsedMs: 1500 } });
    return box.send('/ob/age', { method: 'POST' }, { seed: 5 }).then(() => 'sent', (e) => [e.name, e.code, e.reason, e.message]);
  });
  assert.deepEqual(age.slice(0, 3), ['OutboxError', 'gave-up', 'deadline']);
  report(`maxElapsedMs 1500 against a failing server (${server.seen('/ob/age').length} attempts)`, age);

  // The quota: a real one, 30 000 bytes, set through DevTools for an origin of its own (the
  // server's second port) before its first write (Chromium reads an origin's quota when it first
  // writes there).
  server.fail('/ob/quota-keep', 1);
  const q = await context.newPage();
  q.on('pageerror', (e) => errors.push(String(e)));
  const cdp = await context.newCDPSession(q);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: server.urls[1], quotaSize: 30000 });
  await q.goto(`${server.urls[1]}/test/browser/outbox.html?name=quota`);
  await q.waitForFunction(() => window.ready);
  await q.evaluate(() => sendLogged('/ob/quota-keep', { method: 'POST', body: 'keep me' }, { seed: 11 }));
  await until('the first attempt', () => server.seen('/ob/quota-keep').length >= 1, 5000);
  const usage = await q.evaluate(() => navigator.storage.estimate().then((e) => e.usage));
  const quota = await q.evaluate(() => box.send('/ob/quota-big', { method: 'POST', body: crypto.getRandomValues(new Uint8Array(60000)) })
    .then(() => 'sent', (e) => [e.name, e.code, e.message]));
  const kept = await q.evaluate(() => raw.all('quota'));
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: server.urls[1] });
  assert.deepEqual(quota.slice(0, 2), ['OutboxError', 'quota']);
  assert.equal(kept.length, 1, 'the pending request is still stored');
  await until('the kept request delivered', () => q.evaluate(() => Object.values(results).some((r) => r.status === 200)), 8000);
  report(`quota 30000 B (usage ${usage} B), a 60 000-byte body`, quota);
  console.log('outbox: bad storage: quota: the request stored before is still there, and delivered');
  assert.equal(server.seen('/ob/quota-big').length, 0);

  // Damaged and foreign records beside a good one: each skipped and reported, the good one delivered.
  const d = await openPage(context, at('name=bad&drive=false'), errors);
  const good = await d.evaluate(() => sendLogged('/ob/good', { method: 'POST', body: 'good' }, { seed: 3 }));
  await d.evaluate(async (id) => {
    const [rec] = await raw.all('bad');
    delete rec.runHex;
    const sb = { ...(await import('/dist/index.js')), ...(await import('/dist/snapshot.js')) };
    const flipped = rec.run.slice();
    flipped[5] ^= 1;
    const put = (key, v) => raw.put('bad', key, v);
    await put('crc', { ...rec, id: 'crc', run: flipped });
    await put('v2', { ...rec, id: 'v2', v: 2 });
    await put('junk', 'garbage');
    await put('fields', { ...rec, id: 'fields', url: 42 });
    await put('policy', { ...rec, id: 'policy', run: sb.snapshot(new sb.Run(new sb.Policy({ initialMs: 500, maxBackoffMs: 4000 }), { seed: 1 })) });
    return id;
  }, good);
  const driver = await openPage(context, at('name=bad'), errors);
  await until('the good request delivered', () => server.seen('/ob/good').length >= 1, 5000);
  await until('five skips', () => driver.evaluate(() => events.filter((e) => e.t === 'skip').length >= 5), 5000);
  const skips = await driver.evaluate(() => events.filter((e) => e.t === 'skip').map((e) => `${e.id}: ${e.reason}`).sort());
  await until('the sender heard', () => d.evaluate((id) => results[id]?.status === 200, good), 5000);
  const left = await d.evaluate(() => raw.all('bad').then((rs) => rs.map((r) => r?.id ?? r).sort()));
  assert.deepEqual(left, ['crc', 'fields', 'garbage', 'policy', 'v2']);
  assert.equal(skips.length, 5);
  for (const s of skips) report('record skipped', s);
  console.log('outbox: bad storage: the good record beside them was delivered; the five are left as stored');
  await sleep(100);
}
