// RetryBudget: a retry budget shared by every request to one server (gRFC A6 throttling or the AWS
// quota). Its words live in this object; the budget part's core code updates them. Its modes,
// options and their errors are the core's tables (BudgetMode, BudgetOption).
import { budget } from '../pkg/budget-part.js';
import { BUDGET_AT, BUDGET_ERRORS, BUDGET_MODES, BUDGET_OPTIONS, OP_RECORD_FAILURE, OP_RECORD_SUCCESS, OP_TRY_ACQUIRE } from '../pkg/tables.js';
import { int, keys, milli, oneOf, U32_MAX } from './check.js';
import { get } from './engine.js';
import { STATE, wordsOf } from './store-words.js';

const KINDS = ['error', 'timeout'];

const timeoutKind = (kind, name = 'kind') => kind !== undefined && oneOf(name, kind, KINDS) === 1;

export class RetryBudget {
  #w; // kind, four config values and the tokens, in thousandths

  constructor(options = {}) {
    const w = wordsOf(options);
    if (w) {
      this.#w = w;
      return;
    }
    keys('RetryBudget options', options, ['mode', ...BUDGET_OPTIONS.flat().map(([k]) => k)]);
    const mode = oneOf('mode', options.mode ?? BUDGET_MODES[0], BUDGET_MODES);
    const own = BUDGET_OPTIONS[mode];
    for (const [k] of BUDGET_OPTIONS[1 - mode]) {
      if (options[k] !== undefined) throw new TypeError(`${k} applies only to mode '${BUDGET_MODES[1 - mode]}'`);
    }
    let present = 0;
    const v = own.map(([k, rule, optional], i) => {
      const x = options[k];
      if (x === undefined) {
        if (!optional) throw new TypeError(`mode ${BUDGET_MODES[mode]} needs ${own.filter((o) => !o[2]).map((o) => o[0]).join(' and ')}`);
        return 0;
      }
      present |= 1 << i;
      return k === 'tokenRatio' ? milli(x, BUDGET_ERRORS[rule]) : int(k, x, 0, U32_MAX, BUDGET_ERRORS[rule]);
    });
    const { u32, x } = get(budget);
    const e = x.budgetNew(mode === 0, present, v[0], v[1], v[2] ?? 0, v[3] ?? 0);
    if (e) {
      // The core names the rule broken; the message adds the values of its options, defaults
      // included (retryCost and timeoutCost share one rule, so it shows both).
      const got = own.filter((o) => o[1] === e - 1).map(([k, , byDefault]) => options[k] ?? byDefault);
      throw new RangeError(`${BUDGET_ERRORS[e - 1]}, got ${got.join(' and ')}`);
    }
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

  /** The tokens in thousandths; set, a count kept elsewhere (other tabs, a reload), 0..=the maximum. */
  get tokensMilli() {
    return this.#w[5];
  }

  set tokensMilli(t) {
    this.#w[5] = int('tokensMilli', t, 0, this.#w[1]);
  }

  get tokens() {
    return this.#w[5] / 1000;
  }

  /** For the shared budget: a copy of the words; with `w`, the words replaced first. */
  [STATE](w) {
    if (w) this.#w.set(w);
    return this.#w.slice();
  }
}

