// A stand-in of the Memorystore v1 REST API on 127.0.0.1 (an ephemeral port): GET
// /v1/projects/*/locations/*/instances/* answers a script of [status, headers] in order, then its
// last one again; errors are Google's JSON error body, a 200 an Instance. Requests' paths are kept,
// and their arrival times (performance.now()).
import { createServer } from 'node:http';

const INSTANCE = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/instances\/[^/?]+(\?.*)?$/;
const STATUS = { 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE', 404: 'NOT_FOUND' };

export async function memorystore(script) {
  const paths = [];
  const times = [];
  const server = createServer((req, res) => {
    let status;
    let headers = {};
    let body;
    if (req.method !== 'GET' || !INSTANCE.test(req.url)) {
      status = 404;
      body = { error: { code: 404, message: 'no such path', status: 'NOT_FOUND' } };
    } else {
      [status, headers] = script[Math.min(paths.length, script.length - 1)];
      paths.push(req.url);
      times.push(performance.now());
      body = status === 200
        ? { name: req.url.split('?')[0].slice('/v1/'.length), state: 'ACTIVE', shardCount: 1 }
        : { error: { code: status, message: `scripted ${status}`, status: STATUS[status] } };
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    paths,
    times,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}
