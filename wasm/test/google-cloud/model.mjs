// The independent Python model of SPEC.md (tests/model/spec_model.py) as the tests' oracle: the
// expected delays come from it, never from the package under test.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODEL = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'model');

const SCRIPT = `
import json, sys
import spec_model as m
out = []
for run in json.load(sys.stdin):
    b = m.Backoff(m.preset(run.get("preset", "google"), **run.get("overrides", {})), run["seed"])
    delays, elapsed = [], 0
    for step in run["steps"]:
        if step.get("reset"):
            b.reset()
        hint = m.RetryAfter(step["retryAfterMs"]) if "retryAfterMs" in step else None
        r = b.next(hint=hint, elapsed=elapsed if run.get("elapsed") else None)
        if not isinstance(r, m.Retry):
            delays.append(r.reason)
            break
        delays.append(r.delay_ms)
        elapsed += r.delay_ms
    out.append(delays)
print(json.dumps(out))
`;

/**
 * For each run `{ seed, steps: [{ reset?, retryAfterMs? }], elapsed? }`, the model's delays (or its
 * give-up reason) under Google's preset.
 */
export function modelDelays(runs) {
  const json = execFileSync('python3', ['-c', SCRIPT], {
    input: JSON.stringify(runs),
    env: { ...process.env, PYTHONPATH: MODEL },
    encoding: 'utf8',
  });
  return JSON.parse(json);
}
