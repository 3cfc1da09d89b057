// A retry budget shared by every request to one server (gRFC A6 throttling or the AWS quota).
import { BudgetState } from '../pkg/seeded_backoff.js';
import { int, keys, milli, oneOf, U32_MAX } from './check.js';
import { ensure } from './wasm.js';

const KINDS = ['error', 'timeout'];
const AWS = ['capacity', 'retryCost', 'timeoutCost', 'noRetryIncrement'];
const GRPC = ['maxTokens', 'tokenRatio'];
const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
const states = new WeakMap();

function isTimeout(kind) {
  return kind !== undefined && oneOf('kind', kind, KINDS) === 1;
}

export function budgetState(budget) {
  const s = states.get(budget);
  if (!s) throw new Error('this RetryBudget was freed');
  return s;
}

export class RetryBudget {
  constructor(options = {}) {
    keys('RetryBudget options', options, ['mode', ...GRPC, ...AWS]);
    const grpc = oneOf('mode', options.mode ?? 'aws_quota', ['aws_quota', 'grpc']) === 1;
    for (const k of grpc ? AWS : GRPC) {
      if (options[k] !== undefined) {
        throw new TypeError(`${k} applies only to mode '${grpc ? 'aws_quota' : 'grpc'}'`);
      }
    }
    let state;
    if (grpc) {
      const t = int('maxTokens', options.maxTokens, 1, 1000);
      const r = milli('tokenRatio', options.tokenRatio, '0.001..=maxTokens');
      ensure();
      state = BudgetState.grpc(t, r);
    } else {
      let present = 0;
      const v = AWS.map((k, bit) => {
        if (options[k] === undefined) return 0;
        present |= 1 << bit;
        return int(k, options[k], 0, U32_MAX);
      });
      ensure();
      state = BudgetState.awsQuota(present, ...v);
    }
    states.set(this, state);
  }

  recordFailure(kind) {
    budgetState(this).recordFailure(isTimeout(kind));
  }

  tryAcquire(kind) {
    return budgetState(this).tryAcquire(isTimeout(kind));
  }

  recordSuccess(retriedKind) {
    const code = retriedKind === undefined ? 0 : oneOf('retriedKind', retriedKind, KINDS) + 1;
    budgetState(this).recordSuccess(code);
  }

  get tokensMilli() {
    return budgetState(this).tokensMilli();
  }

  get tokens() {
    return this.tokensMilli / 1000;
  }

  free() {
    states.get(this)?.free();
    states.delete(this);
  }

  [dispose]() {
    this.free();
  }
}
