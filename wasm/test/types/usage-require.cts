// The CommonJS side of the types (exports "require" -> dist/index.d.cts).
import sb = require('seeded-backoff');

const b = new sb.Backoff({ preset: 'grpc', seed: 1 });
const d: number | null = b.nextDelay();
console.log(d, sb.isRetryableStatus(503));
// @ts-expect-error unknown preset
new sb.Backoff({ preset: 'azure' });
