// A delivery's gate on the outbox's send rate (SPEC.md §15.2, §17): a run of its own for each
// attempt, paced on performance.now(), the clock the send rate shares with the context's other
// loops, while the request's stored run keeps Date.now() (it outlives the page). Its start answers
// whether the attempt may go ('attempt'), waits ('wait', delayMs) or is refused ('give_up',
// 'throttled'); its outcome tells the send rate the response's answer, which the core reads from
// the status and the hint (§17.3). Its policy is the default one, without a deadline: the stored
// run's policy bounds the delivery.
import * as sb from '../index.js';

let policy;
const clock = () => Math.floor(performance.now());

/** The gate of one attempt: `pace`, the paced start's action, and `told(outcome, status)`. */
export function gate(sendRate) {
  const run = new sb.Run((policy ??= new sb.Policy()), { sendRate });
  const pace = run.start(clock());
  return {
    pace,
    /** The attempt's response: `outcome` as Run's (the hint for a retried status), its `status`. */
    told(outcome, status) {
      if (pace.type === 'attempt') run.outcome(outcome, clock(), status);
    },
  };
}
