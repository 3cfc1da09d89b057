// `seeded-backoff/send-rate`: an adaptive send rate (SPEC.md §17), one per process and server,
// that paces every attempt just under the rate the server accepts (the send-rate wasm part).
import type { FailureKind } from './index.js';

/**
 * A {@link SendRate}'s configuration (SPEC.md §17.1): every field optional, the core's defaults.
 * Rates are thousandths of a request per second.
 */
export interface SendRateOptions {
  /** The highest rate probing reaches: 1..=1000000000 (default 1000000000). */
  maxRateMilli?: number;
  /** The lowest rate a throttle brings it to: 1..=maxRateMilli (default 1: one request every 1000 s). */
  minRateMilli?: number;
  /** How far under the accepted rate measured over the last second a throttle sets the rate, in thousandths: 1..=500 (default 20). */
  marginPermille?: number;
  /** How often the rate grows without a throttle, ms: 10..=60000 (default 500). */
  probeMs?: number;
  /** The first growth after a throttle, in thousandths of the rate: 1..=probeMaxPermille (default 10); it doubles each probe. */
  probeFirstPermille?: number;
  /** The largest growth per probe, in thousandths: 1..=1000 (default 250). */
  probeMaxPermille?: number;
  /** Throttles within this many ms of a decrease do not decrease again: 0..=60000 (default 0). */
  guardMs?: number;
  /** Attempts that may go at once after an idle spell: 1..=1000 (default 2). */
  burst?: number;
  /** The longest a server's hint holds every attempt back, ms: 0..=3600000 (default 60000). */
  maxHoldMs?: number;
  /** Refuse an attempt that would have to wait instead of telling it to wait (a gateway answering 429 upstream); default false. */
  failFast?: boolean;
}

/** What {@link SendRate.ask} answers before an attempt. */
export interface SendRatePace {
  /** `'send'` now; `'wait'` ms, then ask again (nothing is reserved); `'refuse'` (failFast): do not send. */
  kind: 'send' | 'wait' | 'refuse';
  /** The wait in ms (for `'refuse'`, the wait sending would have taken); 0 for `'send'`. */
  ms: number;
}

/** A server's answer as a send rate reads it (SPEC.md §17.3). */
export type SendRateAnswer = 'accepted' | 'throttled' | 'no_answer';

/**
 * An adaptive send rate (SPEC.md §17): one per process and server, shared by every request to it.
 * It is off until the first throttle; then it sets the rate to what the server accepted over the
 * last second less a margin, spaces attempts evenly at it, holds every attempt while a server's
 * hint lasts, and probes upwards without throttles. Ask before every attempt (first attempts
 * included) and report every answer. One object may be shared by any number of concurrent
 * requests (JS runs each call whole). Clock: a monotonic one in ms (`nowMs()`, the package's, by
 * default; a fraction is dropped; an earlier reading than one already seen reads as that one). Bad
 * configuration throws a RangeError (a TypeError for a wrong type) naming the field and its range.
 * Its own wasm part (also `seeded-backoff/send-rate`).
 *
 * @example
 * import { SendRate } from 'seeded-backoff/send-rate';
 * const rate = new SendRate();
 * async function call(url) {
 *   await rate.waitTurn();
 *   const res = await fetch(url);
 *   rate.answer(res.status === 429 ? 'throttled' : 'accepted');
 *   return res;
 * }
 */
export class SendRate {
  constructor(options?: SendRateOptions);
  /** Before an attempt at `nowMs` (SPEC.md §17.4). */
  ask(nowMs?: number | bigint): SendRatePace;
  /**
   * Reports the answer to an attempt at `nowMs` (SPEC.md §17.5); `hintMs` is a throttle's
   * Retry-After or rate-limit reset in ms (0: none); `sentMs` when the attempt was sent (omitted:
   * at `nowMs`), so that a throttle of an attempt sent before the rate's last cut cuts it no more.
   */
  answer(kind: SendRateAnswer, hintMs?: number, nowMs?: number | bigint, sentMs?: number | bigint): void;
  /** Sleeps until {@link SendRate.ask} says send (resolves `{ kind: 'send', ms: 0 }`), or with failFast resolves the first refusal; rejects with the signal's reason on abort. */
  waitTurn(options?: { signal?: AbortSignal }): Promise<SendRatePace>;
  /** The learnt rate in thousandths of a request per second; 0 while off (no throttle yet). */
  readonly rateMilli: number;
}
