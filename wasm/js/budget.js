// RetryBudget: a retry budget shared by every request to one server (gRFC A6 throttling or the AWS
// quota). Its words live in this object; the budget part's core code updates them.
import { budget } from '../pkg/budget-part.js';
import { BUDGET_AT, BUDGET_ERRORS, OP_RECORD_FAILURE, OP_RECORD_SUCCESS, OP_TRY_ACQUIRE, STATE_AT } from '../pkg/tables.js';
import { int, keys, milli, oneOf, U32_MAX } from './check.js';
import { STEP, TOKENS } from './internal.js';
import { WORDS } from './policy.js';
import { get } from './engine.js';

const KINDS = ['error', 'timeout'];
const AWS = ['capacity', 'retryCost', 'timeoutCost', 'noRetryIncrement'];
const GRPC = ['maxTokens', 'tokenRatio'];

// Each option's rule: its index in the core's budget errors (retryCost and timeoutCost share one).
const RULE = { maxTokens: 0, tokenRatio: 1, capacity: 2, retryCost: 3, timeoutCost: 3, noRetryIncrement: 4 };

const timeoutKind = (kind, name = 'kind') => kind !== undefined && oneOf(name, kind, KINDS) === 1;

export class RetryBudget {
  #w; // kind, four config values and the tokens, in thousandths

  constructor(options = {}) {
    keys('RetryBudget options', options, ['mode', ...GRPC, ...AWS]);
    const grpc = oneOf('mode', options.mode ?? 'aws_quota', ['aws_quota', 'grpc']) === 1;
    for (const k of grpc ? AWS : GRPC) {
      if (options[k] !== undefined) {
        throw new TypeError(`${k} applies only to mode '${grpc ? 'aws_quota' : 'grpc'}'`);
      }
    }
    let present = 0;
    const v = (grpc ? GRPC : AWS).map((k, i) => {
      const x = options[k];
      if (x === undefined) return 0;
      present |= 1 << i;
      return k === 'tokenRatio' ? milli(x, BUDGET_ERRORS[1]) : int(k, x, 0, U32_MAX, BUDGET_ERRORS[RULE[k]]);
    });
    if (grpc && present !== 3) {
      throw new TypeError('mode grpc needs maxTokens and tokenRatio');
    }
    const { u32, x } = get(budget);
    const e = x.budgetNew(!grpc, present, v[0], v[1], v[2] ?? 0, v[3] ?? 0);
    if (e) throw new RangeError(BUDGET_ERRORS[e - 1]);
    this.#w = u32.slice(BUDGET_AT, BUDGET_AT + 6);
  }

  #op(op, timeout, retried) {
    const { u32, x } = get(budget);
    u32.set(this.#w, BUDGET_AT);
    const r = x.budgetOp(op, timeout, retried);
    this.#w[5] = u32[BUDGET_AT + 5];
    return r;
  }

  recordFailure(kind) {
    this.#op(OP_RECORD_FAILURE, timeoutKind(kind), false);
  }

  tryAcquire(kind) {
    return this.#op(OP_TRY_ACQUIRE, timeoutKind(kind), false) === 1;
  }

  recordSuccess(retriedKind) {
    this.#op(OP_RECORD_SUCCESS, timeoutKind(retriedKind, 'retriedKind'), retriedKind !== undefined);
  }

  get tokensMilli() {
    return this.#w[5];
  }

  get tokens() {
    return this.#w[5] / 1000;
  }

  /** The tokens, set by a budget that shares them with other tabs (seeded-backoff/outbox). */
  get [TOKENS]() {
    return this.#w[5];
  }

  set [TOKENS](t) {
    this.#w[5] = t;
  }

  /** A step of `words` (a Backoff's state) under `policy` with this budget; updates both. */
  [STEP](policy, words, kind, hintMs, hasElapsed, lo, hi, timeout) {
    const { u32, x } = get(budget);
    u32.set(policy[WORDS], 0);
    u32.set(words, STATE_AT);
    u32.set(this.#w, BUDGET_AT);
    const d = x.budgetStep(kind, hintMs, hasElapsed, lo, hi, timeout);
    words.set(u32.subarray(STATE_AT, STATE_AT + 8));
    this.#w[5] = u32[BUDGET_AT + 5];
    return d;
  }
}
