// Compiled with tsc --noEmit --strict against the built package's .d.ts (scripts/test.d/20-wasm.sh):
// the documented usage type-checks, and misuse does not (the @ts-expect-error lines).
import {
  Backoff,
  type BackoffOptions,
  fetchWithBackoff,
  parseRetryAfter,
  retry,
  RetryBudget,
  RetryError,
  type GiveUpReason,
} from 'seeded-backoff';

const options: BackoffOptions = { preset: 'google', maxRetries: 5, seed: 42n, jitter: 'full' };
const b = new Backoff(options);
const d: number | null = b.nextDelay();
const h: number | null = b.nextDelayWithHint(5000);
const reason: GiveUpReason | null = b.giveUpReason;
const bytes: Uint8Array = b.snapshot();
const again: Backoff = Backoff.restore(options, bytes);
for (const ms of again) console.log(ms.toFixed(0));
b.free();

const budget = new RetryBudget({ mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
const n: number = budget.tokens;
const ms: number = parseRetryAfter('120', Date.now());

async function main(): Promise<void> {
  const controller = new AbortController();
  const value: string = await retry(async ({ attempt, signal }) => `${attempt} ${signal?.aborted}`, {
    preset: 'aws_standard',
    signal: controller.signal,
    budget,
    onRetry: ({ delayMs }) => console.log(delayMs),
    shouldRetry: async (e) => !(e instanceof SyntaxError),
  });
  const res: Response = await fetchWithBackoff('/api', { method: 'GET' }, { maxRetries: 3 });
  try {
    await retry(() => Promise.reject(new Error('x')));
  } catch (e) {
    if (e instanceof RetryError) console.log(e.attempts, e.reason satisfies GiveUpReason, e.cause);
  }
  console.log(value, res.status, d, h, reason, n, ms);
}
void main;

// @ts-expect-error unknown jitter name
new Backoff({ jitter: 'fulll' });
// @ts-expect-error misspelled option
new Backoff({ maxRetry: 3 });
// @ts-expect-error a string is not a number
new Backoff({ initialMs: '1000' });
// @ts-expect-error grpc budgets need maxTokens and tokenRatio
new RetryBudget({ mode: 'grpc' });
