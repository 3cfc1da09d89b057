// Node, CommonJS: node-esm.mjs through require().
const { fetchWithBackoff, retry } = require('seeded-backoff');

(async () => {
  let calls = 0;
  const pending = retry(() => { calls++; return fetch(process.env.API); });
  const sameTick = calls;
  const r = await pending;
  const f = await fetchWithBackoff(process.env.API);
  console.log(JSON.stringify({ sameTick, retry: [r.status, await r.text()], fetch: [f.status, await f.text()] }));
})();
