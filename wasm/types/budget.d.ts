// `seeded-backoff/budget`: RetryBudget alone (the budget wasm part). The documentation of each
// export is in index.d.ts.
export { type AwsQuotaBudgetOptions, type FailureKind, type GrpcBudgetOptions, RetryBudget } from './index.js';
