// Fleet helpers (SPEC.md §12): a reproducible seed per device and boot, and a spread-out first
// connection after a fleet-wide power restore. The fleet part is its own small wasm file.
import { fleet } from '../pkg/fleet-part.js';
import { FLEET_WINDOW_ERROR } from '../pkg/tables.js';
import { fail, failRule, int, put, U32_MAX, u64 } from './check.js';
import { get } from './engine.js';

// The seed of call i of a loop (SPEC.md §14), as every binding's loops draw theirs.
export { callSeed } from './policy.js';


/** The seed (a bigint) for a device's id (bytes, or a string as UTF-8) and its boot counter. */
export function seedFromDevice(id, bootCounter) {
  if (typeof id !== 'string' && !(id instanceof Uint8Array)) fail(TypeError, 'id', 'a Uint8Array or a string', id);
  int('bootCounter', bootCounter, 0, U32_MAX);
  const { u32, u8, x } = get(fleet);
  x.fleetSeed(put('id', id, u8.subarray(0, 256)), bootCounter);
  return (BigInt(u32[1]) << 32n) | BigInt(u32[0]);
}

/** Milliseconds to wait, uniform in 0..=windowMs, before a device's first connection. */
export function startupDelay(seed, windowMs) {
  const [lo, hi] = u64('seed', seed);
  int('windowMs', windowMs, 0, U32_MAX, FLEET_WINDOW_ERROR);
  const ms = get(fleet).x.startupDelay(lo, hi, windowMs);
  if (ms < 0) failRule(RangeError, FLEET_WINDOW_ERROR, windowMs);
  return ms;
}
