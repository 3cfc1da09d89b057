// The server of one page visit, on 127.0.0.1 (an ephemeral port): the tool's output folder, the
// page, /api (answering a script of statuses in turn) and, for the replay page only, the vector
// files. Every request is logged with its status and body, so that the test can say what the
// browser fetched, and that nothing else (no 404, no .wasm) was asked for.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const vectorsDir = join(new URL('.', import.meta.url).pathname, '..', '..', '..', 'tests', 'vectors');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json' };

/**
 * `root`: the folder served; `pages`: path -> HTML; `api`: [status, headers] answered in turn (the
 * last repeats; a header value may be a function, called as the response is sent); `csp`: a Content-Security-Policy sent with every response; `vectors`: serve them.
 */
export async function serve({ root, pages = {}, api = [[200]], csp, vectors = false }) {
  const log = [];
  let apiHits = 0;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const reply = (status, body = '', headers = {}) => {
      const bytes = Buffer.from(body);
      log.push({ path, url: req.url, status, bytes: bytes.length, gz: gzipSync(bytes, { level: 9 }).length });
      res.writeHead(status, { 'cache-control': 'no-store', ...(csp ? { 'content-security-policy': csp } : {}), ...headers }).end(bytes);
    };
    if (path === '/api') {
      const [status, headers = {}] = api[Math.min(apiHits++, api.length - 1)];
      // A header given as a function is computed as the response is sent (an HTTP-date from now).
      const values = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, typeof v === 'function' ? v() : v]));
      return reply(status, `${status} #${apiHits}`, { 'content-type': 'text/plain', ...values });
    }
    if (vectors && path === '/vectors/') {
      const names = [...readdirSync(vectorsDir), ...readdirSync(join(vectorsDir, 'startup')).map((n) => `startup/${n}`)];
      return reply(200, JSON.stringify(names.filter((n) => n.endsWith('.json')).sort()));
    }
    let body = pages[path];
    if (body === undefined) {
      const file = vectors && path.startsWith('/vectors/') ? join(vectorsDir, normalize(path.slice(9))) : join(root, normalize(path));
      try {
        body = readFileSync(file);
      } catch {
        return reply(404);
      }
    }
    return reply(200, body, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
