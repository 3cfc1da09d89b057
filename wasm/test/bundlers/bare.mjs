// The time from retry() to its first request on a Chromium with no DevTools attached. Under
// DevTools (Playwright, CDP) every fetch() records its initiator's stack, which in a bundle that is
// one large function (esbuild's and webpack's default output) costs 5-25 ms of the fetch() call
// itself: a cost of the instrument, not of the page. Here the page reports its own Resource
// Timing (fetchStart of /api minus performance.now() read just before retry()) to the server.
// A fresh profile per page (a cold cache). Latency cannot be emulated without DevTools; it does not
// enter this figure, which is measured in the page once its scripts are there.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';

const REPORTER = `(function poll() {
  if (!globalThis.result) return setTimeout(poll, 20);
  const e = performance.getEntriesByType('resource').find((x) => new URL(x.name).pathname === '/api');
  if (!e) return setTimeout(poll, 20);
  fetch('/__report?' + (e.fetchStart - globalThis.t0));
})();`;

/** ms from retry() to the first /api request of `build`'s page, with `csp` if given. */
export async function bareFirst(build, args, csp) {
  const html = build.pages['/index.html'] ?? readFileSync(join(build.root, 'index.html'), 'utf8');
  const pages = { ...build.pages, '/index.html': `${html}<script src="/__reporter.js"></script>`, '/__reporter.js': REPORTER };
  const s = await serve({ root: build.root, pages, csp });
  const profile = mkdtempSync(join(tmpdir(), 'seeded-backoff-chromium-'));
  const proc = spawn(process.env.CHROMIUM ?? '/usr/bin/chromium', [...args, `--user-data-dir=${profile}`, `${s.url}/index.html`], { stdio: 'ignore' });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  let report;
  for (let i = 0; i < 300 && !(report = s.log.find((r) => r.path === '/__report')); i++) await new Promise((r) => setTimeout(r, 50));
  proc.kill();
  await exited;
  await s.close();
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch {
    // Chromium's helpers may still be writing: a profile left in the temporary folder is harmless.
  }
  return report ? Number(new URL(report.url, 'http://x').search.slice(1)) : NaN;
}
