// `seeded-backoff/shared` (an ES module): one retry budget, pacer or send rate for a whole fleet,
// kept in Valkey or Redis through an iovalkey (or ioredis) client (SPEC.md §19).
import type { FailureKind } from './index.js';
import type { RetryBudget } from './budget.js';
import type { Pacer, PacedResponse, PacerSlot } from './pacer.js';
import type { SendRate, SendRateAnswer, SendRatePace } from './send-rate.js';

/** What a shared part needs of a client: iovalkey's (and ioredis's) `evalBuffer`. */
export interface StoreClient {
  evalBuffer(script: string, numKeys: number, ...args: (string | Uint8Array)[]): Promise<unknown>;
}

/** A shared part's options. */
export interface SharedOptions {
  /** The caller's clock in ms, read when a method is given no reading (default: the package's nowMs()). */
  clock?: () => number | bigint;
  /**
   * Decide on the store's TIME (default true); false: at the caller's readings as given (a test's
   * virtual clock, or a clock the whole fleet already shares).
   */
  storeClock?: boolean;
  /** The longest a decision waits for the store, all round trips included, 1..=60000 ms (default 50). */
  boundMs?: number;
}

/** Where a part's link to its store stands: joining (the next decision reads), joined, or local (deciding alone). */
export type LinkState = 'joining' | 'joined' | 'local';

/** Why a stored value could not be used (SPEC.md §19.2). */
export type StoreErrorCode = 'format' | 'kind' | 'config' | 'state';

/** What every shared part tells of its link. */
declare class SharedPart {
  /** Where the link to the store stands. */
  get linkState(): LinkState;
  /** Decisions made, those made alone (store down, slow, or another configuration's value), and conflicts met. */
  get stats(): { decisions: number; alone: number; conflicts: number };
  /** Why the last value read could not be used, or undefined. */
  get storeError(): StoreErrorCode | undefined;
  /** This process's copy of the state in the store's encoding (SPEC.md §19.2). */
  storedValue(): Uint8Array;
}

/**
 * A send rate (SPEC.md §17) shared by every process of a fleet through `key`: each ask and answer
 * is `sendRate`'s own, made on the store's state (SPEC.md §19); `sendRate` gives the configuration
 * and the cold start. retry() and fetchWithBackoff() take it as their `sendRate`.
 *
 * ```js
 * import Valkey from 'iovalkey';
 * import { retry } from 'seeded-backoff';
 * import { SendRate } from 'seeded-backoff/send-rate';
 * import { SharedSendRate } from 'seeded-backoff/shared';
 * const store = new Valkey({ host: 'valkey.internal', enableOfflineQueue: false, maxRetriesPerRequest: 0 });
 * const sendRate = new SharedSendRate(store, 'sb:send-rate:api.example.com', new SendRate());
 * await retry(() => fetch('https://api.example.com/'), { sendRate });
 * ```
 */
export class SharedSendRate extends SharedPart {
  constructor(client: StoreClient, key: string, sendRate: SendRate, options?: SharedOptions);
  /** SendRate.ask on the fleet's state. */
  ask(nowMs?: number | bigint): Promise<SendRatePace>;
  /** SendRate.answer on the fleet's state; `sentMs` is on the caller's clock. */
  answer(kind: SendRateAnswer, hintMs?: number, nowMs?: number | bigint, sentMs?: number | bigint): Promise<void>;
  /** Waits until an attempt may go: `{ kind: 'send' }`, or with failFast the first refusal. */
  waitTurn(options?: { signal?: AbortSignal }): Promise<SendRatePace>;
  /** The learnt rate in thousandths of a request per second, as this process last saw it. */
  get rateMilli(): number;
}

/**
 * A retry budget (SPEC.md §10) shared by a fleet through `key`: a token is spent once across the
 * fleet. retry() and fetchWithBackoff() take it as their `budget`.
 */
export class SharedBudget extends SharedPart {
  constructor(client: StoreClient, key: string, budget: RetryBudget, options?: SharedOptions);
  recordFailure(kind?: FailureKind): Promise<void>;
  tryAcquire(kind?: FailureKind): Promise<boolean>;
  recordSuccess(retriedKind?: FailureKind): Promise<void>;
  /** The tokens in thousandths, as this process last saw them. */
  get tokensMilli(): number;
  get tokens(): number;
}

/**
 * A server pacer (SPEC.md §16) shared by a service's replicas through `key`: one schedule, distinct
 * slots. Replicas give the same configuration; the seed of the one that publishes first is the
 * schedule's. pace(res, sharedPacer) answers a promise.
 */
export class SharedPacer extends SharedPart {
  constructor(client: StoreClient, key: string, pacer: Pacer, options?: SharedOptions);
  assign(nowMs?: number | bigint): Promise<PacerSlot>;
  pending(nowMs?: number | bigint): Promise<number>;
  /** Pacer.pace on the fleet's schedule. */
  pace(res: PacedResponse, nowMs?: number | bigint): Promise<PacerSlot | undefined>;
}

/** The compare-and-set script every binding runs on a part's key (SPEC.md §19.4), the core's text. */
export const CAS_SCRIPT: string;
/** The longest a decision waits for the store by default, in ms (SPEC.md §19.5). */
export const STORE_BOUND_MS: number;
