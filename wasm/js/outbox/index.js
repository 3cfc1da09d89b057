// seeded-backoff/outbox: requests that outlive the page (a durable outbox with the package's
// seeded schedules), one driver per origin, a retry budget the tabs share, and the same outbox
// in a service worker. Built only on the package's public API (../index.js).
export { OutboxError } from './error.js';
export { Outbox } from './outbox.js';
export { SharedRetryBudget } from './shared-budget.js';
export { serveOutbox } from './worker.js';
