// `seeded-backoff/fleet`: seeds for many devices and many calls (SPEC.md §12, §14), and a
// spread-out first connection after a fleet-wide power restore (the fleet wasm part).
import type { Seed } from './index.js';

/**
 * The seed of call `index` (0, 1, 2, … in the order a loop's calls start) of a loop seeded `seed`
 * (SPEC.md §14, the same as Rust's `call_seed` and C's `sb_call_seed`): call 0 keeps `seed`, every
 * other call gets one of its own, so calls made together retry apart and the same calls in the
 * same order replay. The adapters and the Valkey strategy seed their calls so.
 *
 * @example
 * ```
 * import { Backoff, Policy } from 'seeded-backoff';
 * import { callSeed } from 'seeded-backoff/fleet';
 *
 * const policy = new Policy();
 * const schedules = [0, 1, 2].map((i) => new Backoff(policy, callSeed(42, i)));
 * ```
 */
export function callSeed(seed: Seed, index: number | bigint): bigint;

/**
 * A seed (SPEC.md §12.1) for a device without a hardware random number generator, from its unique
 * id (bytes, or a string as UTF-8, at most 256 bytes) and a counter it keeps across reboots: the
 * same in Rust (`seed_from_device`) and C (`sb_seed_from_device`), distinct for every boot.
 * Uses the fleet part of the engine (its own module, in the program only where it is imported).
 *
 * @throws TypeError if `id` is not a string or a Uint8Array; RangeError for an id over 256 bytes
 * or a `bootCounter` outside 0..=4294967295.
 *
 * @example
 * ```
 * import { Backoff, Policy } from 'seeded-backoff';
 * import { seedFromDevice } from 'seeded-backoff/fleet';
 *
 * const backoff = new Backoff(new Policy(), seedFromDevice('kiosk-0042', bootCount));
 * ```
 */
export function seedFromDevice(id: string | Uint8Array, bootCounter: number): bigint;

/**
 * How long to wait, in ms, uniform in 0..=windowMs (SPEC.md §12.2), before the first connection
 * after every device lost power at once, so that the fleet reconnects spread over the window.
 *
 * @throws RangeError: `windowMs must be in 0..=2147483647, got …`.
 *
 * @example
 * ```
 * import { seedFromDevice, startupDelay } from 'seeded-backoff/fleet';
 *
 * await new Promise((r) => setTimeout(r, startupDelay(seedFromDevice('kiosk-0042', bootCount), 60_000)));
 * ```
 */
export function startupDelay(seed: Seed, windowMs: number): number;
