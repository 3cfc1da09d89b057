// `import 'seeded-backoff/csp'`: for pages whose Content-Security-Policy refuses WebAssembly (no
// 'wasm-unsafe-eval'). It brings the JS build (the same core compiled to JS by binaryen's
// wasm2js: the same exports and memory layout, the same delays bit for bit) of the parts most pages
// use, the main one and the HTTP-date one (retry(), fetchWithBackoff(), Policy, Backoff, Run, the
// hints, parseRetryAfter(), the adapters and integrations), and registers it, synchronous calls
// included. Imported statically, it is in hand before any call, offline too. The other parts'
// JS builds (budgets, snapshots, fleet helpers, send rates, pacers) come with
// `seeded-backoff/csp/full`; pages that compile WebAssembly carry none of them.
import * as date from '../pkg/date.asm.js';
import * as main from '../pkg/main.asm.js';
import { useJsBuild } from './engine.js';

useJsBuild('main', main);
useJsBuild('date', date);
