// The adapters' .d.ts (seeded-backoff/ky, /axios-retry, /got): documented usage type-checks and
// misuse does not (each @ts-expect-error fails the compile if its line type-checks).
import { axiosRetryOptions } from 'seeded-backoff/axios-retry';
import { gotRetry } from 'seeded-backoff/got';
import { kyRetry } from 'seeded-backoff/ky';
import { Policy } from 'seeded-backoff';
import { RATE_LIMIT_HEADERS, rateLimitApplies } from 'seeded-backoff/retry-after';
import { SendRate } from 'seeded-backoff/send-rate';

const ky = kyRetry({ preset: 'google' }, 42);
const limit: number = ky.retry.limit;
const init: Array<(options: { retry?: unknown }) => void> = ky.hooks.init;
const axios = axiosRetryOptions(new Policy({ preset: 'aws_standard' }), 7n);
const delay: number = axios.retryDelay(1, new Error('x'));
const ok: boolean = axios.retryCondition(new Error('x'));
const got = gotRetry({ preset: 'google', seed: 1 });
const codes: number[] = got.retry.statusCodes;
const first: string = RATE_LIMIT_HEADERS[0];
const applies: boolean = rateLimitApplies(429);
// @ts-expect-error a preset name is not a policy
kyRetry('google');
// @ts-expect-error the seed is a number or a bigint
gotRetry({}, '42');
const sendRate = new SendRate();
kyRetry({ preset: 'google' }, 42, { sendRate });
gotRetry({ preset: 'google' }, 42, { sendRate });
declare const instance: { interceptors: { request: { use: Function }; response: { use: Function } } };
axiosRetryOptions({ preset: 'google' }, 42, { sendRate, axios: instance });
// @ts-expect-error sendRate is a SendRate
kyRetry({}, 1, { sendRate: { ask() {} } });
// @ts-expect-error no such option
gotRetry({}, 1, { rate: sendRate });
export { applies, codes, delay, first, init, limit, ok };
