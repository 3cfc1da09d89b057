"""The independent model's delays for a run of failures (tests/model/spec_model.py), shared by
the tests that check a retry loop's waits against it."""

import spec_model as m


def model_steps(b, hints):
    """The model Backoff `b`'s delays for failures with these model hints, then its give-up reason
    if it gives up; requests take no virtual time: the caller's clock is the sum of the delays."""
    out, elapsed = [], 0
    for hint in hints:
        step = b.next(hint=hint, elapsed=elapsed)
        if not isinstance(step, m.Retry):
            out.append(step.reason)
            break
        out.append(step.delay_ms)
        elapsed += step.delay_ms
    return out


def model_waits(seed, hints, policy=None):
    """`model_steps` of a fresh model Backoff of `policy` (Google's preset by default) and `seed`."""
    return model_steps(m.Backoff(policy or m.preset("google"), seed), hints)
