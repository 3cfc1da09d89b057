// The Node-only entry points' .d.ts against their documented usage (compiled with usage.ts).
import { Policy } from 'seeded-backoff';
import { SendRate } from 'seeded-backoff/send-rate';
import { callWithBackoff, captureResponses, classifyGoogleError } from 'seeded-backoff/google-cloud';
import { paceConnections, retryStrategy } from 'seeded-backoff/valkey';

const client = {
  getInstance: (request: { name: string }, options: { retry: null }) =>
    Promise.resolve([{ name: request.name, retried: options.retry }] as const),
};
export const instance: Promise<readonly [{ name: string; retried: null }]> = callWithBackoff(
  (o) => client.getInstance({ name: 'projects/p/locations/l/instances/i' }, o),
  { seed: 7, policy: new Policy({ preset: 'google' }), onRetry: ({ delayMs }) => delayMs, sleep: async () => {} },
);
export const auth: { fetch: () => Promise<number> } = captureResponses({ fetch: async () => 1 });
export const kind: 'success' | 'retry' | 'do_not_retry' | 'invalid' = classifyGoogleError(new Error('x'));
export const strategy: (times: number) => number | null = retryStrategy({
  seed: 1n, onRetry: ({ attempt, delayMs, error }) => [attempt + delayMs, error], onGiveUp: (e) => e.reason,
});
const valkey = { status: 'wait', connector: {} };
export const pacedClient: { status: string; connector: object } = paceConnections(valkey, { sendRate: new SendRate() });
// @ts-expect-error: sendRate is a SendRate
paceConnections(valkey, { sendRate: {} });
// @ts-expect-error: the send rate is the point of pacing
paceConnections(valkey, {});

export const paced: Promise<readonly [{ name: string; retried: null }]> = callWithBackoff(
  (o) => client.getInstance({ name: 'i' }, o), { sendRate: new SendRate() },
);
// @ts-expect-error: sendRate is a SendRate
callWithBackoff((o) => client.getInstance({ name: 'i' }, o), { sendRate: 1 });

// @ts-expect-error: an option that does not exist
retryStrategy({ sead: 1 });
// @ts-expect-error: every attempt is given { retry: null }, not gax retry settings
callWithBackoff((o: { retry: number }) => Promise.resolve(o.retry));
