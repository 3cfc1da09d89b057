#!/usr/bin/env python3
"""Independent model of SPEC.md §15 (the run: one call's retries as a state machine), written
from the specification over the §5 step of spec_model and the §13 re-draw of pause_model.

check_vectors.py recomputes tests/vectors/run-loop.json with it. Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet_model as fm  # noqa: E402
import pause_model as pm  # noqa: E402
import spec_model as m  # noqa: E402


class Refused(Exception):
    """An event outside its phases: the error named after it (or `finished`)."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Run:
    def __init__(self, policy, seed, count_paused=False, startup_window_ms=0):
        self.policy = policy
        self.seed = seed
        self.backoff = m.Backoff(policy, seed)
        self.phase = "ready"
        self.attempt = 0
        self.redraws = 0
        self.window_ms = 0
        self.retried = None
        self.clock = False
        self.origin = self.now = self.paused_ms = self.pause_since = 0
        self.count_paused = count_paused
        # §15.3: before the start, window_ms holds the startup window.
        if startup_window_ms > m.MAX_DELAY_MS:
            raise m.SpecError("window_ms")
        self.window_ms = startup_window_ms

    def _allow(self, event, phases):
        if self.phase in ("done", "gave_up"):
            raise Refused("finished")
        if self.phase not in phases:
            raise Refused(event)

    def _read(self, reading):
        if self.phase == "ready" and reading is not None:
            self.clock, self.origin, self.now = True, reading, reading
        elif self.clock and reading is not None:
            self.now = max(self.now, reading)

    def _elapsed(self):
        if not self.clock:
            return None
        paused = 0 if self.count_paused else self.paused_ms
        return max(self.now - self.origin - paused, 0)

    def start(self, now=None):
        self._allow("start", ("ready",))
        self._read(now)
        if self.window_ms > 0:  # §15.3: the startup wait, from the run's own seed (§12.2)
            d = fm.startup_delay_ms(self.seed, self.window_ms)
            self.window_ms, self.phase = d, "sleeping"
            return {"a": "wait", "delay_ms": d}
        self.attempt, self.phase = 1, "attempting"
        return {"a": "attempt", "attempt": 1}

    def outcome(self, o, now=None, hint=None, kind="error", budget=None):
        self._allow("outcome", ("attempting",))
        self._read(now)
        n = self.attempt
        if o == "success":
            if budget is not None:
                budget.record_success(self.retried)
            self.phase = "done"
            return {"a": "done", "attempts": n}
        if o == "permanent":
            self.phase = "gave_up"
            return {"a": "give_up", "attempts": n, "reason": None}
        if o == "offline":
            self.window_ms = self.backoff.level
            self.pause_since, self.phase = self.now, "paused"
            return {"a": "paused", "max_ms": self.policy.max_backoff_ms}
        step = self.backoff.next(hint=hint, elapsed=self._elapsed(), budget=budget, kind=kind)
        if isinstance(step, m.Retry):
            self.retried, self.window_ms, self.phase = kind, step.delay_ms, "sleeping"
            return {"a": "retry", "attempt": n, "delay_ms": step.delay_ms}
        self.phase = "gave_up"
        return {"a": "give_up", "attempts": n, "reason": step.reason}

    def wake(self, now=None):
        self._allow("wake", ("sleeping",))
        self._read(now)
        self.attempt = min(self.attempt + 1, m.U32_MAX)
        self.phase = "attempting"
        return {"a": "attempt", "attempt": self.attempt}

    def pause(self, reason, now=None):
        self._allow("pause", ("ready", "sleeping"))
        if self.phase == "ready":
            self.window_ms = self.backoff.level
        self._read(now)
        self.pause_since, self.phase = self.now, "paused"
        return {"a": "paused", "max_ms": self.policy.max_backoff_ms if reason == "offline" else None}

    def resume(self, now=None):
        self._allow("resume", ("paused", "sleeping"))
        self._read(now)
        if self.phase == "paused":
            self.paused_ms += self.now - self.pause_since
        self.redraws = min(self.redraws + 1, m.U32_MAX)
        self.phase = "sleeping"
        return {"a": "wait", "delay_ms": pm.resume_delay_ms(self.seed, self.redraws, self.window_ms)}


PHASES = ["ready", "attempting", "sleeping", "paused", "done", "gave_up"]
RETRIED = [None, "error", "timeout"]
RUN_SNAPSHOT_LEN = 100


def snapshot(run):
    """§15 run snapshot: version, reserved, the raw form's 22 words, fingerprint, CRC-32."""
    halves = []
    for x in (run.seed, run.origin, run.now, run.paused_ms, run.pause_since):
        halves += [x & m.MASK32, x >> 32]
    b = run.backoff
    words = halves + list(b.rng.s) + [b.retries, b.level, b.elapsed_ms,
                                     m.GIVE_UP_CODES.get(b.gave_up, 0),
                                     run.attempt, run.redraws, run.window_ms]
    flags = bytes([PHASES.index(run.phase), int(run.clock), int(run.count_paused),
                   RETRIED.index(run.retried)])
    body = bytes([1, 0, 0, 0]) + b"".join(w.to_bytes(4, "little") for w in words) + flags
    body += m.policy_fingerprint(run.policy).to_bytes(4, "little")
    assert len(body) == 96
    return body + m.crc32(body).to_bytes(4, "little")


def restore(run, data):
    """§15: restores `data` into `run` in place, or raises Refused with the §9 name (run unchanged)."""
    if len(data) != RUN_SNAPSHOT_LEN:
        raise Refused("wrong_length")
    if data[0] != 1:
        raise Refused("unknown_version")
    u32 = lambda off: int.from_bytes(data[off:off + 4], "little")  # noqa: E731
    if u32(96) != m.crc32(data[:96]):
        raise Refused("bad_checksum")
    if u32(92) != m.policy_fingerprint(run.policy):
        raise Refused("policy_mismatch")
    w = [u32(4 + 4 * i) for i in range(22)]
    # The raw backoff's checks, by way of §9's restore of the same fields.
    backoff_bytes = (bytes([m.SNAPSHOT_VERSION, w[17] if w[17] <= 255 else 255, 0, 0])
                     + b"".join(x.to_bytes(4, "little") for x in w[10:17])
                     + m.policy_fingerprint(run.policy).to_bytes(4, "little"))
    backoff_bytes += m.crc32(backoff_bytes).to_bytes(4, "little")
    try:
        backoff = m.Backoff.restore(run.policy, backoff_bytes)
    except m.SpecError as e:
        raise Refused(str(e.args[0])) from None
    phase, clock, count_paused, retried = data[88:92]
    j = lambda i: w[2 * i] | (w[2 * i + 1] << 32)  # noqa: E731
    seed, origin, now, paused_ms, pause_since = (j(i) for i in range(5))
    if (phase >= len(PHASES) or clock > 1 or count_paused > 1 or retried >= len(RETRIED)
            or w[20] > m.MAX_DELAY_MS or now < origin or pause_since > now or data[1:4] != b"\0\0\0"):
        raise Refused("invalid_state")
    run.seed, run.origin, run.now, run.paused_ms, run.pause_since = seed, origin, now, paused_ms, pause_since
    run.backoff = backoff
    run.attempt, run.redraws, run.window_ms = w[18], w[19], w[20]
    run.phase, run.clock, run.count_paused, run.retried = (
        PHASES[phase], bool(clock), bool(count_paused), RETRIED[retried])


def hint_of(event):
    h = event.get("hint")
    if h is None:
        return None
    if h == "do_not_retry":
        return m.DO_NOT_RETRY
    return (m.RetryAfter if h == "retry_after" else m.RateLimit)(event["hint_ms"])


def feed(run, event, budget=None):
    """One vector event into the model run: the expectation object it answers."""
    e, now = event["e"], event.get("now")
    if e == "snapshot":
        data = snapshot(run)
        restore(run, data)
        return {"a": "snapshot", "bytes": data.hex()}
    if e == "restore":
        try:
            restore(run, bytes.fromhex(event["bytes"]))
        except Refused as r:
            return {"a": "error", "error": r.name}
        return {"a": "restored"}
    try:
        if e == "start":
            return run.start(now)
        if e == "wake":
            return run.wake(now)
        if e == "resume":
            return run.resume(now)
        if e == "pause":
            return run.pause(event["reason"], now)
        outcome = "retryable" if e == "fail" else e
        return run.outcome(outcome, now, hint_of(event), event.get("kind", "error"), budget)
    except Refused as r:
        return {"a": "error", "error": r.name}
