// A newcomer's mistakes, each with the error tsc must give (wasm/test/type-errors.test.mjs runs tsc
// on this file and matches every `// error:` pattern against the error reported on the line below
// it): the message names the option's own type, and a near name where TypeScript finds one. Not in
// tsconfig.json: every line here is meant to fail.
import { Backoff, fetchWithBackoff, Policy, retry } from 'seeded-backoff';
import { RetryBudget } from 'seeded-backoff/budget';
import { SendRate } from 'seeded-backoff/send-rate';
import { axiosRetryOptions } from 'seeded-backoff/axios-retry';
import { gotRetry } from 'seeded-backoff/got';
import { kyRetry } from 'seeded-backoff/ky';

const fn = async () => 1;
// error: Type 'string' is not assignable to type 'number'
void retry(fn, { maxRetries: '5' });
// error: Type '"fulll"' is not assignable to type 'Jitter \| undefined'\. Did you mean '"full"'\?
void retry(fn, { jitter: 'fulll' });
// error: Type '"googel"' is not assignable to type 'Preset \| undefined'\. Did you mean '"google"'\?
void retry(fn, { preset: 'googel' });
// error: Type '"clmap"' is not assignable to type '"clamp" \| "give_up" \| undefined'\. Did you mean '"clamp"'\?
void retry(fn, { deadline: 'clmap' });
// error: 'maxRetrie' does not exist in type 'RetryOptions'\. Did you mean to write 'maxRetries'\?
void retry(fn, { maxRetrie: 5 });
// error: 'maxRetry' does not exist in type 'RetryOptions'
void retry(fn, { maxRetry: 5 });
// error: Type 'string' is not assignable to type 'number'
void fetchWithBackoff('/api', {}, { maxRetries: '5' });
// error: Did you mean '"full"'\?
void fetchWithBackoff('/api', {}, { jitter: 'fulll' });
// error: 'retryMethod' does not exist in type 'FetchOptions'\. Did you mean to write 'retryMethods'\?
void fetchWithBackoff('/api', {}, { retryMethod: ['POST'] });
// error: Type 'string' is not assignable to type 'number'
new Policy({ maxRetries: '5' });
// error: Type '"googel"' is not assignable to type 'Preset \| undefined'\. Did you mean '"google"'\?
new Policy({ preset: 'googel' });
// error: 'maxRetrie' does not exist in type 'PolicyOptions'\. Did you mean to write 'maxRetries'\?
new Policy({ maxRetrie: 5 });
// error: Type '"fulll"' is not assignable to type 'Jitter \| undefined'\. Did you mean '"full"'\?
new Backoff({ jitter: 'fulll' });
// error: 'sed' does not exist in type 'BackoffOptions'\. Did you mean to write 'seed'\?
new Backoff({ sed: 5 });
// error: Type '"grcp"' is not assignable to type '"aws_quota" \| "grpc" \| undefined'
new RetryBudget({ mode: 'grcp' });
// error: 'burts' does not exist in type 'SendRateOptions'\. Did you mean to write 'burst'\?
new SendRate({ burts: 1 });
// error: Type 'number' is not assignable to type 'undefined'
void retry(fn, { policy: new Policy(), maxRetries: 5 });
// error: 'maxRetrie' does not exist in type 'BackoffOptions'\. Did you mean to write 'maxRetries'\?
kyRetry({ maxRetrie: 5 });
// error: Did you mean '"full"'\?
gotRetry({ jitter: 'fulll' });
// error: 'maxRetrie' does not exist in type 'BackoffOptions'\. Did you mean to write 'maxRetries'\?
axiosRetryOptions({ maxRetrie: 5 });
