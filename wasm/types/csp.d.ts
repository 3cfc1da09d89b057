/**
 * For pages whose Content-Security-Policy refuses WebAssembly (a `script-src` without
 * `'wasm-unsafe-eval'`): import it once, for its effect, before the package is used. It brings the
 * engine's JS build (the same core compiled to JS: the same delays bit for bit) of its main and
 * HTTP-date parts and registers it, so that `retry()`, `fetchWithBackoff()`, `Policy`, `Backoff`,
 * `Run`, the hints, `parseRetryAfter()`, the adapters and the integrations run there, synchronous
 * calls included; `seeded-backoff/csp/full` adds every other part.
 * Without it, such a page's `retry()` makes its first attempt, then rejects with an error that
 * names this line; a synchronous call throws it.
 *
 * ```js
 * import 'seeded-backoff/csp';
 * import { retry } from 'seeded-backoff';
 * ```
 */
export {};
