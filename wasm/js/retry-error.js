// RetryError: why a retry loop stopped (SPEC.md §14's give-up error).
import { BRAND, brandOf, VERSION } from './brand.js';
import { show } from './check.js';
import { isResponse } from './driver.js';

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

// What marks a give-up for every copy of the package in the realm (brand.js): `instanceof
// RetryError` is true in the ES module build for a give-up of the CommonJS build, and the other way round.
const mark = (e) => Object.defineProperty(e, BRAND, { value: { kind: 'RetryError', version: VERSION } });

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
    mark(this);
  }

  // Only RetryError itself answers for the other copy's give-ups, not a subclass; one of another
  // version is none (brandOf's TypeError).
  static [Symbol.hasInstance](e) {
    try {
      return GIVE_UPS.has(e) || Function.prototype[Symbol.hasInstance].call(this, e) || (this === RetryError && !!brandOf(e, 'RetryError'));
    } catch {
      return false;
    }
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
  return mark(e);
}

