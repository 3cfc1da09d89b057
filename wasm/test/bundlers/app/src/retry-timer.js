// retry.js with two clock readings, for the lab: when the first failure (a 503) reached the page,
// and when retry() decided its retry (onRetry, just before the timer is set). On a cold page the
// engine is compiled while the first attempt is in flight, so the second follows the first within
// the time of a run's event, not of a compile.
import { retry } from 'seeded-backoff';

retry(async () => {
  const r = await fetch('/api');
  globalThis.answeredAt ??= performance.now();
  return r;
}, { onRetry: () => { globalThis.retryAt ??= performance.now(); } }).then(
  (r) => { globalThis.result = { status: r.status, timerMs: globalThis.retryAt - globalThis.answeredAt }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
