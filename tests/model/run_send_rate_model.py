#!/usr/bin/env python3
"""Independent model of SPEC.md §15.2 (a run behind a shared send rate), written from the
specification over the run of run_model (§15) and the send rate of send_rate_model (§17).

check_vectors.py recomputes tests/vectors/run-send-rate.json with it. Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_model  # noqa: E402
import spec_model as m  # noqa: E402

Refused = run_model.Refused


class PacedRun(run_model.Run):
    """A §15 run whose start, wake and outcomes go through a send rate it is handed (never owns)."""

    def _paced_now(self, reading):
        # §15.2: the run's clock, or for the first event its reading; else `no_clock`.
        if self.phase == "ready" and reading is not None:
            return reading
        if self.clock:
            return self.now if reading is None else max(self.now, reading)
        raise Refused("no_clock")

    def _gate(self, rate):
        pace = rate.ask(self.now)
        if pace["pace"] == "send":
            self.attempt = min(self.attempt + 1, m.U32_MAX)
            self.phase = "attempting"
            return {"a": "attempt", "attempt": self.attempt}
        if pace["pace"] == "refuse":
            self.phase = "gave_up"
            return {"a": "give_up", "attempts": self.attempt, "reason": "throttled"}
        limit = self.policy.max_elapsed_ms
        if limit > 0 and self._elapsed() + pace["ms"] > limit:
            self.phase = "gave_up"
            return {"a": "give_up", "attempts": self.attempt, "reason": "deadline"}
        if self.phase == "ready":
            self.window_ms = self.backoff.level
        self.phase = "sleeping"
        return {"a": "wait", "delay_ms": pace["ms"]}

    def start_paced(self, rate, now=None):
        self._allow("start", ("ready",))
        self._read(self._paced_now(now))
        return self._gate(rate)

    def wake_paced(self, rate, now=None):
        self._allow("wake", ("sleeping",))
        self._read(self._paced_now(now))
        return self._gate(rate)

    def outcome_paced(self, rate, o, now=None, hint=None, kind="error", budget=None, answer=None):
        self._allow("outcome", ("attempting",))
        now = self._paced_now(now)
        # §15.2: `sent` is the run's clock before this event reads it: the start or wake that
        # the gate let go (nothing else is taken in `attempting`).
        sent = self.now
        action = self.outcome(o, now, hint, kind, budget)
        if answer is None:
            answer = default_answer(o, hint, kind)
        rate.answer(answer[0], self.now, answer[1], sent)
        if action["a"] == "retry" and answer[0] == "throttled":
            # §15.2: the send rate paces a throttled retry; it waits only the hint.
            action["delay_ms"] = min(action["delay_ms"], answer[1])
            self.window_ms = action["delay_ms"]
        return action


def default_answer(o, hint, kind):
    """§15.2: the answer of an outcome when the loop gives none, as (kind, hint_ms)."""
    if o in ("success", "permanent"):
        return ("accepted", 0)
    if o == "retryable" and kind == "error" and isinstance(hint, (m.RetryAfter, m.RateLimit)):
        return ("throttled", hint.ms)
    return ("no_answer", 0)


def feed(run, rate, event, budget=None):
    """One vector event of run-send-rate.json: the expectation object it answers."""
    e, now = event["e"], event.get("now")
    if e == "rate_ask":
        return dict({"a": "pace"}, **rate.ask(now))
    if e == "rate_answer":
        return dict({"a": "rate"}, **rate.answer(event["answer"], now, event.get("hint_ms", 0)))
    if e in ("snapshot", "restore", "pause", "resume"):
        return run_model.feed(run, event, budget)
    try:
        if e == "start":
            return run.start_paced(rate, now)
        if e == "wake":
            return run.wake_paced(rate, now)
        answer = (event["answer"], event.get("hint_ms", 0)) if "answer" in event else None
        outcome = "retryable" if e == "fail" else e
        return run.outcome_paced(rate, outcome, now, run_model.hint_of(event),
                                 event.get("kind", "error"), budget, answer)
    except Refused as r:
        return {"a": "error", "error": r.name}
