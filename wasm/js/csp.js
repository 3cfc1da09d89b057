// `import 'seeded-backoff/csp'`: for pages whose Content-Security-Policy refuses WebAssembly (no
// 'wasm-unsafe-eval'). It brings the engine's JS build (the same core compiled to JS by binaryen's
// wasm2js: the same exports and memory layout, the same delays bit for bit) and registers it, so
// that every part of the package runs where its WebAssembly is refused, synchronous API included.
// Imported statically, it is in hand before any call, offline too. Other pages never carry it.
import * as budget from '../pkg/budget.asm.js';
import * as date from '../pkg/date.asm.js';
import * as fleet from '../pkg/fleet.asm.js';
import * as main from '../pkg/main.asm.js';
import * as pacer from '../pkg/pacer.asm.js';
import * as sendRate from '../pkg/send_rate.asm.js';
import * as snapshot from '../pkg/snapshot.asm.js';
import { useJsBuild } from './engine.js';

for (const [name, exports] of Object.entries({ main, date, snapshot, budget, fleet, pacer, send_rate: sendRate })) {
  useJsBuild(name, exports);
}
