/* Host tests of the send rate's C API (SPEC.md section 17): every case of
 * tests/vectors/send-rate.json replayed through sb_send_rate_*, every configuration error named by
 * its field with the state unchanged, NULLs, answer kinds and corrupted states. Called by
 * test_ffi.c's main. C99 and C++11. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#define VEC_SEND_RATE_TABLES
#include "vectors_data.h"

static int32_t replay_event(sb_send_rate *s, const vec_send_rate_event *e, uint32_t *got) {
    uint32_t ms = 0xFFFFFFFFu;
    int32_t rc;
    switch (e->event) {
    case VEC_S_ASK:
        rc = sb_send_rate_ask(s, e->now, &ms);
        *got = ms;
        return rc;
    case VEC_S_ACCEPTED:
        rc = sb_send_rate_answer(s, e->now, NULL, SB_ANSWER_ACCEPTED, 0);
        break;
    case VEC_S_THROTTLED:
        rc = sb_send_rate_answer(s, e->now, NULL, SB_ANSWER_THROTTLED, e->hint_ms);
        break;
    default:
        rc = sb_send_rate_answer(s, e->now, NULL, SB_ANSWER_NO_ANSWER, 0);
        break;
    }
    if (rc == SB_OK) {
        rc = sb_send_rate_rate_milli(s, got);
    }
    return rc;
}

static void replay(void) {
    uint32_t ci, i, events = 0, mismatches = 0;
    for (ci = 0; ci < VEC_SEND_RATE_CASES_COUNT; ci++) {
        const vec_send_rate_case *c = &vec_send_rate_cases[ci];
        sb_send_rate s;
        CHECK_RC(sb_send_rate_init(&s, &c->config), SB_OK);
        for (i = 0; i < c->n_events; i++) {
            const vec_send_rate_event *e = &vec_send_rate_events[c->first_event + i];
            uint32_t got = 0xFFFFFFFFu;
            int32_t rc = replay_event(&s, e, &got);
            checks++;
            events++;
            if (rc != e->status || got != e->want) {
                failures++;
                mismatches++;
                fprintf(stderr, "send-rate vector %s event %u: got %d/%u, want %d/%u\n", c->name,
                        (unsigned)i, (int)rc, (unsigned)got, (int)e->status, (unsigned)e->want);
            }
        }
    }
    CHECK(events > 1000u);
    printf("send-rate vectors: %u cases, %u events, %u mismatches; %u configuration errors\n",
           (unsigned)VEC_SEND_RATE_CASES_COUNT, (unsigned)events, (unsigned)mismatches,
           (unsigned)VEC_SEND_RATE_ERRORS_COUNT);
}

static void bad_configs(void) {
    uint32_t i;
    sb_send_rate_config d = sb_send_rate_config_default();
    sb_send_rate s, before;
    memset(&s, 0x5a, sizeof s);
    before = s;
    for (i = 0; i < VEC_SEND_RATE_ERRORS_COUNT; i++) {
        const vec_send_rate_error *v = &vec_send_rate_errors[i];
        CHECK_RC(sb_send_rate_init(&s, &v->config), v->status);
        CHECK(memcmp(&s, &before, sizeof s) == 0);
    }
    CHECK(VEC_SEND_RATE_ERRORS_COUNT >= 9u);
    /* Each message names its field (SPEC.md section 17.1's ranges, written out here). */
    d.burst = 0;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_ERR_SEND_RATE_BURST);
    CHECK(strstr(sb_strerror(SB_ERR_SEND_RATE_BURST), "burst") != NULL);
    d = sb_send_rate_config_default();
    d.min_rate_milli = 11;
    d.max_rate_milli = 10;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_ERR_SEND_RATE_MIN_RATE_MILLI);
    CHECK(strstr(sb_strerror(SB_ERR_SEND_RATE_MIN_RATE_MILLI), "min_rate_milli") != NULL);
    d = sb_send_rate_config_default();
    d.max_hold_ms = 3600001u;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_ERR_SEND_RATE_MAX_HOLD_MS);
    CHECK(strstr(sb_strerror(SB_ERR_SEND_RATE_MAX_HOLD_MS), "max_hold_ms") != NULL);
    CHECK(memcmp(&s, &before, sizeof s) == 0);
    /* The defaults of section 17.1. */
    d = sb_send_rate_config_default();
    CHECK(d.max_rate_milli == 1000000000u && d.min_rate_milli == 1u && d.margin_permille == 20u &&
          d.probe_ms == 500u && d.probe_first_permille == 10u && d.probe_max_permille == 250u &&
          d.guard_ms == 0u && d.burst == 2u && d.max_hold_ms == 60000u && d.fail_fast == 0u);
}

static void bad_calls(void) {
    sb_send_rate_config d = sb_send_rate_config_default();
    sb_send_rate s, before;
    uint32_t ms = 7u, rate = 7u;
    CHECK_RC(sb_send_rate_init(NULL, &d), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_init(&s, NULL), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_init(&s, &d), SB_OK);
    CHECK_RC(sb_send_rate_ask(NULL, 0, &ms), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_ask(&s, 0, NULL), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_answer(NULL, 0, NULL, SB_ANSWER_ACCEPTED, 0), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_rate_milli(NULL, &rate), SB_ERR_NULL);
    CHECK_RC(sb_send_rate_rate_milli(&s, NULL), SB_ERR_NULL);
    before = s;
    CHECK_RC(sb_send_rate_answer(&s, 5, NULL, 3u, 0), SB_ERR_SEND_RATE_ANSWER_KIND);
    CHECK(memcmp(&s, &before, sizeof s) == 0);
    /* A 1 s hint while off: every ask before now + 1000 waits for the hint, then one goes. */
    CHECK_RC(sb_send_rate_answer(&s, 10, NULL, SB_ANSWER_THROTTLED, 1000), SB_OK);
    CHECK_RC(sb_send_rate_ask(&s, 10, &ms), SB_SEND_RATE_WAIT);
    CHECK(ms == 1000u);
    CHECK_RC(sb_send_rate_ask(&s, 1009, &ms), SB_SEND_RATE_WAIT);
    CHECK(ms == 1u);
    CHECK_RC(sb_send_rate_ask(&s, 1010, &ms), SB_OK);
    CHECK(ms == 0u);
    /* Corrupted states: a flag of 2, a rate above max_rate_milli, fail_fast of 2. */
    before = s;
    s.state[5] = 2u;
    CHECK_RC(sb_send_rate_ask(&s, 2000, &ms), SB_ERR_BAD_STATE);
    s = before;
    s.state[0] = UINT64_C(2000000000);
    CHECK_RC(sb_send_rate_rate_milli(&s, &rate), SB_ERR_BAD_STATE);
    s = before;
    s.config.fail_fast = 2u;
    CHECK_RC(sb_send_rate_answer(&s, 2000, NULL, SB_ANSWER_ACCEPTED, 0), SB_ERR_BAD_STATE);
    s = before;
    s.config.burst = 0u;
    CHECK_RC(sb_send_rate_answer(&s, 2000, NULL, SB_ANSWER_ACCEPTED, 0), SB_ERR_BAD_STATE);
    /* fail_fast: a nonzero value turns it on, stored as 1. */
    d.fail_fast = 7u;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_OK);
    CHECK(s.config.fail_fast == 1u);
    CHECK_RC(sb_send_rate_answer(&s, 0, NULL, SB_ANSWER_THROTTLED, 500), SB_OK);
    CHECK_RC(sb_send_rate_ask(&s, 100, &ms), SB_SEND_RATE_REFUSE);
    CHECK(ms == 400u);
}

/* What an HTTP response tells the send rate (SPEC.md section 17.3), each case from its table: a
 * 429 throttles with or without a hint, a 503 only with a Retry-After or rate-limit hint. */
static void answers_from_http(void) {
    static const struct { uint16_t status; uint32_t flag, ms, kind, hint_ms; } cases[] = {
        {429u, 0u, 0u, SB_ANSWER_THROTTLED, 0u},
        {429u, SB_INPUT_RETRY_AFTER, 1500u, SB_ANSWER_THROTTLED, 1500u},
        {429u, SB_INPUT_DO_NOT_RETRY, 0u, SB_ANSWER_THROTTLED, 0u},
        {503u, 0u, 0u, SB_ANSWER_ACCEPTED, 0u},
        {503u, SB_INPUT_RATE_LIMIT, 2000u, SB_ANSWER_THROTTLED, 2000u},
        {503u, SB_INPUT_DO_NOT_RETRY, 0u, SB_ANSWER_ACCEPTED, 0u},
        {500u, SB_INPUT_RETRY_AFTER, 1000u, SB_ANSWER_ACCEPTED, 0u},
        {200u, 0u, 0u, SB_ANSWER_ACCEPTED, 0u},
    };
    uint32_t kind = 99u, ms = 99u;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_RC(sb_answer_from_http(cases[i].status, cases[i].flag, cases[i].ms, &kind, &ms), SB_OK);
        CHECK(kind == cases[i].kind && ms == cases[i].hint_ms);
    }
    kind = 99u, ms = 99u;
    CHECK_RC(sb_answer_from_http(429u, 7u, 0u, &kind, &ms), SB_ERR_TWO_HINTS);
    CHECK_RC(sb_answer_from_http(429u, 0u, 0u, NULL, &ms), SB_ERR_NULL);
    CHECK_RC(sb_answer_from_http(429u, 0u, 0u, &kind, NULL), SB_ERR_NULL);
    CHECK(kind == 99u && ms == 99u);
}

/* The paced run's bad calls (SPEC.md section 15.2): each refused by name, run and rate unchanged. */
static void paced_run_bad_calls(void) {
    sb_send_rate_config d = sb_send_rate_config_default();
    sb_policy p = sb_policy_google();
    sb_send_rate s, s_before;
    sb_run r, r_before;
    sb_action a = {99u, 99u, 99u, 99u};
    sb_outcome ok = {SB_OUTCOME_SUCCESS, 0u, 0u, 0u};
    const uint64_t t0 = 0u, t10 = 10u;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_OK);
    CHECK_RC(sb_run_init(&r, &p, 7u, 0u), SB_OK);
    s_before = s, r_before = r;
    CHECK_RC(sb_run_start_paced(&r, &t0, NULL, &a), SB_ERR_NULL);
    CHECK_RC(sb_run_start_paced(&r, &t0, &s, NULL), SB_ERR_NULL);
    CHECK_RC(sb_run_start_paced(&r, NULL, &s, &a), SB_ERR_RUN_NO_CLOCK);
    CHECK_RC(sb_run_wake_paced(&r, &t0, &s, &a), SB_ERR_RUN_WAKE);
    CHECK_RC(sb_run_outcome_paced(&r, &ok, SB_ANSWER_FROM_OUTCOME, 0u, &t0, NULL, &s, &a), SB_ERR_RUN_OUTCOME);
    CHECK(memcmp(&s, &s_before, sizeof s) == 0 && memcmp(&r, &r_before, sizeof r) == 0 && a.kind == 99u);
    CHECK(strcmp(sb_status_name(SB_ERR_RUN_NO_CLOCK), "no_clock") == 0);
    CHECK(strcmp(sb_status_name(SB_GIVE_UP_THROTTLED), "throttled") == 0);
    CHECK_RC(sb_run_start_paced(&r, &t0, &s, &a), SB_OK);
    CHECK(a.kind == SB_ACTION_ATTEMPT && a.attempt == 1u);
    s_before = s, r_before = r;
    CHECK_RC(sb_run_outcome_paced(&r, &ok, 7u, 0u, &t10, NULL, &s, &a), SB_ERR_SEND_RATE_ANSWER_KIND);
    s.state[5] = 2u; /* a corrupted send rate */
    CHECK_RC(sb_run_outcome_paced(&r, &ok, SB_ANSWER_ACCEPTED, 0u, &t10, NULL, &s, &a), SB_ERR_BAD_STATE);
    s.state[5] = s_before.state[5];
    CHECK(memcmp(&s, &s_before, sizeof s) == 0 && memcmp(&r, &r_before, sizeof r) == 0);
    CHECK_RC(sb_run_outcome_paced(&r, &ok, SB_ANSWER_THROTTLED, 500u, &t10, NULL, &s, &a), SB_OK);
    CHECK(a.kind == SB_ACTION_DONE && a.attempt == 1u);
    CHECK(memcmp(&s, &s_before, sizeof s) != 0); /* the throttle was heard */
}

/* SPEC.md section 17.5: an answer given its send time; a throttle of an attempt sent before the
   last cut cuts nothing (the core's doc example, by hand: 100/s less 2 %, then 98.04/s less 2 %). */
static void answers_with_sent_times(void) {
    sb_send_rate_config d = sb_send_rate_config_default();
    sb_send_rate s;
    uint32_t rate = 0u;
    uint64_t t, sent;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_OK);
    for (t = 0u; t < 100u; t++) CHECK_RC(sb_send_rate_answer(&s, t * 10u, NULL, SB_ANSWER_ACCEPTED, 0u), SB_OK);
    CHECK_RC(sb_send_rate_answer(&s, 1000u, NULL, SB_ANSWER_THROTTLED, 0u), SB_OK);
    CHECK_RC(sb_send_rate_rate_milli(&s, &rate), SB_OK);
    CHECK(rate == 98000u);
    sent = 990u; /* before the cut at 1000: the old rate's answer */
    CHECK_RC(sb_send_rate_answer(&s, 1010u, &sent, SB_ANSWER_THROTTLED, 0u), SB_OK);
    CHECK_RC(sb_send_rate_rate_milli(&s, &rate), SB_OK);
    CHECK(rate == 98000u);
    sent = 1000u; /* with the cut: the new rate's answer cuts it */
    CHECK_RC(sb_send_rate_answer(&s, 1020u, &sent, SB_ANSWER_THROTTLED, 0u), SB_OK);
    CHECK_RC(sb_send_rate_rate_milli(&s, &rate), SB_OK);
    CHECK(rate == 96040u);
}

/* SPEC.md section 15: a run's clock takes every u64, UINT64_MAX included (it is no "no clock"
   value): a paced start at UINT64_MAX goes, and later events may then leave now_ms NULL. */
static void a_run_reads_the_top_of_the_clock(void) {
    sb_send_rate_config d = sb_send_rate_config_default();
    sb_policy p = sb_policy_google();
    sb_send_rate s;
    sb_run r;
    sb_action a = {99u, 99u, 99u, 99u};
    sb_outcome failed = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0u, 0u};
    const uint64_t top = UINT64_MAX;
    CHECK_RC(sb_send_rate_init(&s, &d), SB_OK);
    CHECK_RC(sb_run_init(&r, &p, 7u, 0u), SB_OK);
    CHECK_RC(sb_run_start_paced(&r, &top, &s, &a), SB_OK);
    CHECK(a.kind == SB_ACTION_ATTEMPT && a.attempt == 1u);
    CHECK_RC(sb_run_outcome_paced(&r, &failed, SB_ANSWER_FROM_OUTCOME, 0u, NULL, NULL, &s, &a), SB_OK);
    CHECK(a.kind == SB_ACTION_RETRY && a.attempt == 1u);
    CHECK_RC(sb_run_wake_paced(&r, &top, &s, &a), SB_OK);
    CHECK(a.kind == SB_ACTION_ATTEMPT && a.attempt == 2u);
}

void test_send_rate(void) {
    replay();
    bad_configs();
    answers_with_sent_times();
    a_run_reads_the_top_of_the_clock();
    bad_calls();
    paced_run_bad_calls();
    answers_from_http();
}
