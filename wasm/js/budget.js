// A retry budget shared by every request to one server (gRFC A6 throttling or the AWS quota).
import * as glue from '../pkg/seeded_backoff.js';
import { int, keys, milli, oneOf, U32_MAX } from './check.js';
import { budgetId, budgetIds } from './budget-id.js';
import { ensure } from './wasm.js';

const KINDS = ['error', 'timeout'];
const AWS = ['capacity', 'retryCost', 'timeoutCost', 'noRetryIncrement'];
const GRPC = ['maxTokens', 'tokenRatio'];
const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
// A budget the program forgot to free is freed when it is garbage collected.
const finalizer = new FinalizationRegistry((id) => glue.budgetFree(id));

function isTimeout(kind) {
  return kind !== undefined && oneOf('kind', kind, KINDS) === 1;
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
    let id;
    if (grpc) {
      const t = int('maxTokens', options.maxTokens, 1, 1000);
      const r = milli('tokenRatio', options.tokenRatio, '0.001..=maxTokens');
      ensure();
      id = glue.budgetGrpc(t, r);
    } else {
      let present = 0;
      const v = AWS.map((k, bit) => {
        if (options[k] === undefined) return 0;
        present |= 1 << bit;
        return int(k, options[k], 0, U32_MAX);
      });
      ensure();
      id = glue.budgetAwsQuota(present, ...v);
    }
    budgetIds.set(this, id);
    finalizer.register(this, id, this);
  }

  recordFailure(kind) {
    const timeout = isTimeout(kind);
    glue.budgetRecordFailure(budgetId(this), timeout);
  }

  tryAcquire(kind) {
    const timeout = isTimeout(kind);
    return glue.budgetTryAcquire(budgetId(this), timeout);
  }

  recordSuccess(retriedKind) {
    const code = retriedKind === undefined ? 0 : oneOf('retriedKind', retriedKind, KINDS) + 1;
    glue.budgetRecordSuccess(budgetId(this), code);
  }

  get tokensMilli() {
    return glue.budgetTokensMilli(budgetId(this));
  }

  get tokens() {
    return this.tokensMilli / 1000;
  }

  free() {
    const id = budgetIds.get(this);
    if (id === undefined) return;
    budgetIds.delete(this);
    finalizer.unregister(this);
    glue.budgetFree(id);
  }

  [dispose]() {
    this.free();
  }
}
