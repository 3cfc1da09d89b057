// `seeded-backoff/outbox`: requests that outlive the page. A browser entry point (IndexedDB,
// BroadcastChannel, Web Locks; a service worker for delivery with the page closed).

import type { GiveUpReason, Policy, PolicyOptions, Seed } from './index.js';
import type { AwsQuotaBudgetOptions, GrpcBudgetOptions, RetryBudget } from './budget.js';
import type { SendRate } from './send-rate.js';

/** What went wrong, as `OutboxError.code`. */
export type OutboxErrorCode =
  /** IndexedDB is missing or refused here (a private mode, an opaque origin). */
  | 'unavailable'
  /** The browser refused the write: the origin's storage quota is full. */
  | 'quota'
  /** The database belongs to a newer version of the outbox. */
  | 'version'
  /** Another IndexedDB failure. */
  | 'storage'
  /** `maxEntries` or `maxBytes` would be exceeded. */
  | 'limit'
  /** The request's run gave up: `reason` says why (the core's give-up reason). */
  | 'gave-up'
  /** The outbox was closed. */
  | 'closed';

export class OutboxError extends Error {
  readonly name: 'OutboxError';
  readonly code: OutboxErrorCode;
  /** With 'gave-up': the run's give-up reason, or undefined for an answer not worth a retry. */
  readonly reason?: GiveUpReason | null;
  /** With 'gave-up': the last attempt's HTTP status, if it had one. */
  readonly status?: number;
}

export interface OutboxOptions {
  /** The outbox's name (its database and its driver election); default 'default'. */
  name?: string;
  /**
   * The schedule of every request (a Policy, or its options); default the Policy's defaults. Its
   * `maxElapsedMs` bounds a request's age: the outbox's runs count time offline and time with no
   * page open, so a request older than it gives up with reason `'deadline'` (SPEC.md §15.4).
   */
  policy?: Policy | PolicyOptions;
  /** A budget every retry draws from (a SharedRetryBudget to share it with other tabs). */
  budget?: RetryBudget;
  /**
   * A send rate that paces the deliveries of the context driving (SPEC.md §17): every delivery
   * attempt, the first included, asks it (a wait moves the attempt, spending no retry), and each
   * response's status is told to it as the core reads it (a 429, or a 503 with a hint, is a
   * throttle). A fail-fast refusal ends the request: an OutboxError `'gave-up'` with `reason`
   * `'throttled'`. The rate is the driving context's own (it is not shared between tabs). Any
   * other value makes every send reject with a TypeError naming `sendRate`.
   *
   * @example
   * ```js
   * const outbox = new Outbox({ policy: { preset: 'google' }, sendRate: new SendRate() });
   * ```
   */
  sendRate?: SendRate;
  /** Most requests pending at once (default 100). */
  maxEntries?: number;
  /** Most bytes (URL, headers, bodies) pending at once (default 5 000 000). */
  maxBytes?: number;
  /** Whether this context may become the origin's driver (default true). */
  drive?: boolean;
}

/** An outcome for a request this page did not send (another tab's, or an earlier page load's). */
export interface OutboxOutcomeEvent extends Event {
  readonly id: string;
  readonly response?: Response;
  readonly error?: OutboxError;
}

/** A stored record this outbox cannot use (corrupt, another format, another policy): left as it is. */
export interface OutboxSkipEvent extends Event {
  readonly id: string;
  readonly reason: string;
}

/**
 * A durable outbox. `send()` stores the request with its seeded schedule in IndexedDB; one
 * driver per origin (a tab, or the service worker) delivers it, and after a reload continues the
 * same schedule at the stored time. A non-idempotent request without an Idempotency-Key gets one.
 *
 * @example
 * import { Outbox } from 'seeded-backoff/outbox';
 * const outbox = new Outbox({ policy: { preset: 'google', maxRetries: 10 } });
 * outbox.addEventListener('outcome', (e) => console.log('delivered earlier request', e.id));
 * const res = await outbox.send('/api/orders', { method: 'POST', body: JSON.stringify({ sku: 1 }) });
 */
export class Outbox extends EventTarget {
  constructor(options?: OutboxOptions);
  readonly name: string;
  /** Whether this context drives the origin's outbox now. */
  readonly driving: boolean;
  /** Stores the request; settles with its outcome (a Response, including 4xx; an OutboxError when it gives up). */
  send(input: RequestInfo | URL, init?: RequestInit, options?: { seed?: Seed }): Promise<Response>;
  /** Stores the request; resolves once stored, with `done` for its outcome. */
  queue(input: RequestInfo | URL, init?: RequestInit, options?: { seed?: Seed }): Promise<{ id: string; done: Promise<Response> }>;
  /** The pending requests. */
  pending(): Promise<{ id: string; method: string; url: string; attempts: number; due: number }[]>;
  /** Resolves with true once nothing is pending, with false after `maxMs`. */
  idle(maxMs?: number): Promise<boolean>;
  /** Stops this context's part; pending requests stay stored. */
  close(): void;
  addEventListener(type: 'outcome', listener: (e: OutboxOutcomeEvent) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'skip', listener: (e: OutboxSkipEvent) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'drive' | 'error', listener: (e: Event) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}

/**
 * A RetryBudget that the tabs and workers of an origin share by name: ten tabs retrying one
 * failing API spend one budget. Pass it as `budget` to retry(), fetchWithBackoff() or an Outbox.
 * Tabs must give the same options (a budget stored with other options starts again full).
 */
export class SharedRetryBudget extends RetryBudget {
  constructor(name: string, options?: AwsQuotaBudgetOptions | GrpcBudgetOptions);
  /** Stops listening to the other tabs. */
  close(): void;
}

/** In a service worker script (top level): runs an Outbox there, woken by Background Sync and by pages. */
export function serveOutbox(options?: Omit<OutboxOptions, 'drive'>): Outbox;
