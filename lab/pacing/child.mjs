// What the pacing tests' drivers (pacing.mjs, fleet.mjs) share: running a child process, and
// reading the server's log.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Runs `cmd` and resolves with its stdout; rejects on a non-zero exit or after `limitS`. `onLine`
 * sees each line of stdout with the child (whose stdin is a pipe).
 */
export function run(cmd, args, extraEnv, limitS, onLine) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (onLine) for (const line of String(d).split('\n')) if (line) onLine(line, child);
    });
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')}: exit ${code ?? signal}\n${err.slice(-2000)}`));
    });
  });
}

/**
 * The server's log (lab/pacing's server: `ms status path`, one line per request in arrival order,
 * ms on its clock, the client's id last in the path) as seconds and calls: `perSecond` is
 * `[served, refused]` in each second, `calls` each client's requests, `requests` all of them.
 * `onRequest(id, ms)` sees every request.
 */
export function readServerLog(logPath, onRequest) {
  const served = [];
  const refused = [];
  const calls = new Map();
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    if (!line) continue;
    const [ms, status, path] = line.split(' ');
    const s = Math.floor(Number(ms) / 1000);
    const into = status === '200' ? served : refused;
    into[s] = (into[s] ?? 0) + 1;
    const id = Number(path.split('/').pop());
    calls.set(id, (calls.get(id) ?? 0) + 1);
    if (onRequest) onRequest(id, Number(ms));
  }
  const seconds = Math.max(served.length, refused.length);
  const perSecond = Array.from({ length: seconds }, (_, s) => [served[s] ?? 0, refused[s] ?? 0]);
  const requests = [...calls.values()].reduce((a, b) => a + b, 0);
  return { perSecond, calls, requests };
}
