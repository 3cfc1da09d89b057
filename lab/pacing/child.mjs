// What the pacing tests' drivers (pacing.mjs, fleet.mjs) share: running a child process.
import { spawn } from 'node:child_process';

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
