// The outbox's .d.ts against its documented usage (tsc --noEmit --strict; see usage.ts).
import { retry } from 'seeded-backoff';
import { SendRate } from 'seeded-backoff/send-rate';
import { Outbox, OutboxError, serveOutbox, SharedRetryBudget } from 'seeded-backoff/outbox';

export async function usage(): Promise<number> {
  const budget = new SharedRetryBudget('api', { mode: 'grpc', maxTokens: 10, tokenRatio: 0.1 });
  const outbox = new Outbox({ name: 'orders', policy: { preset: 'google', maxRetries: 10 }, budget, maxEntries: 50 });
  const paced = new Outbox({ name: 'paced', sendRate: new SendRate() });
  paced.close();
  outbox.addEventListener('outcome', (e) => console.log(e.id, e.response?.status, e.error?.code));
  outbox.addEventListener('skip', (e) => console.log(e.id, e.reason));
  const { id, done } = await outbox.queue('/api/orders', { method: 'POST', body: '{}' }, { seed: 1n });
  const pending: { id: string; due: number }[] = await outbox.pending();
  await retry(() => fetch('/api'), { budget });
  try {
    return (await done).status + id.length + pending.length;
  } catch (e) {
    if (e instanceof OutboxError && e.code === 'gave-up') return e.status ?? 0;
    throw e;
  } finally {
    outbox.close();
  }
}

export const worker = () => serveOutbox({ name: 'orders', policy: { preset: 'google' } });
// @ts-expect-error: drive is the service worker's to decide
serveOutbox({ drive: false });
// @ts-expect-error: a budget's name is a string
new SharedRetryBudget(1);
