// `import 'seeded-backoff/csp/full'`: `seeded-backoff/csp` and the JS builds of every other part
// (budgets, snapshots, fleet helpers, send rates, pacers, their stored values), for a page that
// refuses WebAssembly and uses them.
import './csp.js';
import * as budget from '../pkg/budget.asm.js';
import * as fleet from '../pkg/fleet.asm.js';
import * as pacer from '../pkg/pacer.asm.js';
import * as sendRate from '../pkg/send_rate.asm.js';
import * as snapshot from '../pkg/snapshot.asm.js';
import * as store from '../pkg/store.asm.js';
import { useJsBuild } from './engine.js';

for (const [name, exports] of Object.entries({ snapshot, budget, fleet, pacer, send_rate: sendRate, store })) {
  useJsBuild(name, exports);
}
