// One Node process's turn on a fleet's three shared parts (SPEC.md §19), the npm package's side of
// python/tests/test_shared_turns.py (core/examples/shared_turn.rs is Rust's): on PREFIX:rate an
// ask then an answer, on PREFIX:budget one acquire, on PREFIX:pacer one slot, each decided on what
// the store holds, at the caller's reading NOW. Prints the answers and the state after them.
//
// usage: node shared_turn.mjs PORT PREFIX NOW accepted|throttled
import Valkey from 'iovalkey';
import { importEntry } from './package-entry.mjs';

const [port, prefix, now, answer] = process.argv.slice(2);
if (!['accepted', 'throttled'].includes(answer)) {
  console.error('usage: node shared_turn.mjs PORT PREFIX NOW accepted|throttled');
  process.exit(2);
}
const { SendRate } = await importEntry('./send-rate');
const { RetryBudget } = await importEntry('./budget');
const { Pacer } = await importEntry('./pacer');
const { SharedBudget, SharedPacer, SharedSendRate } = await importEntry('./shared');

const client = new Valkey({ host: '127.0.0.1', port: Number(port) });
// Every process of the test shares one virtual clock; a wide bound: a loaded machine must not
// make a turn decide alone.
const options = { storeClock: false, boundMs: 5000 };
const rate = new SharedSendRate(client, `${prefix}:rate`, new SendRate({ minRateMilli: 1000 }), options);
const budget = new SharedBudget(client, `${prefix}:budget`, new RetryBudget({ mode: 'aws_quota' }), options);
const pacer = new SharedPacer(client, `${prefix}:pacer`, new Pacer({ capacityPerS: 10, seed: 3 }), options);

const at = Number(now);
const pace = await rate.ask(at);
await rate.answer(answer, 0, at);
const acquired = await budget.tryAcquire();
const slot = await pacer.assign(at);
const pending = await pacer.pending(at);
const alone = [rate, budget, pacer].reduce((n, part) => n + part.stats.alone, 0);
console.log(JSON.stringify({
  pace: [pace.kind, pace.ms], rate_milli: rate.rateMilli, acquired, tokens_milli: budget.tokensMilli,
  slot: [slot.retryAfterS, slot.resetMs, slot.full], pending, alone,
}));
client.disconnect();
