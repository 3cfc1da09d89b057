// Replays the cross-language vectors (SPEC.md §11) through the package's public API. Shared by the
// Node tests (ESM and CommonJS builds) and the browser test, so it takes the API as an argument and
// the parsed vector files as data. Every op is compared with the Rust result recorded in the file;
// the first difference throws. Schedules are replayed one case after another, and again with every
// case of every file stepped in turn (replayInterleaved), since each switch between Backoffs moves
// a state out of the wasm slot and another one in.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));

/** The Backoff options for a vector's policy object. */
export function optionsOf(p) {
  const o = {
    initialMs: p.initial_ms,
    multiplier: p.multiplier_num / p.multiplier_den,
    maxBackoffMs: p.max_backoff_ms,
    maxRetries: p.max_retries,
    jitter: p.jitter,
    maxHintMs: p.max_hint_ms,
    maxElapsedMs: p.max_elapsed_ms,
    deadline: p.deadline,
  };
  if (p.paced) o.paced = true;
  if (p.jitter === 'google') o.jitterMs = p.jitter_ms;
  if (p.jitter === 'proportional') o.spreadPerMille = p.spread_per_mille;
  return o;
}

function same(got, expect, where) {
  if (got !== expect) {
    throw new Error(`${where}: got ${JSON.stringify(got)}, Rust gave ${JSON.stringify(expect)}`);
  }
}

/**
 * The steps of one schedule case, as a list of closures; each runs one op and returns the number of
 * results compared (1). Cases alternate the two ways to build a Backoff (a shared Policy, or the
 * options sugar) and the two ways to restore one (the Policy, or the options).
 */
function scheduleCase(api, file, policy, options, c, ci) {
  const seed = BigInt(c.seed);
  const sugar = ci % 2 === 1;
  let b = null;
  return c.ops.map((op, i) => () => {
    b ??= sugar ? new api.Backoff({ ...options, seed }) : new api.Backoff(policy, seed);
    const arg = op.slice(1);
    let got;
    switch (op[0]) {
      case 'n':
        got = b.nextDelay();
        break;
      case 'h':
        got = b.nextDelayWithHint(Number(arg));
        break;
      case 'l':
        got = b.nextDelay({ rateLimitMs: Number(arg) });
        break;
      case 'x':
        got = b.nextDelay({ doNotRetry: true });
        break;
      case 't':
        got = b.nextDelay({ elapsedMs: BigInt(arg) });
        break;
      case 'r':
        got = b.reset() ?? null;
        break;
      case 's': {
        const bytes = api.snapshot(b);
        if (!(bytes instanceof Uint8Array)) throw new Error('snapshot() did not return a Uint8Array');
        got = hex(bytes);
        b = api.restore(sugar ? options : policy, fromHex(got));
        break;
      }
      default:
        throw new Error(`unknown op ${op}`);
    }
    if (got === null && op[0] !== 'r') got = b.giveUpReason;
    same(got, c.expect[i], `${file.name} case ${ci} (seed ${c.seed}) op ${i} '${op}'`);
    return 1;
  });
}

/** Every case's steps, for one schedule file. */
function scheduleSteps(api, file) {
  const options = optionsOf(file.policy);
  const policy = new api.Policy(options);
  return file.cases.map((c, ci) => scheduleCase(api, file, policy, options, c, ci));
}

function schedule(api, file) {
  let checks = 0;
  for (const steps of scheduleSteps(api, file)) for (const step of steps) checks += step();
  return checks;
}

/**
 * The cases of every schedule file in `files`, each under its own file's Policy, stepped in turn
 * (one op of each live case, round robin): every step runs right after a step of another Backoff,
 * under another Policy most of the time. Results must still be Rust's. Returns the checks made.
 */
export function replayInterleaved(api, files) {
  const queues = files.filter((f) => f.kind === 'schedule').flatMap((f) => scheduleSteps(api, f));
  let checks = 0;
  for (let live = queues; live.length; live = live.filter((q) => q.length)) {
    for (const q of live) checks += q.shift()();
  }
  return checks;
}

function retryAfter(api, file) {
  for (const c of file.cases) {
    const value = c.value ?? fromHex(c.value_hex);
    let got;
    try {
      got = api.parseRetryAfter(value, c.now * 1000);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      got = e.code;
    }
    same(got, c.expect_ms ?? c.error, `retry-after ${JSON.stringify(c.value ?? c.value_hex)} now ${c.now}`);
  }
  return file.cases.length;
}

function rateLimit(api, file) {
  for (const c of file.cases) {
    const value = c.value ?? fromHex(c.value_hex);
    let got;
    try {
      got = api.parseRateLimit(c.header, value, c.now * 1000);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      got = e.code;
    }
    same(got, c.expect_ms ?? c.error, `${c.header} ${JSON.stringify(c.value ?? c.value_hex)} now ${c.now}`);
  }
  return file.cases.length;
}

function budget(api, file) {
  let checks = 0;
  file.cases.forEach((c, ci) => {
    const b = budgetOf(api, c.budget);
    const kind = { e: 'error', t: 'timeout' };
    c.ops.forEach((op, i) => {
      let allowed = 1;
      if (op[0] === 'f') b.recordFailure(kind[op[1]]);
      else if (op[0] === 'a') allowed = b.tryAcquire(kind[op[1]]) ? 1 : 0;
      else if (op[0] === 's') b.recordSuccess(kind[op[1]]);
      else throw new Error(`unknown budget op ${op}`);
      const [ea, et] = c.expect[i];
      same(allowed, ea, `budget case ${ci} op ${i} '${op}' allowed`);
      same(b.tokensMilli, et, `budget case ${ci} op ${i} '${op}' tokens`);
      checks++;
    });
  });
  return checks;
}

/** A vector budget object as a RetryBudget. */
export function budgetOf(api, cfg) {
  return cfg.kind === 'grpc'
    ? new api.RetryBudget({ mode: 'grpc', maxTokens: cfg.max_tokens, tokenRatio: cfg.token_ratio_milli / 1000 })
    : new api.RetryBudget({
        mode: 'aws_quota',
        capacity: cfg.capacity,
        retryCost: cfg.retry_cost,
        timeoutCost: cfg.timeout_cost,
        noRetryIncrement: cfg.no_retry_increment,
      });
}

/**
 * The run vectors (SPEC.md §15): each event through the package's `Run`, each answer compared. In
 * the send-rate runs (§15.2) the Run is given the case's SendRate, an outcome its `answer`, and
 * `rate_ask`/`rate_answer` act on that SendRate as another run would.
 */
function run(api, file) {
  let checks = 0;
  const hints = { retry_after: 'retryAfterMs', rate_limit: 'rateLimitMs' };
  const snake = { attempt: 'attempt', delayMs: 'delay_ms', maxMs: 'max_ms', attempts: 'attempts', reason: 'reason', bytes: 'bytes',
    pace: 'pace', ms: 'ms', rate_milli: 'rate_milli' };
  const answerOf = (e) => (e.answer === undefined ? undefined : { kind: e.answer, hintMs: e.answer === 'throttled' ? e.hint_ms ?? 0 : 0 });
  file.cases.forEach((c, ci) => {
    const budget = c.budget ? budgetOf(api, c.budget) : undefined;
    const policy = new api.Policy(optionsOf(c.policy));
    const rate = c.send_rate ? new api.SendRate(sendRateOptions(c.send_rate)) : undefined;
    const paced = rate ? { budget, sendRate: rate } : { budget };
    const startup = c.startup_window_ms === undefined ? {} : { startupWindowMs: c.startup_window_ms };
    let r = new api.Run(policy, { seed: BigInt(c.seed), countPausedTime: c.count_paused, ...startup, ...paced });
    const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    c.events.forEach((e, i) => {
      // A reading beyond a number's exact integers is given as a bigint (the clock's whole range).
      const now = e.now === undefined ? undefined : BigInt(e.now) > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(e.now) : Number(e.now);
      let got;
      try {
        let a;
        if (e.e === 'snapshot') {
          // The run goes on restored from its bytes, so the rest of the case checks the restore.
          const bytes = api.snapshot(r);
          r = api.restoreRun(policy, bytes, paced);
          a = { type: 'snapshot', bytes: hex(bytes) };
        } else if (e.e === 'restore') {
          r = api.restoreRun(policy, Uint8Array.from(e.bytes.match(/../g), (h) => parseInt(h, 16)), paced);
          a = { type: 'restored' };
        } else if (e.e === 'rate_ask') {
          const p = rate.ask(now);
          a = p.kind === 'send' ? { type: 'pace', pace: 'send' } : { type: 'pace', pace: p.kind, ms: p.ms };
        } else if (e.e === 'rate_answer') {
          rate.answer(e.answer, e.hint_ms ?? 0, now);
          a = { type: 'rate', rate_milli: rate.rateMilli };
        } else if (e.e === 'start') a = r.start(now);
        else if (e.e === 'wake') a = r.wake(now);
        else if (e.e === 'resume') a = r.resume(now);
        else if (e.e === 'pause') a = r.pause(e.reason, now);
        else if (e.e === 'fail') {
          const o = {};
          if (e.kind) o.failureKind = e.kind;
          if (e.hint === 'do_not_retry') o.doNotRetry = true;
          else if (e.hint) o[hints[e.hint]] = e.hint_ms;
          a = r.outcome(o, now, answerOf(e));
        } else a = r.outcome(e.e, now, answerOf(e));
        got = { a: a.type };
        for (const [k, v] of Object.entries(a)) if (k !== 'type') got[snake[k]] = v;
      } catch (err) {
        if (!err.code) throw err;
        got = { a: 'error', error: err.code };
      }
      same(JSON.stringify(got), JSON.stringify(c.expect[i]), `${file.name} case ${ci} (${c.name}) event ${i} '${e.e}'`);
      checks++;
    });
    if (c.expect_tokens_milli !== undefined) {
      same(budget.tokensMilli, c.expect_tokens_milli, `${file.name} case ${ci} (${c.name}) tokens`);
      checks++;
    }
    if (c.expect_rate_milli !== undefined) {
      same(rate.rateMilli, c.expect_rate_milli, `${file.name} case ${ci} (${c.name}) rate`);
      checks++;
    }
  });
  return checks;
}

/** The call seeds (SPEC.md §14): each call's seed, and the first Google delays it gives. */
function callSeeds(api, file) {
  let checks = 0;
  const google = new api.Policy({ preset: 'google' });
  for (const c of file.cases) {
    const seed = api.callSeed(BigInt(c.seed), BigInt(c.index));
    same(seed, BigInt(c.expect), `call_seed(${c.seed}, ${c.index})`);
    const b = new api.Backoff(google, seed);
    c.google_delays.forEach((d, i) => same(b.nextDelay(), d, `call_seed(${c.seed}, ${c.index}) delay ${i}`));
    checks += 1 + c.google_delays.length;
  }
  return checks;
}

function classify(api, file) {
  for (const [status, cls] of file.http) same(api.classifyHttp(status), cls, `http ${status}`);
  for (const [code, cls] of file.grpc) same(api.classifyGrpc(code), cls, `grpc ${code}`);
  return file.http.length + file.grpc.length;
}

/** SPEC.md §16.4's header values for a slot, written out here from the table, not by the package. */
export function pacerHeaders(retryAfterS, resetMs) {
  return {
    'retry-after': String(retryAfterS),
    'ratelimit-reset': `${Math.floor(resetMs / 1000)}.${String(resetMs % 1000).padStart(3, '0')}`,
    ratelimit: `"pacer";r=0;t=${retryAfterS}`,
  };
}

/**
 * The pacer vectors (SPEC.md §16.5) through the package's `Pacer`: a refused configuration must
 * throw a RangeError naming the field (JS spelling), each assign its slot and §16.4's headers,
 * each pending its count.
 */
function pacer(api, file) {
  const camel = (n) => n.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  let checks = 0;
  file.cases.forEach((c, ci) => {
    const k = c.config;
    const make = () => new api.Pacer({ capacityPerS: k.capacity_per_s, reservePerMille: k.reserve_per_mille,
      maxWaitS: k.max_wait_s, seed: BigInt(k.seed) });
    if (c.error !== undefined) {
      let err;
      try {
        make();
      } catch (e) {
        err = e;
      }
      if (!(err instanceof RangeError) || !err.message.startsWith(`${camel(c.error)} must be in `)) {
        throw new Error(`pacer case ${ci}: got ${err}, Rust gave the error ${c.error}`);
      }
      checks++;
      return;
    }
    const p = make();
    c.ops.forEach((op, i) => {
      const now = BigInt(op.slice(1));
      const where = `pacer case ${ci} op ${i} '${op}'`;
      if (op[0] === 'a') {
        const slot = p.assign(now);
        const [s, r, full] = c.expect[i];
        same(JSON.stringify([slot.retryAfterS, slot.resetMs, slot.full ? 1 : 0]), JSON.stringify([s, r, full]), where);
        same(JSON.stringify(slot.headers), JSON.stringify(pacerHeaders(s, r)), `${where} headers`);
      } else if (op[0] === 'p') {
        same(p.pending(now), c.expect[i], where);
      } else {
        throw new Error(`unknown pacer op ${op}`);
      }
      checks++;
    });
  });
  return checks;
}

/** A send-rate vector's configuration (SPEC.md §17.7) as the package's SendRate options. */
export function sendRateOptions(k) {
  const camel = (n) => n.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  return Object.fromEntries(Object.entries(k).map(([n, v]) => [camel(n), v]));
}

/**
 * The send-rate vectors (SPEC.md §17.7) through the package's `SendRate`: a refused configuration
 * must throw a RangeError naming the field (JS spelling); each ask its pace and ms, each answer the
 * rate it leaves.
 */
function sendRate(api, file) {
  // JSON numbers parse as doubles: the one clock reading past 2^53 the file holds is u64::MAX,
  // which parses as 2^64 (send-rate.test.mjs checks the file's text for any other).
  const clock = (v) => {
    if (Number.isSafeInteger(v)) return BigInt(v);
    if (v === 2 ** 64) return 2n ** 64n - 1n;
    throw new Error(`send_rate: a clock reading ${v} a double cannot hold`);
  };
  let checks = 0;
  file.errors.forEach((c, ci) => {
    let err;
    try {
      new api.SendRate(sendRateOptions(c.config));
    } catch (e) {
      err = e;
    }
    const field = sendRateOptions({ [c.error]: 0 });
    if (!(err instanceof RangeError) || !err.message.startsWith(`${Object.keys(field)[0]} must be in `)) {
      throw new Error(`send_rate error ${ci}: got ${err}, Rust gave the error ${c.error}`);
    }
    checks++;
  });
  file.cases.forEach((c, ci) => {
    const rate = new api.SendRate(sendRateOptions(c.config));
    c.events.forEach((ev, i) => {
      const where = `send_rate case ${ci} '${c.name}' event ${i} ${JSON.stringify(ev)}`;
      const now = clock(ev.now);
      let got;
      if (ev.e === 'ask') {
        const p = rate.ask(now);
        got = p.kind === 'send' ? { pace: 'send' } : { pace: p.kind, ms: p.ms };
      } else {
        rate.answer(ev.e, ev.hint_ms ?? 0, now);
        got = { rate_milli: rate.rateMilli };
      }
      same(JSON.stringify(got), JSON.stringify(c.expect[i]), where);
      checks++;
    });
  });
  return checks;
}

// Kinds the npm package does not export: their files are replayed by the other bindings' tests, and
// named here so that any other unknown kind still fails. (Every kind is replayed today.)
export const NOT_IN_NPM = new Set([]);

/** Replays one parsed vector file; returns how many recorded results it compared. */
export function replayFile(api, file) {
  if (NOT_IN_NPM.has(file.kind)) return 0;
  switch (file.kind) {
    case 'schedule':
      return schedule(api, file);
    case 'retry_after':
      return retryAfter(api, file);
    case 'rate_limit':
      return rateLimit(api, file);
    case 'budget':
      return budget(api, file);
    case 'classify':
      return classify(api, file);
    case 'run':
    case 'run_send_rate':
      return run(api, file);
    case 'call_seed':
      return callSeeds(api, file);
    case 'pacer':
      return pacer(api, file);
    case 'send_rate':
      return sendRate(api, file);
    default:
      throw new Error(`unknown vector kind ${file.kind}`);
  }
}

/** How many results a file records (what a full replay must compare). */
export function expectedChecks(file) {
  if (NOT_IN_NPM.has(file.kind)) return 0;
  switch (file.kind) {
    case 'schedule':
    case 'budget':
      return file.cases.reduce((n, c) => n + c.ops.length, 0);
    case 'retry_after':
    case 'rate_limit':
      return file.cases.length;
    case 'classify':
      return file.http.length + file.grpc.length;
    case 'run':
    case 'run_send_rate':
      return file.cases.reduce((n, c) => n + c.events.length + (c.expect_tokens_milli === undefined ? 0 : 1) +
        (c.expect_rate_milli === undefined ? 0 : 1), 0);
    case 'call_seed':
      return file.cases.reduce((n, c) => n + 1 + c.google_delays.length, 0);
    case 'pacer':
      return file.cases.reduce((n, c) => n + (c.error === undefined ? c.ops.length : 1), 0);
    case 'send_rate':
      return file.errors.length + file.cases.reduce((n, c) => n + c.events.length, 0);
    default:
      return NaN;
  }
}
