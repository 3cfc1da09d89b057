// retry() honours a Retry-After in each of RFC 9110's three HTTP-date forms: the first such value
// loads the date part (a separate wasm file), and the wait it gives is the date's distance.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cjs as cjsAll, esm } from './api.mjs';
import { startServer } from './server.mjs';

const cjs = cjsAll;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n) => String(n).padStart(2, '0');
const time = (d) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
// Written out from RFC 9110 §5.6.7, not with the package.
const FORMS = {
  imf: (d) => d.toUTCString(),
  rfc850: (d) =>
    `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${two(d.getUTCFullYear() % 100)} ${time(d)} GMT`,
  asctime: (d) =>
    `${DAYS[d.getUTCDay()].slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${time(d)} ${d.getUTCFullYear()}`,
};

let server;
const hits = new Map();
before(async () => {
  // /date/<form>: a 503 whose Retry-After is that form of "2 s from now", then 200.
  server = await startServer({}, (req, res, path) => {
    const form = path.startsWith('/date/') && FORMS[path.slice(6)];
    if (!form) return false;
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    if (n === 0) {
      res.writeHead(503, { 'retry-after': form(new Date(Date.now() + 2000)) }).end();
    } else {
      res.writeHead(200).end('ok');
    }
    return true;
  });
});
after(() => server.close());

for (const [how, api] of [['import', esm], ['require', cjs]]) {
  for (const form of Object.keys(FORMS)) {
    test(`${how}: a ${form} Retry-After sets the wait to the date's distance`, async () => {
      const path = `/date/${form}`;
      hits.delete(path);
      const delays = [];
      const res = await api.fetchWithBackoff(`${server.url}${path}`, undefined, {
        initialMs: 1,
        jitter: 'none',
        maxHintMs: 10_000,
        onRetry: ({ delayMs }) => delays.push(delayMs),
      });
      assert.equal(res.status, 200);
      assert.equal(delays.length, 1);
      // "2 s from now" in whole seconds, read back a moment later: 1 to 2 s, never the 1 ms base.
      assert.ok(delays[0] >= 1000 && delays[0] <= 2000, `waited ${delays[0]} ms`);
    });
  }
}
