// The CommonJS side of the types (exports "require" -> dist/index.d.cts).
import sb = require('seeded-backoff');
import answers = require('seeded-backoff/retry-after');
import snapshots = require('seeded-backoff/snapshot');

const policy = new sb.Policy({ preset: 'grpc' });
const b = new sb.Backoff(policy, 1);
const d: number | null = b.nextDelay();
const bytes: Uint8Array = snapshots.snapshot(b);
const again: sb.Backoff = snapshots.restore(policy, bytes);
console.log(d, again.seed, answers.isRetryableHttp(503));
// @ts-expect-error unknown preset
new sb.Policy({ preset: 'azure' });
// @ts-expect-error snapshot is a function of the package, not a method
b.snapshot();

// A CommonJS sub-entry's objects are the main entry's.
import fleet = require('seeded-backoff/fleet');
import snap = require('seeded-backoff/snapshot');
const fromRequire: number = fleet.startupDelay(fleet.seedFromDevice('kiosk', 1), 1000);
import main = require('seeded-backoff');
const bytesRequire: Uint8Array = snap.snapshot(new main.Backoff());
void [fromRequire, bytesRequire];
import pacerPart = require('seeded-backoff/pacer');
const pacedRequire: number = new pacerPart.Pacer({ capacityPerS: 10 }).assign(0).retryAfterS;
void pacedRequire;
import sendRatePart = require('seeded-backoff/send-rate');
const paceRequire: string = new sendRatePart.SendRate().ask(0).kind;
void paceRequire;
