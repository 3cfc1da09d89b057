// The server of the outbox tests, on 127.0.0.1 (ephemeral ports): it logs every request to /ob/
// with its arrival time, method and Idempotency-Key, fails each path as told, and applies a
// request once per Idempotency-Key (a repeat of a key already applied gets the stored answer
// and is not applied again). Static files as the other browser tests serve them, with CORS so
// that an opaque-origin frame can import the package.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server.mjs';
import { serveFile } from './chromium.mjs';

const model = fileURLToPath(new URL('../../../tests/model/outbox_expect.py', import.meta.url));

/**
 * The independent model's answer to `query` (see tests/model/outbox_expect.py). Asynchronous: the
 * server runs in this process, and must log requests at their time while the model runs.
 */
export const expect = (query) => new Promise((resolve, reject) => {
  const child = execFile('python3', [model], (err, out) => (err ? reject(err) : resolve(JSON.parse(out))));
  child.stdin.end(JSON.stringify(query));
});

export async function outboxServer(ports = 1) {
  const log = [];
  const failures = new Map(); // path -> how many more requests fail (Infinity: all)
  const applied = new Map(); // Idempotency-Key -> times applied
  const holds = new Map(); // path -> ms the first success is held before its answer
  const handler = (req, res, path) => {
    if (!path.startsWith('/ob/')) {
      const setHeader = res.setHeader.bind(res);
      setHeader('access-control-allow-origin', '*');
      if (path.endsWith('-sw.js')) setHeader('service-worker-allowed', '/');
      return serveFile(req, res, path);
    }
    const key = req.headers['idempotency-key'] ?? null;
    const entry = { t: Date.now(), method: req.method, path, key, port: req.socket.localPort, status: 0 };
    log.push(entry);
    req.resume();
    req.on('end', () => {
      const left = failures.get(path) ?? 0;
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
      if (req.method === 'OPTIONS') {
        entry.status = 204;
        res.writeHead(204, cors).end();
      } else if (left > 0) {
        failures.set(path, left - 1);
        entry.status = 503;
        res.writeHead(503, cors).end('down');
      } else {
        const n = key === null ? 0 : (applied.get(key) ?? 0);
        if (key !== null) applied.set(key, n || 1);
        entry.status = 200;
        entry.replayed = n > 0;
        // A held answer: applied now, answered later (a driver may close meanwhile).
        const answer = () => res.writeHead(200, { ...cors, 'content-type': 'text/plain' }).end(n > 0 ? 'already applied' : 'applied');
        if (n === 0 && holds.has(path)) setTimeout(answer, holds.get(path));
        else answer();
      }
    });
    return true;
  };
  const servers = [];
  for (let i = 0; i < ports; i++) servers.push(await startServer({}, handler));
  return {
    url: servers[0].url,
    urls: servers.map((s) => s.url),
    log,
    /** Requests to `path` (not preflights), in arrival order. */
    seen: (path) => log.filter((e) => e.path === path && e.method !== 'OPTIONS'),
    fail: (path, n) => failures.set(path, n),
    hold: (path, ms) => holds.set(path, ms),
    applied: (key) => applied.get(key) ?? 0,
    close: () => Promise.all(servers.map((s) => s.close())),
  };
}
