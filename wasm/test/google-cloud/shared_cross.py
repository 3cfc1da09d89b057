"""The Python side of shared-store.test.mjs's cross-binding check (SPEC.md section 19.2):
`write PREFIX` makes a send rate, a budget and a pacer under PREFIX:rate, PREFIX:budget and
PREFIX:pacer through the Python package's shared parts; `read PREFIX` decodes those keys with the
C library (sb_*_decode into local parts of the same configuration) and prints what they hold.

usage: python shared_cross.py PORT write|read PREFIX"""

import json
import sys

import valkey

from seeded_backoff._ffi import lib
from seeded_backoff.budget import RetryBudget
from seeded_backoff.pacer import Pacer
from seeded_backoff.send_rate import SendRate
from seeded_backoff.shared import SharedBudget, SharedPacer, SharedSendRate

port, mode, prefix = int(sys.argv[1]), sys.argv[2], sys.argv[3]
client = valkey.Valkey(port=port)
wide = {"bound_ms": 5000}


def parts():
    return SendRate(min_rate_milli=1000), RetryBudget.aws_default(), Pacer(10, seed=3)


if mode == "write":
    rate, budget, pacer = parts()
    shared_rate = SharedSendRate(client, f"{prefix}:rate", rate, store_clock=False, **wide)
    shared_budget = SharedBudget(client, f"{prefix}:budget", budget, **wide)
    shared_pacer = SharedPacer(client, f"{prefix}:pacer", pacer, store_clock=False, **wide)
    shared_rate.answer(0, "throttled")
    for i in range(1, 10):
        shared_rate.answer(i * 10, "accepted")
    for _ in range(3):
        assert shared_budget.try_acquire()
    for _ in range(5):
        shared_pacer.assign(0)
    assert shared_rate.stats["alone"] == shared_budget.stats["alone"] == shared_pacer.stats["alone"] == 0
else:
    rate, budget, pacer = parts()
    for name, part, decode in (("rate", rate, lib.sb_send_rate_decode), ("budget", budget, lib.sb_budget_decode),
                               ("pacer", pacer, lib.sb_pacer_decode)):
        value = client.get(f"{prefix}:{name}")
        assert decode(part._c, value, len(value)) == lib.SB_OK, name
    print(json.dumps({"rate_milli": rate.rate_milli, "tokens_milli": budget.tokens_milli, "pending": pacer.pending(0)}))
