// Every export of the package's entry points as one object, once as imported (ESM) and once as
// required (CommonJS): the tests reach each name where a user would import it, and the entries'
// own tests (names.test.mjs, dual-package.test.mjs) check which entry holds which name.
import { createRequire } from 'node:module';
import * as budget from 'seeded-backoff/budget';
import * as fleet from 'seeded-backoff/fleet';
import * as index from 'seeded-backoff';
import * as pacer from 'seeded-backoff/pacer';
import * as retry from 'seeded-backoff/retry';
import * as retryAfter from 'seeded-backoff/retry-after';
import * as sendRate from 'seeded-backoff/send-rate';
import * as snapshot from 'seeded-backoff/snapshot';

/** The entry points with both an ESM and a CommonJS build. */
export const ENTRIES = ['seeded-backoff', 'seeded-backoff/retry', 'seeded-backoff/retry-after', 'seeded-backoff/snapshot',
  'seeded-backoff/budget', 'seeded-backoff/fleet', 'seeded-backoff/pacer', 'seeded-backoff/send-rate'];

export const esm = Object.freeze({ ...index, ...retry, ...retryAfter, ...snapshot, ...budget, ...fleet, ...pacer, ...sendRate });

const require = createRequire(import.meta.url);
export const cjs = Object.freeze(Object.assign({}, ...ENTRIES.map((e) => require(e))));
