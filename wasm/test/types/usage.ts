// Compiled with tsc --noEmit --strict against the built package's .d.ts (scripts/test.d/20-wasm.sh):
// the documented usage type-checks, and misuse does not (the @ts-expect-error lines: each fails the
// compile if the line it marks type-checks).
import {
  Backoff,
  type BackoffOptions,
  type FetchOptions,
  fetchWithBackoff,
  type GiveUpReason,
  Policy,
  type PolicyOptions,
  retry,
  RetryError,
  type RetryOptions,
} from 'seeded-backoff';
import { RetryBudget } from 'seeded-backoff/budget';
import {
  type Classification,
  classifyGrpc,
  classifyHttp,
  isRetryableHttp,
  parseRetryAfter,
} from 'seeded-backoff/retry-after';
import { restore, snapshot, type SnapshotErrorCode } from 'seeded-backoff/snapshot';

const options: PolicyOptions = { preset: 'google', maxRetries: 5, jitter: 'full' };
const policy = new Policy(options);
// A Policy as the options: the same policy (of either module format).
const copy: Policy = new Policy(policy);
const b = new Backoff(policy, 42n);
const sugar = new Backoff({ ...options, seed: 42 } satisfies BackoffOptions);
const random = new Backoff(policy);
const seed: bigint | null = random.seed;
const same: Policy = b.policy;
const d: number | null = b.nextDelay();
const h: number | null = b.nextDelayWithHint(5000);
const stepped: number | null = b.nextDelay({ retryAfterMs: 100, elapsedMs: 5n, failureKind: 'timeout' });
const reason: GiveUpReason | null = b.giveUpReason;
const counts: number = b.retries + b.elapsedMs;
const bytes: Uint8Array = snapshot(b);
const again: Backoff = restore(policy, bytes);
const fromOptions: Backoff = restore(options, bytes);
for (const ms of again) console.log(ms.toFixed(0));
b.reset();

const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
const aws = new RetryBudget({ capacity: 100, retryCost: 5 });
aws.recordFailure('timeout');
const allowed: boolean = aws.tryAcquire();
budget.recordSuccess('error');
const n: number = budget.tokens + budget.tokensMilli;
const ms: number = parseRetryAfter('120', Date.now());
const fromBytes: number = parseRetryAfter(new TextEncoder().encode('120'));
const classes: Classification[] = [classifyHttp(503), classifyGrpc(14)];
const retryable: boolean = isRetryableHttp(429);
const code: SnapshotErrorCode = 'policy_mismatch';

async function main(): Promise<void> {
  const controller = new AbortController();
  const value: string = await retry(async ({ attempt, signal }) => `${attempt} ${signal?.aborted}`, {
    preset: 'aws_standard',
    signal: controller.signal,
    budget,
    seed: 7n,
    onRetry: ({ delayMs }) => console.log(delayMs),
    shouldRetry: async (e) => !(e instanceof SyntaxError),
  });
  const shared: number = await retry(() => 1, { policy, onRetry: ({ attempt }) => console.log(attempt) });
  const res: Response = await fetchWithBackoff('/api', { method: 'GET' }, { maxRetries: 3 });
  const viaPolicy: Response = await fetchWithBackoff(new URL('https://example.com'), undefined, { policy });
  const paged: Response = await fetchWithBackoff(new Request('/api', { method: 'POST' }), undefined, {
    retryMethods: ['GET', 'POST'], attemptTimeoutMs: 5000, offline: 'wait', whenHidden: 'continue', countPausedTime: true,
  } satisfies FetchOptions);
  await retry(() => 1, { policy, offline: 'ignore', whenHidden: 'pause', attemptTimeoutMs: 100 });
  // @ts-expect-error offline is 'wait' or 'ignore'
  await retry(() => 1, { offline: 'pause' });
  // @ts-expect-error whenHidden is 'pause' or 'continue'
  await retry(() => 1, { whenHidden: true });
  // @ts-expect-error attemptTimeoutMs is a number of ms
  await retry(() => 1, { attemptTimeoutMs: '5s' });
  // @ts-expect-error retryMethods is for fetchWithBackoff only
  await retry(() => 1, { retryMethods: ['POST'] });
  // @ts-expect-error retryMethods is an array of names
  await fetchWithBackoff('/api', undefined, { retryMethods: 'POST' });
  console.log(paged.status);
  const retryOptions: RetryOptions = { policy, seed: 1 };
  try {
    await retry(() => Promise.reject(new Error('x')), retryOptions);
  } catch (e) {
    if (e instanceof RetryError) console.log(e.attempts, e.reason satisfies GiveUpReason, e.cause);
  }
  console.log(value, shared, res.status, viaPolicy.status);
}
void main;
console.log(seed, same, d, h, stepped, reason, counts, fromOptions, allowed, n, ms, fromBytes, classes, retryable, code);

// @ts-expect-error unknown jitter name
new Policy({ jitter: 'fulll' });
// @ts-expect-error misspelled option
new Policy({ maxRetry: 3 });
// @ts-expect-error a string is not a number
new Backoff({ initialMs: '1000' });
// @ts-expect-error a seed is not a Policy option
new Policy({ seed: 1 });
// @ts-expect-error the seed goes in the options when there is no Policy
new Backoff({ preset: 'google' }, 42);
// @ts-expect-error the seed is a number or a bigint
new Backoff(policy, '42');
// @ts-expect-error grpc budgets need maxTokens and tokenRatio
new RetryBudget({ mode: 'grpc' });
// @ts-expect-error a policy and policy options do not mix
void retry(() => 1, { policy, maxRetries: 3 });
// @ts-expect-error restore takes bytes from snapshot()
restore(policy, [1, 2, 3]);
// @ts-expect-error snapshot is a function now, not a method
b.snapshot();
// @ts-expect-error Backoff.restore is now restore()
Backoff.restore(options, bytes);
// @ts-expect-error seed is read-only
b.seed = 1n;
// @ts-expect-error failureKind is 'error' or 'timeout'
b.nextDelay({ failureKind: 'slow' });

// The sub-entries give the same types as the main entry.
import { RetryBudget as SubBudget } from 'seeded-backoff/budget';
import { seedFromDevice, startupDelay } from 'seeded-backoff/fleet';
import { parseRateLimit as subRateLimit, parseRetryAfter as subParse, type RateLimitErrorCode } from 'seeded-backoff/retry-after';
import { restore as subRestore, snapshot as subSnapshot } from 'seeded-backoff/snapshot';

const fleetSeed: bigint = seedFromDevice(new Uint8Array([1, 2, 3]), 7);
const firstWait: number = startupDelay(fleetSeed, 60_000);
const fromSub: Backoff = subRestore(policy, subSnapshot(b));
const subMs: number = subParse('120');
const resetMs: number = subRateLimit('RateLimit', '"default";r=0;t=30', Date.now());
const limited: number | null = b.nextDelay({ rateLimitMs: resetMs, elapsedMs: 5n });
const rlCode: RateLimitErrorCode = 'invalid_format';
// @ts-expect-error a value is a string or bytes
subRateLimit('x-ratelimit-reset', 30);
// @ts-expect-error bad_day is a Retry-After error only
const notRlCode: RateLimitErrorCode = 'bad_day';
const subBudget: SubBudget = new SubBudget();
// @ts-expect-error: the boot counter is a number
seedFromDevice('kiosk', 7n);
void [firstWait, fromSub, subMs, subBudget];

// hintFromHeaders: a fetch Headers, a get(name) object or a plain object of values; the result
// spreads into nextDelay.
import { type HeaderHint, hintFromHeaders } from 'seeded-backoff';

async function ownLoop(res: Response): Promise<number | null> {
  const hint: HeaderHint = await hintFromHeaders(res.status, res.headers);
  await hintFromHeaders(429, { 'x-ratelimit-reset': '2', 'set-cookie': ['a', 'b'] }, Date.now());
  await hintFromHeaders(503, new Map([['retry-after', '5']]));
  // @ts-expect-error headers are an object, not a string
  await hintFromHeaders(503, 'retry-after: 5');
  return b.nextDelay({ ...hint, elapsedMs: 10 });
}
void ownLoop;

// The run: a loop of one's own over the core's state machine (SPEC.md §15).
import { type RunAction, Run } from 'seeded-backoff';

async function runLoop(): Promise<RunAction> {
  const run = new Run(new Policy({ maxRetries: 3 }), { seed: 42n, budget: new RetryBudget() });
  let a: RunAction = run.start(0);
  if (a.type === 'attempt') {
    const res = await fetch('/api');
    a = run.outcome(res.ok ? 'success' : await hintFromHeaders(res.status, res.headers), 5);
  }
  if (a.type === 'retry') {
    const ms: number = a.delayMs;
    void ms;
    a = run.wake();
  }
  if (a.type === 'give_up') {
    const why: GiveUpReason | null = a.reason;
    void why;
  }
  // @ts-expect-error a pause is 'hidden' or 'offline'
  run.pause('asleep');
  // @ts-expect-error a budget is a RetryBudget or an object with its methods
  new Run(new Policy(), { budget: {} });
  return a;
}
void runLoop;

// Retry options belong in fetchWithBackoff's third argument, not in fetch's init.
// @ts-expect-error maxRetries in the init slot
void fetchWithBackoff('/api', { maxRetries: 0 });
void fetchWithBackoff('/api', { method: 'GET', signal: AbortSignal.timeout(1000) }, { maxRetries: 0 });

// The README's general form, typed: the result is what fn returns, never `any` once json() is typed.
interface Item { id: number }
async function typedResult(): Promise<Item[] | Response> {
  const data = await retry(async ({ signal }) => {
    const r = await fetch('https://example.com/api/items', { signal });
    return r.ok ? ((await r.json()) as Item[]) : r;
  }, { preset: 'aws_standard' });
  const check: Item[] | Response = data;
  // @ts-expect-error the result is not any: it may be a Response
  const items: Item[] = data;
  void items;
  return check;
}
void typedResult;

// The server pacer: its slot, its headers, pace() on any response with statusCode and setHeader.
import { pace, Pacer as SubPacer, type PacerSlot } from 'seeded-backoff/pacer';
import { Pacer } from 'seeded-backoff/pacer';
const pacer = new Pacer({ capacityPerS: 100, reservePerMille: 100, maxWaitS: 30, seed: 7n });
const slot: PacerSlot = pacer.assign(performance.now());
const retryAfter: string = slot.headers['retry-after'];
const queued: number = pacer.pending();
const paced: PacerSlot | undefined = pace({ statusCode: 429, setHeader: () => undefined }, new SubPacer({ capacityPerS: 5 }));
void [retryAfter, queued, paced, pacer.pace({ statusCode: 503, setHeader() {} }, 5n)];
// @ts-expect-error capacityPerS is required
new Pacer({ maxWaitS: 10 });
// @ts-expect-error a header the pacer does not send
slot.headers['x-ratelimit-reset'];

// The send rate: its paces, its answers, waitTurn's signal.
import { SendRate as SubSendRate, type SendRatePace } from 'seeded-backoff/send-rate';
import { SendRate } from 'seeded-backoff/send-rate';
const sendRate = new SendRate({ burst: 5, marginPermille: 30, failFast: false });
const paceNow: SendRatePace = sendRate.ask(performance.now());
const waited: Promise<SendRatePace> = new SubSendRate().waitTurn({ signal: AbortSignal.timeout(1000) });
sendRate.answer('throttled', 1000, 5n);
sendRate.answer('accepted');
const learntRate: number = sendRate.rateMilli;
void [paceNow.kind === 'refuse' ? paceNow.ms : 0, waited, learntRate];
// @ts-expect-error an answer the send rate does not read
sendRate.answer('refused');
// @ts-expect-error failFast is a boolean
new SendRate({ failFast: 1 });

// seeded-backoff/shared: the fleet's parts over a client with evalBuffer, taken by retry() and pace().
import { SharedBudget, SharedPacer, SharedSendRate, CAS_SCRIPT } from 'seeded-backoff/shared';
declare const storeClient: { evalBuffer(script: string, numKeys: number, ...args: (string | Uint8Array)[]): Promise<unknown> };
const fleetRate = new SharedSendRate(storeClient, 'sb:send-rate:api', new SendRate(), { boundMs: 50 });
const fleetBudget = new SharedBudget(storeClient, 'sb:budget:api', new RetryBudget({ mode: 'aws_quota' }));
const fleetPacer = new SharedPacer(storeClient, 'sb:pacer:api', new Pacer({ capacityPerS: 100 }));
export const fleetCall: Promise<string> = retry(async () => 'ok', { sendRate: fleetRate, budget: fleetBudget });
export const fleetPace: Promise<{ retryAfterS: number } | undefined> = pace({ statusCode: 429, setHeader: () => undefined }, fleetPacer);
export const fleetScript: string = CAS_SCRIPT;
export const fleetState: 'joining' | 'joined' | 'local' = fleetRate.linkState;
