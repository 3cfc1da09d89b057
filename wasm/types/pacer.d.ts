// `seeded-backoff/pacer`: a server's pacer (SPEC.md §16): where each refused request is told to
// come back, so that a crowd of clients returns no faster than the server can serve (the pacer
// wasm part).
import type { Seed } from './index.js';
import type { SharedPacer } from './shared.js';

/** A {@link Pacer}'s configuration (SPEC.md §16.1). */
export interface PacerOptions {
  /** Requests a second the server serves: 1..=1000000. */
  capacityPerS: number;
  /** Thousandths of the capacity kept for first attempts in the first second of a schedule that starts empty (every later second is given whole to returns): 0..=999 (default 0). */
  reservePerMille?: number;
  /** The longest wait it tells, in seconds: 1..=86400 (default 60). */
  maxWaitS?: number;
  /** Makes the spread inside each second reproducible; omitted, a random one. */
  seed?: Seed;
}

/** The headers of a paced refusal (SPEC.md §16.4), lower-case names as node:http takes them. */
export interface PacerHeaders {
  /** `retryAfterS`, delta-seconds. */
  'retry-after': string;
  /** `resetMs` as seconds with three decimals (`"2.350"`). */
  'ratelimit-reset': string;
  /** `"pacer";r=0;t=<retryAfterS>`. */
  ratelimit: string;
}

/** Where a refused request is told to come back (SPEC.md §16.2). */
export interface PacerSlot {
  /** The Retry-After, whole seconds: 1..=maxWaitS. */
  retryAfterS: number;
  /** The return in ms from now, in the same second of the server's clock as now + retryAfterS · 1000. */
  resetMs: number;
  /** The schedule was full up to maxWaitS: this return is past its second's share (answer otherwise, if you like). */
  full: boolean;
  /** The three headers to send with the 429 or 503. */
  headers: PacerHeaders;
}

/**
 * A server's schedule of returns (SPEC.md §16): each request it turns away (429 or 503) gets its
 * own return, at most `capacityPerS` a second (`capacityPerS − capacityPerS · reservePerMille / 1000`
 * in the first second of a schedule that starts empty), so that a
 * refused fleet comes back at the server's capacity instead of all at once. One per server (or per
 * quota). Clock: the server's monotonic one in ms (`performance.now()` by default; a fraction is
 * dropped; an earlier reading than one already seen reads as that one). Bad configuration throws a
 * RangeError (a TypeError for a non-number) naming the field and its range, a bad `nowMs` one
 * naming `nowMs`; the pacer is then unchanged.
 * Server-side: its own wasm part (also `seeded-backoff/pacer`), which retry() never loads.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { Pacer } from 'seeded-backoff/pacer';
 * const pacer = new Pacer({ capacityPerS: 100, reservePerMille: 100 });
 * createServer((req, res) => {
 *   res.statusCode = 429;
 *   pacer.pace(res); // retry-after, ratelimit-reset, ratelimit
 *   res.end();
 * }).listen(8080);
 */
export class Pacer {
  constructor(options: PacerOptions);
  /** Assigns a request refused at `nowMs` its return. */
  assign(nowMs?: number | bigint): PacerSlot;
  /** The returns still scheduled after `nowMs`: a queue length to report, or to refuse first attempts on while it drains. */
  pending(nowMs?: number | bigint): number;
  /**
   * For a response whose `statusCode` is 429 or 503 (node:http's ServerResponse, Express's res):
   * assigns its return and sets the three headers. Throws, taking no return, if the headers are
   * already sent. Returns the slot, or undefined (nothing set) for another status.
   */
  pace(res: PacedResponse, nowMs?: number | bigint): PacerSlot | undefined;
}

/** What {@link Pacer.pace} needs of a response: node:http's ServerResponse and Express's res have it. */
export interface PacedResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
}

/** `pacer.pace(res, nowMs)`. */
export function pace(res: PacedResponse, pacer: Pacer, nowMs?: number | bigint): PacerSlot | undefined;
/** `pacer.pace(res, nowMs)` for a SharedPacer (seeded-backoff/shared): a promise. */
export function pace(res: PacedResponse, pacer: SharedPacer, nowMs?: number | bigint): Promise<PacerSlot | undefined>;
