/**
 * `seeded-backoff/csp` and the JS builds of every other part of the engine (`RetryBudget`,
 * `snapshot`/`restore`, `seedFromDevice`/`startupDelay`, `SendRate`, `Pacer`), for a page whose
 * Content-Security-Policy refuses WebAssembly and uses them. Import it once, for its effect.
 *
 * ```js
 * import 'seeded-backoff/csp/full';
 * import { retry } from 'seeded-backoff';
 * import { RetryBudget } from 'seeded-backoff/budget';
 * ```
 */
export {};
