// A local HTTP server for the retry tests: each path answers a scripted sequence of statuses.
import { createServer } from 'node:http';

/**
 * Starts a server on 127.0.0.1. `routes` maps a path to a list of [status, headers] answered in
 * turn (the last one repeats). Returns { url, hits(path), close() }.
 */
export async function startServer(routes, extra = () => false) {
  const counts = new Map();
  const times = new Map();
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (extra(req, res, path)) return;
    const script = routes[path];
    if (!script) {
      res.writeHead(404).end();
      return;
    }
    const n = counts.get(path) ?? 0;
    counts.set(path, n + 1);
    times.set(path, [...(times.get(path) ?? []), performance.now()]);
    const [status, headers = {}] = script[Math.min(n, script.length - 1)];
    res.writeHead(status, { 'content-type': 'text/plain', 'access-control-allow-origin': '*', ...headers });
    res.end(`${status} #${n + 1}`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (path) => counts.get(path) ?? 0,
    times: (path) => times.get(path) ?? [],
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The flaky script of the issue: 503, 503 with Retry-After: 1, then 200. */
export const FLAKY = [[503], [503, { 'retry-after': '1' }], [200]];
