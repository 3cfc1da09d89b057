// `seeded-backoff/send-rate`: SendRate alone (the send-rate wasm part). The documentation of each
// export is in index.d.ts.
export { type SendRateAnswer, type SendRateOptions, type SendRatePace, SendRate } from './index.js';
