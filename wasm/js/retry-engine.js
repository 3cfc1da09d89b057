// What retry() loads while its first attempt is in flight (a dynamic import: bundlers make it a
// chunk of its own): the engine's main part, the run's events, the core's check of the policy
// options and the response hint. Only modules the package's index does not re-export, so that a
// bundler keeps them out of the chunks a page loads before its first request.
export { main } from '../pkg/main-part.js';
export { load } from './engine.js';
export { check } from './options.js';
export { responseHint } from './response-hint.js';
export { event, runWords } from './run-words.js';
export { RetryError } from './retry-error.js';
