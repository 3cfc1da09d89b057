// Starts the worker (a classic worker for a bundle, a module worker for dist/browser/).
const w = new Worker(document.currentScript ? '/worker.js' : '/worker.mjs', document.currentScript ? {} : { type: 'module' });
w.onmessage = (e) => { globalThis.t0 = e.data.t0; globalThis.apiTimes = e.data.api; globalThis.result = e.data.result; };
w.onerror = (e) => { globalThis.result = { error: `worker: ${e.message}` }; };
