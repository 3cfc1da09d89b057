// The options of retry(), fetchWithBackoff() and callWithBackoff(), checked into the settings the
// run's driver (driver.js) takes: everything but the core's own check of the policy options,
// which the engine makes.
import { OPTIONS } from '../pkg/tables.js';
import { bool, fail, fn, int, keys, oneOf } from './check.js';
import { isBudget, isShared } from './gate.js';
import { main } from '../pkg/main-part.js';
import { check, optionWords, seedHalves } from './options.js';
import { watch } from './pause.js';
import { isPolicy, policyWords } from './words.js';

const OWN = ['policy', 'seed', 'signal', 'shouldRetry', 'onRetry', 'budget', 'attemptTimeoutMs', 'offline',
  'whenHidden', 'countPausedTime', 'sendRate'];
/** The options of retry() (and fetchWithBackoff(), with `retryMethods`). */
export const RETRY_KEYS = [...OPTIONS, ...OWN];

/** retry()'s options, checked: everything but the core's own check of the policy options. */
export function settings(options, name) {
  keys(name, options, RETRY_KEYS);
  const { policy, seed, signal, shouldRetry, onRetry, budget, attemptTimeoutMs, countPausedTime = false, sendRate } = options;
  for (const k of ['shouldRetry', 'onRetry']) if (options[k] !== undefined) fn(k, options[k]);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') fail(TypeError, 'signal', 'an AbortSignal', signal);
  if (budget !== undefined && !isBudget(budget) && !isShared(budget)) fail(TypeError, 'budget', 'a RetryBudget (or an object with its methods)', budget);
  if (attemptTimeoutMs !== undefined) int('attemptTimeoutMs', attemptTimeoutMs, 1, 2147483647);
  bool('countPausedTime', countPausedTime);
  const life = watch(
    options.whenHidden === undefined || !oneOf('whenHidden', options.whenHidden, ['pause', 'continue']),
    options.offline === undefined || !oneOf('offline', options.offline, ['wait', 'ignore']),
  );
  const values = [];
  let pw;
  if (policy !== undefined) {
    if (!isPolicy(policy)) fail(TypeError, 'policy', 'a Policy', policy);
    const both = OPTIONS.find((k) => options[k] !== undefined);
    if (both) throw new TypeError(`give either policy or policy options such as ${both}, not both`);
    pw = policyWords.get(policy);
  } else {
    pw = optionWords(options, values);
  }
  // Checked by the core now where the engine is compiled; else once it is, before any retry.
  if (main.x && !policy) check(main, pw, values);
  // A given seed is checked now; a drawn one is drawn with the run, off the first attempt's path
  // (the first crypto.getRandomValues() of a Node process costs milliseconds).
  return { pw, values, seed: seed === undefined ? seed : seedHalves(seed), signal, shouldRetry, onRetry, budget, attemptTimeoutMs, countPausedTime, life, sendRate };
}

