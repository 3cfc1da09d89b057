/* Replays the generated vector tables through the C API. Shared by the host tests and the
 * firmware, so the device runs exactly the checks the sanitizers ran. No libc beyond memcmp,
 * memcpy, memset and strcmp. */
#include <string.h>

#include "steps.h"
#include "vectors_data.h"

sb_policy vec_to_policy(const vec_policy *v) {
    sb_policy p;
    memset(&p, 0, sizeof p);
    p.initial_ms = v->initial_ms;
    p.multiplier_num = v->multiplier_num;
    p.multiplier_den = v->multiplier_den;
    p.max_backoff_ms = v->max_backoff_ms;
    p.max_retries = v->max_retries;
    p.jitter = v->jitter;
    p.jitter_ms = v->jitter_ms;
    p.spread_per_mille = v->spread_per_mille;
    p.max_hint_ms = v->max_hint_ms;
    p.max_elapsed_ms = v->max_elapsed_ms;
    p.deadline = v->deadline;
    p.paced = v->paced;
    return p;
}

static void check(vec_stats *st, vec_fail_fn fail, const char *what, const char *name, uint32_t a,
                  uint32_t b, uint64_t got, uint64_t want) {
    st->checked++;
    if (got != want) {
        st->failed++;
        fail(what, name, a, b, got, want);
    }
}

#include "replay_reconnect.h"

static void replay_case(vec_stats *st, vec_fail_fn fail, const vec_schedule *s, uint32_t ci) {
    const vec_case *c = &vec_cases[s->first_case + ci];
    sb_policy policy = vec_to_policy(&s->policy);
    sb_backoff b;
    uint32_t i;
    int32_t init = sb_backoff_init(&b, &policy, c->seed);
    /* A library built without the policy's strategy (or a time budget) refuses it: skipped, and
     * the tests check how many were skipped for each build. */
    if (init == SB_ERR_UNSUPPORTED) {
        st->skipped++;
        return;
    }
    check(st, fail, "init", s->name, ci, 0, (uint64_t)init, SB_OK);
    for (i = 0; i < c->n_ops; i++) {
        const vec_op *op = &vec_ops[c->first_op + i];
        uint32_t delay = 0xFFFFFFFFu;
        int32_t rc;
        switch (op->op) {
        case VEC_OP_NEXT:
            rc = sb_backoff_next(&b, &delay);
            break;
        case VEC_OP_HINT:
            rc = step_hint(&b, (uint32_t)op->arg, &delay);
            break;
        case VEC_OP_RATE_LIMIT:
            rc = step_rate_limit(&b, (uint32_t)op->arg, &delay);
            break;
        case VEC_OP_STOP:
            rc = step_stop(&b);
            break;
        case VEC_OP_AT:
            rc = step_at(&b, op->arg, &delay);
            break;
        case VEC_OP_AT_WIDE:
            rc = step_at(&b, vec_wide_args[op->arg], &delay);
            break;
        case VEC_OP_RESET:
            rc = sb_backoff_reset(&b);
            break;
        default: { /* VEC_OP_SNAPSHOT: snapshot, compare, restore into a fresh state, continue */
            uint8_t bytes[SB_SNAPSHOT_SIZE];
            sb_backoff restored;
            const vec_snapshot *want = &vec_snapshots[op->expect];
            rc = sb_backoff_snapshot(&b, bytes);
            if (rc == SB_ERR_UNSUPPORTED) {
                st->skipped++;
                return;
            }
            check(st, fail, "snapshot status", s->name, ci, i, (uint64_t)rc, SB_OK);
            check(st, fail, "snapshot bytes", s->name, ci, i,
                  (uint64_t)memcmp(bytes, want->bytes, SB_SNAPSHOT_SIZE), 0);
            rc = sb_backoff_restore(&restored, &policy, bytes, SB_SNAPSHOT_SIZE);
            check(st, fail, "restore status", s->name, ci, i, (uint64_t)rc, SB_OK);
            b = restored;
            continue;
        }
        }
        if (rc == SB_ERR_UNSUPPORTED) { /* a step variant this build leaves out */
            st->skipped++;
            return;
        }
        switch (op->expect_kind) {
        case VEC_EXPECT_DELAY:
            check(st, fail, "step status", s->name, ci, i, (uint64_t)rc, SB_RETRY);
            check(st, fail, "delay", s->name, ci, i, delay, op->expect);
            break;
        case VEC_EXPECT_STATUS:
            check(st, fail, "give-up", s->name, ci, i, (uint64_t)rc, op->expect);
            check(st, fail, "delay untouched on give-up", s->name, ci, i, delay, 0xFFFFFFFFu);
            break;
        default:
            check(st, fail, "reset status", s->name, ci, i, (uint64_t)rc, SB_OK);
            break;
        }
    }
}

static void replay_budget(vec_stats *st, vec_fail_fn fail, uint32_t ci) {
    const vec_budget_case *c = &vec_budget_cases[ci];
    sb_budget budget;
    uint32_t i;
    int32_t rc = c->mode == SB_BUDGET_GRPC
                     ? sb_budget_init_grpc(&budget, c->params[0], c->params[1])
                     : sb_budget_init_aws_quota(&budget, c->params[0], c->params[1],
                                                c->params[2], c->params[3]);
    if (rc == SB_ERR_UNSUPPORTED) {
        st->skipped++;
        return;
    }
    check(st, fail, "budget init", "budget", ci, 0, (uint64_t)rc, SB_OK);
    for (i = 0; i < c->n_ops; i++) {
        const vec_budget_op *op = &vec_budget_ops[c->first_op + i];
        bool allowed = true;
        uint32_t tokens = 0;
        switch (op->op) {
        case VEC_B_FAIL_ERROR:
            rc = sb_budget_record_failure(&budget, SB_FAILURE_ERROR);
            break;
        case VEC_B_FAIL_TIMEOUT:
            rc = sb_budget_record_failure(&budget, SB_FAILURE_TIMEOUT);
            break;
        case VEC_B_ACQUIRE_ERROR:
            rc = sb_budget_try_acquire(&budget, SB_FAILURE_ERROR, &allowed);
            break;
        case VEC_B_ACQUIRE_TIMEOUT:
            rc = sb_budget_try_acquire(&budget, SB_FAILURE_TIMEOUT, &allowed);
            break;
        case VEC_B_SUCCESS_FIRST_TRY:
            rc = sb_budget_record_success(&budget, false, SB_FAILURE_ERROR);
            break;
        case VEC_B_SUCCESS_AFTER_ERROR:
            rc = sb_budget_record_success(&budget, true, SB_FAILURE_ERROR);
            break;
        default:
            rc = sb_budget_record_success(&budget, true, SB_FAILURE_TIMEOUT);
            break;
        }
        check(st, fail, "budget op status", "budget", ci, i, (uint64_t)rc, SB_OK);
        check(st, fail, "budget allowed", "budget", ci, i, allowed ? 1u : 0u, op->allowed);
        rc = sb_budget_tokens_milli(&budget, &tokens);
        check(st, fail, "budget tokens status", "budget", ci, i, (uint64_t)rc, SB_OK);
        check(st, fail, "budget tokens", "budget", ci, i, tokens, op->tokens_milli);
    }
}

/* `*same` is set to whether a snapshot's bytes are the vector's; the run then goes on restored
   from them, so that the rest of the case checks the restored run. */
static int32_t run_event(sb_run *r, const sb_policy *policy, sb_budget *budget, sb_send_rate *rate,
                         const vec_run_event *e, sb_action *out, uint32_t *same) {
    sb_outcome o = {SB_OUTCOME_RETRYABLE, e->arg, e->hint_flag, e->hint_ms};
    uint8_t buf[SB_RUN_SNAPSHOT_SIZE];
    int32_t rc;
    uint32_t ms = 0;
    const uint64_t *now = e->has_now ? &e->now : NULL;
    switch (e->event) {
    case VEC_R_RATE_ASK: /* another run's ask of the shared send rate: the pace as an action */
        rc = sb_send_rate_ask(rate, e->now, &ms);
        out->kind = (uint32_t)rc, out->attempt = 0u, out->delay_ms = ms, out->reason = 0u;
        return rc == SB_SEND_RATE_WAIT || rc == SB_SEND_RATE_REFUSE ? SB_OK : rc;
    case VEC_R_RATE_ANSWER: /* another run's answer: the rate after it as an action */
        rc = sb_send_rate_answer(rate, e->now, NULL, e->answer, e->hint_ms);
        if (rc == SB_OK) rc = sb_send_rate_rate_milli(rate, &ms);
        out->kind = 0u, out->attempt = ms, out->delay_ms = 0u, out->reason = 0u;
        return rc;
    case VEC_R_START:
        return rate ? sb_run_start_paced(r, now, rate, out) : sb_run_start(r, now, out);
    case VEC_R_WAKE:
        return rate ? sb_run_wake_paced(r, now, rate, out) : sb_run_wake(r, now, out);
    case VEC_R_SNAPSHOT:
        rc = sb_run_snapshot(r, buf);
        if (rc != SB_OK) return rc;
        *same = e->len == sizeof buf && memcmp(buf, e->bytes, sizeof buf) == 0;
        return sb_run_restore(r, policy, buf, sizeof buf);
    case VEC_R_RESTORE:
        return sb_run_restore(r, policy, e->bytes, e->len);
    case VEC_R_PAUSE:
        return sb_run_pause(r, e->arg, now, out);
    case VEC_R_RESUME:
        return sb_run_resume(r, now, out);
    case VEC_R_SUCCESS:
        o.kind = SB_OUTCOME_SUCCESS;
        break;
    case VEC_R_PERMANENT:
        o.kind = SB_OUTCOME_PERMANENT;
        break;
    case VEC_R_OFFLINE:
        o.kind = SB_OUTCOME_OFFLINE;
        break;
    default:
        break;
    }
    return rate ? sb_run_outcome_paced(r, &o, e->answer, e->hint_ms, now, budget, rate, out)
                : sb_run_outcome(r, &o, now, budget, out);
}

static void replay_run(vec_stats *st, vec_fail_fn fail, uint32_t ci) {
    const vec_run_case *c = &vec_run_cases[ci];
    sb_policy policy = vec_to_policy(&c->policy);
    sb_budget budget;
    sb_run r;
    sb_send_rate rate;
    uint32_t i, tokens = 0, rate_milli = 0;
    int32_t rc = sb_run_init(&r, &policy, c->seed, c->flags);
    if (rc == SB_OK && c->startup_window_ms) rc = sb_run_startup_window(&r, c->startup_window_ms);
    if (rc == SB_OK && c->paced) rc = sb_send_rate_init(&rate, &vec_run_rates[c->paced - 1u].config);
    if (rc == SB_OK && c->has_budget) {
        rc = c->budget_mode == SB_BUDGET_GRPC
                 ? sb_budget_init_grpc(&budget, c->budget_params[0], c->budget_params[1])
                 : sb_budget_init_aws_quota(&budget, c->budget_params[0], c->budget_params[1],
                                            c->budget_params[2], c->budget_params[3]);
    }
    if (rc == SB_ERR_UNSUPPORTED) {
        st->skipped++;
        return;
    }
    check(st, fail, "run init", c->name, ci, 0, (uint64_t)rc, SB_OK);
    for (i = 0; i < c->n_events; i++) {
        const vec_run_event *e = &vec_run_events[c->first_event + i];
        sb_action got = {99u, 99u, 99u, 99u};
        sb_run before = r;
        uint32_t same = 1u;
        rc = run_event(&r, &policy, c->has_budget ? &budget : NULL, c->paced ? &rate : NULL, e, &got, &same);
        if (rc == SB_ERR_UNSUPPORTED && e->status != SB_ERR_UNSUPPORTED) { /* a hint left out */
            st->skipped++;
            return;
        }
        check(st, fail, "run status", c->name, ci, i, (uint64_t)rc, (uint64_t)e->status);
        if (e->status != SB_OK) {
            /* A refused event writes nothing. */
            check(st, fail, "refused run unchanged", c->name, ci, i, memcmp(before.state, r.state, sizeof r.state) == 0, 1u);
            check(st, fail, "refused action unwritten", c->name, ci, i, got.kind, 99u);
            continue;
        }
        check(st, fail, "run snapshot bytes", c->name, ci, i, same, 1u);
        check(st, fail, "run action", c->name, ci, i, got.kind, e->want.kind);
        check(st, fail, "run attempt", c->name, ci, i, got.attempt, e->want.attempt);
        check(st, fail, "run delay", c->name, ci, i, got.delay_ms, e->want.delay_ms);
        check(st, fail, "run reason", c->name, ci, i, got.reason, e->want.reason);
    }
    if (c->has_budget) {
        rc = sb_budget_tokens_milli(&budget, &tokens);
        check(st, fail, "run budget tokens", c->name, ci, 0, tokens, c->tokens_milli);
    }
    if (c->paced) {
        rc = sb_send_rate_rate_milli(&rate, &rate_milli);
        check(st, fail, "run send rate", c->name, ci, 0, rate_milli, vec_run_rates[c->paced - 1u].rate_milli);
    }
}

/* Appends `n` in decimal, at least `digits` digits, at `*at` (SPEC.md section 16.4's forms, written
 * here without printf so the firmware runs it too). */
static void put_dec(char **at, uint32_t n, int digits) {
    char tmp[10];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + n % 10u);
        n /= 10u;
    } while ((n > 0 || k < digits) && k < 10);
    while (k > 0) *(*at)++ = tmp[--k];
}

/* 1 if a slot's header text is SPEC.md section 16.4's for its numbers. */
static uint32_t headers_match(const sb_pacer_slot *s) {
    char want[32], *at = want;
    put_dec(&at, s->retry_after_s, 1);
    *at = 0;
    if (strcmp(want, s->retry_after) != 0) return 0;
    at = want;
    put_dec(&at, s->reset_ms / 1000u, 1);
    *at++ = '.';
    put_dec(&at, s->reset_ms % 1000u, 3);
    *at = 0;
    if (strcmp(want, s->ratelimit_reset) != 0) return 0;
    memcpy(want, "\"pacer\";r=0;t=", 14);
    at = want + 14;
    put_dec(&at, s->retry_after_s, 1);
    *at = 0;
    return strcmp(want, s->ratelimit) == 0;
}

static void replay_pacer(vec_stats *st, vec_fail_fn fail, uint32_t ci) {
    const vec_pacer_case *c = &vec_pacer_cases[ci];
    sb_pacer p, before;
    uint32_t i;
    int32_t rc;
    memset(&p, 0xA5, sizeof p);
    before = p;
    rc = sb_pacer_init(&p, c->capacity_per_s, c->reserve_per_mille, c->max_wait_s, c->seed);
    if (rc == SB_ERR_UNSUPPORTED) {
        st->skipped++;
        return;
    }
    check(st, fail, "pacer init", "pacer", ci, 0, (uint64_t)rc, (uint64_t)c->status);
    if (c->status != SB_OK) {
        check(st, fail, "refused pacer unchanged", "pacer", ci, 0, memcmp(&before, &p, sizeof p) == 0, 1u);
        return;
    }
    for (i = 0; i < c->n_ops; i++) {
        const vec_pacer_op *op = &vec_pacer_ops[c->first_op + i];
        uint64_t now = (uint64_t)op->now_hi << 32 | op->now_lo;
        if (!(op->a & VEC_P_PENDING)) {
            sb_pacer_slot slot;
            rc = sb_pacer_assign(&p, now, &slot);
            check(st, fail, "pacer assign status", "pacer", ci, i, (uint64_t)rc, SB_OK);
            check(st, fail, "pacer retry_after_s", "pacer", ci, i, slot.retry_after_s, op->a & ~VEC_P_FULL);
            check(st, fail, "pacer reset_ms", "pacer", ci, i, slot.reset_ms, op->b);
            check(st, fail, "pacer full", "pacer", ci, i, slot.full ? 1u : 0u, op->a & VEC_P_FULL ? 1u : 0u);
            check(st, fail, "pacer headers", "pacer", ci, i, headers_match(&slot), 1u);
        } else {
            uint64_t pending = UINT64_MAX;
            rc = sb_pacer_pending(&p, now, &pending);
            check(st, fail, "pacer pending status", "pacer", ci, i, (uint64_t)rc, SB_OK);
            check(st, fail, "pacer pending", "pacer", ci, i, pending,
                  (uint64_t)(op->a & 0xFFFFu) << 32 | op->b);
        }
    }
}

vec_stats vec_replay_all(vec_fail_fn fail) {
    vec_stats st = {0, 0, 0};
    uint32_t i, j;
    for (i = 0; i < VEC_SCHEDULES_COUNT; i++) {
        for (j = 0; j < vec_schedules[i].n_cases; j++) {
            replay_case(&st, fail, &vec_schedules[i], j);
        }
    }
    for (i = 0; i < VEC_RETRY_AFTERS_COUNT; i++) {
        const vec_retry_after *v = &vec_retry_afters[i];
        uint32_t ms = 0xFFFFFFFFu;
        int32_t rc = sb_parse_retry_after(v->value, v->len, v->now, &ms);
        if (rc == SB_ERR_UNSUPPORTED) {
            st.skipped++;
            continue;
        }
        check(&st, fail, "retry-after status", v->value, i, 0, (uint64_t)rc, (uint64_t)v->status);
        check(&st, fail, "retry-after ms", v->value, i, 0, ms, v->status == SB_OK ? v->ms : 0xFFFFFFFFu);
    }
    for (i = 0; i < VEC_RATE_LIMITS_COUNT; i++) {
        const vec_rate_limit *v = &vec_rate_limits[i];
        uint32_t ms = 0xFFFFFFFFu;
        int32_t rc = sb_parse_rate_limit(v->header, v->value, v->len, v->now, &ms);
        if (rc == SB_ERR_UNSUPPORTED) {
            st.skipped++;
            continue;
        }
        check(&st, fail, "rate-limit status", v->value, i, v->header, (uint64_t)rc, (uint64_t)v->status);
        check(&st, fail, "rate-limit ms", v->value, i, v->header, ms, v->status == SB_OK ? v->ms : 0xFFFFFFFFu);
    }
    for (i = 0; i < VEC_BUDGET_CASES_COUNT; i++) {
        replay_budget(&st, fail, i);
    }
    for (i = 0; i < VEC_RUN_CASES_COUNT; i++) {
        replay_run(&st, fail, i);
    }
    for (i = 0; i < VEC_PACER_CASES_COUNT; i++) {
        replay_pacer(&st, fail, i);
    }
    for (i = 0; i < VEC_FLEET_SEEDS_COUNT; i++) {
        const vec_fleet_seed *v = &vec_fleet_seeds[i];
        uint64_t seed = 0;
        int32_t rc = sb_seed_from_device((const uint8_t *)v->id, v->len, v->boot_counter, &seed);
        if (rc == SB_ERR_UNSUPPORTED) {
            st.skipped++;
            continue;
        }
        check(&st, fail, "device seed status", "fleet", i, v->boot_counter, (uint64_t)rc, SB_OK);
        check(&st, fail, "device seed", "fleet", i, v->boot_counter, seed, v->seed);
    }
    for (i = 0; i < VEC_STARTUP_DELAYS_COUNT; i++) {
        const vec_startup_delay *v = &vec_startup_delays[i];
        uint32_t ms = 0xFFFFFFFFu;
        int32_t rc = sb_startup_delay(v->seed, v->window_ms, &ms);
        if (rc == SB_ERR_UNSUPPORTED) {
            st.skipped++;
            continue;
        }
        check(&st, fail, "startup delay status", "fleet", i, v->window_ms, (uint64_t)rc,
              (uint64_t)v->status);
        check(&st, fail, "startup delay", "fleet", i, v->window_ms, ms,
              v->status == SB_OK ? v->ms : 0xFFFFFFFFu);
    }
    for (i = 0; i < VEC_CALL_SEEDS_COUNT; i++) {
        const vec_call_seed *v = &vec_call_seeds[i];
        sb_policy google = sb_policy_google();
        sb_backoff b;
        uint64_t seed = sb_call_seed(v->seed, v->index);
        uint32_t k;
        int32_t rc;
        check(&st, fail, "call seed", "call-seeds", i, 0, seed, v->expect);
        rc = sb_backoff_init(&b, &google, seed);
        if (rc == SB_ERR_UNSUPPORTED) { /* a build without Google's jitter */
            st.skipped++;
            continue;
        }
        check(&st, fail, "call seed init", "call-seeds", i, 0, (uint64_t)rc, SB_OK);
        for (k = 0; k < 3; k++) {
            uint32_t delay = 0xFFFFFFFFu;
            int32_t rc = sb_backoff_next(&b, &delay);
            check(&st, fail, "call seed delay", "call-seeds", i, k, rc == SB_RETRY ? delay : 0xFFFFFFFFu,
                  v->google_delays[k]);
        }
    }
    for (i = 0; i < VEC_RECONNECT_CASES_COUNT; i++) {
        replay_reconnect(&st, fail, i);
    }
    for (i = 0; i < VEC_HTTP_COUNT; i++) {
        check(&st, fail, "classify http", "http", i, vec_http[i].code,
              (uint64_t)sb_classify_http(vec_http[i].code), (uint64_t)vec_http[i].cls);
        check(&st, fail, "http retryable", "http", i, vec_http[i].code,
              sb_is_retryable_http(vec_http[i].code) ? 1u : 0u,
              vec_http[i].cls == SB_CLASS_RETRY ? 1u : 0u);
    }
    for (i = 0; i < VEC_GRPC_COUNT; i++) {
        check(&st, fail, "classify grpc", "grpc", i, vec_grpc[i].code,
              (uint64_t)sb_classify_grpc(vec_grpc[i].code), (uint64_t)vec_grpc[i].cls);
    }
    for (i = 0; i < VEC_METHODS_COUNT; i++) {
        check(&st, fail, "request may retry", "methods", i, vec_methods[i].len,
              sb_request_may_retry(vec_methods[i].sent, vec_methods[i].len, false) ? 1u : 0u,
              vec_methods[i].may_retry);
    }
    return st;
}
