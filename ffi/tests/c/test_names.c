/* Host tests of what language bindings use: the name tables they read instead of typing the
 * names again, sb_policy_from_options (the preset-plus-overrides rules they share with the npm
 * package and the CLI) and sb_backoff_next_with's inputs combined in one step. Linked into
 * test_ffi.c's program, whose counters it adds to. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "steps.h"

static int same(const char *a, const char *b) { return a != NULL && strcmp(a, b) == 0; }

/* Counts a table's names: the first NULL ends it. */
static uint32_t count(const char *(*name)(uint32_t)) {
    uint32_t n = 0;
    while (n < 100 && name(n) != NULL) n++;
    return n;
}

static void test_tables(void) {
    CHECK(count(sb_preset_name) == 5);
    CHECK(same(sb_preset_name(SB_PRESET_MOBILE), "mobile"));
    CHECK(same(sb_preset_name(SB_PRESET_GOOGLE_64S), "google_64s"));
    CHECK(same(sb_preset_name(SB_PRESET_AWS), "aws_standard"));
    CHECK(count(sb_jitter_name) == 6);
    CHECK(same(sb_jitter_name(SB_JITTER_NONE), "none"));
    CHECK(same(sb_jitter_name(SB_JITTER_PROPORTIONAL), "proportional"));
    CHECK(count(sb_deadline_name) == 2);
    CHECK(same(sb_deadline_name(SB_DEADLINE_CLAMP), "clamp"));
    CHECK(count(sb_rate_limit_name) == SB_RATE_LIMIT_COUNT);
    CHECK(same(sb_rate_limit_name(SB_RATE_LIMIT_RATELIMIT), "ratelimit"));
    CHECK(same(sb_rate_limit_name(SB_RATE_LIMIT_X_RATELIMIT_RESET), "x-ratelimit-reset"));
    CHECK(sb_jitter_name(UINT32_MAX) == NULL);
    CHECK(same(sb_class_name(SB_CLASS_DO_NOT_RETRY), "do_not_retry"));
    CHECK(same(sb_class_name(sb_classify_http(503)), "retry"));
    CHECK(sb_class_name(4) == NULL && sb_class_name(-1) == NULL);
    CHECK(same(sb_status_name(SB_GIVE_UP_MAX_RETRIES), "max_retries"));
    CHECK(same(sb_status_name(SB_ERR_PARSE_BAD_MONTH), "bad_month"));
    CHECK(same(sb_status_name(SB_ERR_BUDGET_COST), "cost"));
    CHECK(sb_status_name(SB_OK) == NULL && sb_status_name(SB_ERR_NULL) == NULL);
    CHECK(sb_status_name(12345) == NULL);
    CHECK(same(sb_policy_error_field(SB_ERR_POLICY_MULTIPLIER_TOO_LARGE), "multiplier"));
    CHECK(same(sb_policy_error_field(SB_ERR_POLICY_SPREAD_NOT_APPLICABLE), "spread_per_mille"));
    CHECK(sb_policy_error_field(SB_ERR_PARSE_EMPTY) == NULL);
    CHECK(sb_policy_error_field(SB_ERR_POLICY_DEADLINE) == NULL);
}

static void test_options(void) {
    sb_policy values, out, before, google = sb_policy_google();
    memset(&values, 0, sizeof values);
    /* No override: the preset itself. */
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, &values, 0) == SB_OK);
    CHECK(memcmp(&out, &google, sizeof out) == 0);
    /* Choosing Google jitter over the AWS preset brings Google's 1000 ms width. */
    values.jitter = SB_JITTER_GOOGLE;
    CHECK(sb_policy_from_options(&out, SB_PRESET_AWS, &values, SB_OPTION_JITTER) == SB_OK);
    CHECK(out.jitter == SB_JITTER_GOOGLE && out.jitter_ms == 1000 && out.initial_ms == 100);
    /* The hint limit keeps its one default over an overridden cap; the multiplier is reduced. */
    values.max_backoff_ms = 60000;
    values.multiplier_num = 1600;
    values.multiplier_den = 1000;
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, &values,
                                   SB_OPTION_MAX_BACKOFF_MS | SB_OPTION_MULTIPLIER) == SB_OK);
    CHECK(out.max_hint_ms == SB_DEFAULT_MAX_HINT_MS && out.multiplier_num == 8 && out.multiplier_den == 5);
    /* Errors name the field and leave *out alone. */
    before = out;
    values.jitter = SB_JITTER_FULL;
    values.jitter_ms = 5;
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, &values,
                                   SB_OPTION_JITTER | SB_OPTION_JITTER_MS) ==
            SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE);
    CHECK(same(sb_strerror(SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE),
                 "jitter_ms applies only to jitter 'google'"));
    values.initial_ms = 0;
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, &values, SB_OPTION_INITIAL_MS) ==
            SB_ERR_POLICY_INITIAL_MS);
    CHECK(sb_policy_from_options(&out, 5, &values, 0) == SB_ERR_POLICY_PRESET);
    values.deadline = 7;
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, &values, SB_OPTION_DEADLINE) ==
            SB_ERR_POLICY_DEADLINE);
    CHECK(memcmp(&out, &before, sizeof out) == 0);
    CHECK(sb_policy_from_options(NULL, SB_PRESET_GOOGLE, &values, 0) == SB_ERR_NULL);
    CHECK(sb_policy_from_options(&out, SB_PRESET_GOOGLE, NULL, 0) == SB_ERR_NULL);
}

static void test_step_with(void) {
    sb_policy p = sb_policy_google();
    sb_backoff a, b, before;
    sb_budget budget;
    sb_step_input in;
    uint32_t da = 0, db = 0;
    p.max_elapsed_ms = 60000;
    CHECK(sb_backoff_init(&a, &p, 7) == SB_OK && sb_backoff_init(&b, &p, 7) == SB_OK);
    /* One input: a Retry-After of 9 s over the first delay's 1000..2000 ms is the delay. */
    memset(&in, 0, sizeof in);
    in.flags = SB_INPUT_RETRY_AFTER;
    in.retry_after_ms = 9000;
    CHECK(step_hint(&a, 9000, &da) == SB_RETRY && da == 9000u);
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_RETRY && db == 9000u);
    /* A hint and the clock in one step: the clock says the budget is nearly spent. */
    in.flags = SB_INPUT_RETRY_AFTER | SB_INPUT_ELAPSED;
    in.elapsed_ms = 56000;
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_GIVE_UP_DEADLINE);
    /* A budget: NULL or a bad kind is an error that changes nothing. */
    CHECK(sb_budget_init_grpc(&budget, 10, 100) == SB_OK);
    in.flags = SB_INPUT_BUDGET | SB_INPUT_ELAPSED;
    in.elapsed_ms = 1000;
    in.failure_kind = 9;
    before = a;
    CHECK(sb_backoff_next_with(&a, &in, NULL, &da) == SB_ERR_NULL);
    CHECK(sb_backoff_next_with(&a, &in, &budget, &da) == SB_ERR_FAILURE_KIND);
    CHECK(memcmp(&a, &before, sizeof a) == 0);
    in.failure_kind = SB_FAILURE_ERROR;
    CHECK(sb_backoff_next_with(&a, &in, &budget, &da) == SB_RETRY);
    CHECK(budget.tokens_milli == 9000);
    CHECK(sb_backoff_next_with(&a, NULL, &budget, &da) == SB_ERR_NULL);
    in.flags = SB_INPUT_DO_NOT_RETRY;
    CHECK(sb_backoff_next_with(&a, &in, NULL, &da) == SB_GIVE_UP_SERVER_STOP);
}

/* SB_INPUT_RATE_LIMIT: a 429's reset, with the clock and a budget in the same step. */
static void test_step_with_rate_limit(void) {
    sb_policy p = sb_policy_google();
    sb_backoff a, b;
    sb_budget budget;
    sb_step_input in;
    uint32_t da = 0, db = 0;
    p.jitter = SB_JITTER_NONE;
    p.jitter_ms = 0;
    p.max_elapsed_ms = 60000;
    CHECK(sb_backoff_init(&a, &p, 0) == SB_OK && sb_backoff_init(&b, &p, 0) == SB_OK);
    /* Alone. Seed 0, reset 10 s: w = 1000 + 10000 / 10 =
     * 2000; 0x4653DAA3 * 2001 has high word 549 (test_rate_limit.c derives it), so 10549. */
    memset(&in, 0, sizeof in);
    in.flags = SB_INPUT_RATE_LIMIT;
    in.rate_limit_ms = 10000;
    CHECK(step_rate_limit(&a, 10000, &da) == SB_RETRY && da == 10549u);
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_RETRY && db == 10549u);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    /* With a Retry-After too: two hints in one step are refused, and nothing changes. */
    in.flags = SB_INPUT_RATE_LIMIT | SB_INPUT_RETRY_AFTER;
    in.retry_after_ms = 3000;
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_ERR_TWO_HINTS);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    in.flags = SB_INPUT_DO_NOT_RETRY | SB_INPUT_RETRY_AFTER;
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_ERR_TWO_HINTS);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    /* The Retry-After alone: no draw, the 2 s level, a 3 s floor. */
    in.flags = SB_INPUT_RETRY_AFTER;
    CHECK(sb_backoff_next_with(&b, &in, NULL, &db) == SB_RETRY && db == 3000u);
    /* With the budget charged and the clock: one token taken, the 4 s level above 1 s + at most
     * 1.1 s of jitter; then the 8 s level past the time budget gives up (the failure is still
     * recorded, SPEC.md section 5 step 2). */
    CHECK(sb_budget_init_grpc(&budget, 10, 100) == SB_OK);
    in.flags = SB_INPUT_RATE_LIMIT | SB_INPUT_ELAPSED | SB_INPUT_BUDGET;
    in.elapsed_ms = 1000;
    in.failure_kind = SB_FAILURE_ERROR;
    in.rate_limit_ms = 1000;
    CHECK(sb_backoff_next_with(&b, &in, &budget, &db) == SB_RETRY && db == 4000u);
    CHECK(budget.tokens_milli == 9000);
    in.elapsed_ms = 59000;
    CHECK(sb_backoff_next_with(&b, &in, &budget, &db) == SB_GIVE_UP_DEADLINE);
    CHECK(budget.tokens_milli == 8000);
}

static sb_header header(const char *name, const char *value) {
    sb_header h;
    h.name = name;
    h.name_len = strlen(name);
    h.value = value;
    h.value_len = strlen(value);
    return h;
}

/* sb_hint_from_headers: SPEC.md section 8.3 step 1, cases worked out by hand. */
static void test_hint_from_headers(void) {
    sb_header h[3];
    uint32_t flag = 7, ms = 7;
    h[0] = header("Content-Type", "text/plain");
    h[1] = header("x-ratelimit-RESET", "1700000030");
    h[2] = header("Retry-After", "soon");
    /* A 429: the unparseable Retry-After is skipped, the reset is 30 s after now. */
    CHECK(sb_hint_from_headers(429, h, 3, 1700000000u, &flag, &ms) == SB_OK);
    CHECK(flag == SB_INPUT_RATE_LIMIT && ms == 30000u);
    /* A 503 reads no rate-limit header. */
    CHECK(sb_hint_from_headers(503, h, 3, 1700000000u, &flag, &ms) == SB_OK && flag == 0 && ms == 0);
    /* A valid Retry-After wins, for any status; the first of two counts. */
    h[0] = header("RETRY-AFTER", "2");
    CHECK(sb_hint_from_headers(503, h, 3, 1700000000u, &flag, &ms) == SB_OK);
    CHECK(flag == SB_INPUT_RETRY_AFTER && ms == 2000u);
    CHECK(sb_hint_from_headers(429, NULL, 0, 0, &flag, &ms) == SB_OK && flag == 0);
    flag = ms = 7;
    CHECK(sb_hint_from_headers(429, NULL, 1, 0, &flag, &ms) == SB_ERR_NULL && flag == 7 && ms == 7);
    CHECK(sb_hint_from_headers(429, h, 3, 0, NULL, &ms) == SB_ERR_NULL);
    /* RFC 9110 section 9.2.2's idempotent methods, or an Idempotency-Key. */
    CHECK(sb_request_may_retry("GET", 3, false) && sb_request_may_retry("DELETE", 6, false));
    CHECK(!sb_request_may_retry("POST", 4, false) && sb_request_may_retry("POST", 4, true));
    CHECK(!sb_request_may_retry("get", 3, false) && !sb_request_may_retry(NULL, 0, true));
}

/* SPEC.md section 14: 64 runs of one loop, seeded sb_call_seed(seed, i) and stepped interleaved
 * (each fails twice, round robin, as concurrent calls would), wait 64 different schedules, and
 * run 0 waits the schedule of the loop's seed itself. */
static void test_call_seeds(void) {
    enum { CALLS = 64 };
    static sb_run runs[CALLS];
    static uint32_t waits[CALLS][2];
    sb_policy p = sb_policy_google();
    sb_backoff b;
    sb_action act;
    sb_outcome fail = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
    uint32_t i, j, k, distinct = 0, d0 = 0, d1 = 0;
    for (i = 0; i < CALLS; i++) {
        CHECK(sb_run_init(&runs[i], &p, sb_call_seed(42, i), 0) == SB_OK);
        CHECK(sb_run_start(&runs[i], NULL, &act) == SB_OK && act.kind == SB_ACTION_ATTEMPT);
    }
    for (k = 0; k < 2; k++) {
        for (i = 0; i < CALLS; i++) {
            CHECK(sb_run_outcome(&runs[i], &fail, NULL, NULL, &act) == SB_OK);
            CHECK(act.kind == SB_ACTION_RETRY);
            waits[i][k] = act.delay_ms;
            CHECK(sb_run_wake(&runs[i], NULL, &act) == SB_OK);
        }
    }
    for (i = 0; i < CALLS; i++) {
        uint32_t unique = 1;
        for (j = 0; j < i; j++) {
            if (waits[i][0] == waits[j][0] && waits[i][1] == waits[j][1]) unique = 0;
        }
        distinct += unique;
    }
    CHECK(distinct == CALLS);
    CHECK(sb_call_seed(42, 0) == 42u);
    CHECK(sb_backoff_init(&b, &p, 42) == SB_OK);
    CHECK(sb_backoff_next(&b, &d0) == SB_RETRY && sb_backoff_next(&b, &d1) == SB_RETRY);
    CHECK(waits[0][0] == d0 && waits[0][1] == d1);
}

void test_names_and_options(void) {
    unsigned before = checks;
    test_tables();
    test_options();
    test_step_with();
    test_step_with_rate_limit();
    test_hint_from_headers();
    test_call_seeds();
    printf("names, options and combined steps: %u checks\n", checks - before);
}
