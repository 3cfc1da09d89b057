// RetryError: why a retry loop stopped (SPEC.md §14's give-up error).
import { show } from './check.js';
import { isResponse } from './retry.js';

/** What a failed attempt was, for a message: an Error's message, a Response's status, or a value. */
function describe(e) {
  try {
    if (e instanceof Error) return e.message;
  } catch {
    // A revoked proxy: described as the object it is.
  }
  return isResponse(e) ? `HTTP ${e.status}` : `threw ${show(e)}`;
}

// Give-ups of another class (google-cloud.js throws a GoogleError, the class its users catch),
// which are RetryErrors too.
const GIVE_UPS = new WeakSet();

/**
 * Why retry() stopped: `cause` is the last error (or the last retryable Response); a run a send
 * rate refused (or held past its deadline) before any attempt has none.
 */
export class RetryError extends Error {
  constructor(cause, attempts, reason) {
    super(giveUpMessage(cause, attempts, reason), attempts ? { cause } : undefined);
    this.name = 'RetryError';
    this.attempts = attempts;
    this.reason = reason;
  }

  static [Symbol.hasInstance](e) {
    return GIVE_UPS.has(e) || Function.prototype[Symbol.hasInstance].call(this, e);
  }
}

const giveUpMessage = (cause, attempts, reason) => `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'} (${reason})${attempts ? `: ${describe(cause)}` : ''}`;

/**
 * A give-up as an instance of `Base` (an Error class whose constructor takes the message), with
 * RetryError's message, `cause`, `attempts` and `reason`, and `instanceof RetryError`.
 */
export function giveUpAs(Base, cause, attempts, reason) {
  const e = new Base(giveUpMessage(cause, attempts, reason));
  Object.assign(e, attempts ? { cause, attempts, reason } : { attempts, reason });
  GIVE_UPS.add(e);
  return e;
}

