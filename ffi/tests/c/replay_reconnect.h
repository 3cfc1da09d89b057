/* The reconnect vectors (SPEC.md section 12.3) replayed through sb_reconnect_*, included by
 * replay.c (which defines check() and vec_to_policy()). A build without the reconnect feature
 * answers SB_ERR_UNSUPPORTED and the case is skipped. */
#ifndef REPLAY_RECONNECT_H
#define REPLAY_RECONNECT_H

/* fast_forward's level (SPEC.md section 4.3): grow applied n times, stopping at its fixpoint.
 * level * num / den without a 64-bit division (the firmware links no such helper): with
 * level = q * den + r it is q * num + r * num / den, and r * num < den * num <= 10^9. */
static uint32_t base_delay(const sb_policy *p, uint32_t n) {
    uint64_t level = p->initial_ms;
    for (; n > 0; n--) {
        uint32_t q = (uint32_t)level / p->multiplier_den, r = (uint32_t)level % p->multiplier_den;
        uint64_t next = (uint64_t)q * p->multiplier_num + r * p->multiplier_num / p->multiplier_den;
        if (next > p->max_backoff_ms) next = p->max_backoff_ms;
        if (next == level) break;
        level = next;
    }
    return (uint32_t)level;
}

static void replay_reconnect(vec_stats *st, vec_fail_fn fail, uint32_t ci) {
    const vec_reconnect_case *c = &vec_reconnect_cases[ci];
    sb_policy policy = vec_to_policy(&c->policy);
    sb_reconnect r;
    uint32_t i;
    int32_t rc = sb_reconnect_init(&r, &policy, c->seed);
    if (rc == SB_ERR_UNSUPPORTED && c->status == SB_OK) { /* a build without the loop or strategy */
        st->skipped++;
        return;
    }
    check(st, fail, "reconnect init", c->name, ci, 0, (uint64_t)rc, (uint64_t)c->status);
    for (i = 0; rc == SB_OK && i < c->n_ops; i++) {
        const vec_reconnect_op *op = &vec_reconnect_ops[c->first_op + i];
        uint32_t delay = 0;
        int32_t got = SB_OK;
        if (op->op == 'n') {
            got = sb_reconnect_next(&r, &delay);
        } else if (op->op == 'r') {
            got = sb_reconnect_reset(&r);
        } else { /* the state's fields are the caller's memory: set as fast_forward does */
            r.retries = op->arg < policy.max_retries ? op->arg : policy.max_retries;
            r.level = base_delay(&policy, r.retries);
        }
        check(st, fail, "reconnect status", c->name, ci, i, (uint64_t)got, (uint64_t)op->status);
        check(st, fail, "reconnect delay", c->name, ci, i, got == SB_RETRY ? delay : 0u, op->delay);
        check(st, fail, "reconnect retries", c->name, ci, i, r.retries, op->retries);
    }
}

#endif
