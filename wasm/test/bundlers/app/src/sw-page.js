// Registers the service worker (classic for a bundle, module for dist/browser/) and asks it to run.
const classic = !!document.currentScript;
navigator.serviceWorker.onmessage = (e) => { globalThis.t0 = e.data.t0; globalThis.apiTimes = e.data.api; globalThis.result = e.data.result; };
navigator.serviceWorker.register(classic ? '/sw.js' : '/sw.mjs', classic ? {} : { type: 'module' })
  .then(() => navigator.serviceWorker.ready)
  .then((reg) => reg.active.postMessage('go'))
  .catch((e) => { globalThis.result = { error: `service worker: ${e}` }; });
