/* Host tests of the C API: every vector file, every NULL argument, every invalid policy field,
 * corrupted snapshots and states, Retry-After strings, budgets, status messages and the version.
 * Compiled as C99 and as C++11, and run under ASan+UBSan and under valgrind. Prints its figures;
 * exits non-zero on any failure. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "steps.h"
#include "vectors_data.h"

/* The check counters, shared with test_names.c, test_rate_limit.c and test_send_rate.c through
 * check.h. */
unsigned checks, failures;

static void on_vector_fail(const char *what, const char *name, uint32_t a, uint32_t b,
                           uint64_t got, uint64_t want) {
    fprintf(stderr, "vector mismatch: %s in %s #%u/%u: got %llu, want %llu\n", what, name,
            (unsigned)a, (unsigned)b, (unsigned long long)got, (unsigned long long)want);
}

/* An independent CRC-32 (IEEE, reflected), to forge snapshots whose checksum is right but whose
 * content is not. */
static uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void reseal(uint8_t *snap) { put_u32(snap + 36, crc32(snap, 36)); }

static void test_vectors(void) {
    vec_stats st = vec_replay_all(on_vector_fail);
    printf("vectors: %u files, %u schedule cases, %u Retry-After values, %u budgets: "
           "%u checks, %u mismatches\n",
           (unsigned)VEC_FILE_COUNT, (unsigned)VEC_CASES_COUNT, (unsigned)VEC_RETRY_AFTERS_COUNT,
           (unsigned)VEC_BUDGET_CASES_COUNT, (unsigned)st.checked, (unsigned)st.failed);
    checks += st.checked;
    failures += st.failed;
    CHECK(st.checked > 10000u);
    CHECK(st.skipped == 0u); /* the default build has every part */
    CHECK(VEC_ALL_FUNCTIONS_COUNT >= 25u);
}

static void test_version(void) {
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", SB_VERSION_MAJOR, SB_VERSION_MINOR,
             SB_VERSION_PATCH);
    CHECK(sb_version() != NULL && strcmp(sb_version(), want) == 0);
    printf("version: header %s, library %s\n", want, sb_version());
}

static void test_strerror(void) {
    uint32_t i, j;
    const char *unknown = sb_strerror(-12345);
    CHECK(unknown != NULL && strcmp(unknown, "unknown status code") == 0);
    for (i = 0; i < VEC_ALL_STATUS_COUNT; i++) {
        const char *m = sb_strerror(vec_all_status[i]);
        CHECK(m != NULL && m[0] != '\0' && strcmp(m, unknown) != 0);
        for (j = 0; j < i; j++) {
            CHECK(vec_all_status[i] != vec_all_status[j]);
            CHECK(strcmp(m, sb_strerror(vec_all_status[j])) != 0);
        }
    }
    CHECK(strcmp(sb_strerror(SB_ERR_POLICY_INITIAL_MS), "initial_ms must be in 1..=2147483647") == 0);
    CHECK(strcmp(sb_strerror(SB_ERR_PARSE_BAD_DAY), "HTTP-date day must be within the month") == 0);
    CHECK(strcmp(sb_strerror(4), unknown) == 0);
    CHECK(strcmp(sb_strerror(INT32_MIN), unknown) == 0);
    CHECK(strcmp(sb_strerror(INT32_MAX), unknown) == 0);
    printf("strerror: %u status codes, each with its own message\n", (unsigned)VEC_ALL_STATUS_COUNT);
}

static void test_null_arguments(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b, before;
    sb_budget budget, budget_before;
    uint32_t out = 7;
    bool allowed = true;
    uint8_t snap[SB_SNAPSHOT_SIZE];
    CHECK_RC(sb_backoff_init(&b, &p, 1), SB_OK);
    CHECK_RC(sb_budget_init_grpc(&budget, 10, 100), SB_OK);
    CHECK_RC(sb_backoff_snapshot(&b, snap), SB_OK);
    before = b;
    budget_before = budget;

    CHECK_RC(sb_policy_validate(NULL), SB_ERR_NULL);
    CHECK_RC(sb_backoff_init(NULL, &p, 1), SB_ERR_NULL);
    CHECK_RC(sb_backoff_init(&b, NULL, 1), SB_ERR_NULL);
    CHECK_RC(sb_backoff_next(NULL, &out), SB_ERR_NULL);
    CHECK_RC(sb_backoff_next(&b, NULL), SB_ERR_NULL);
    CHECK_RC(step_hint(NULL, 5, &out), SB_ERR_NULL);
    CHECK_RC(step_hint(&b, 5, NULL), SB_ERR_NULL);
    CHECK_RC(step_stop(NULL), SB_ERR_NULL);
    CHECK_RC(step_at(NULL, 5, &out), SB_ERR_NULL);
    CHECK_RC(step_at(&b, 5, NULL), SB_ERR_NULL);
    CHECK_RC(step_budget(NULL, &budget, SB_FAILURE_ERROR, &out), SB_ERR_NULL);
    CHECK_RC(step_budget(&b, NULL, SB_FAILURE_ERROR, &out), SB_ERR_NULL);
    CHECK_RC(step_budget(&b, &budget, SB_FAILURE_ERROR, NULL), SB_ERR_NULL);
    CHECK_RC(sb_backoff_reset(NULL), SB_ERR_NULL);
    CHECK_RC(sb_backoff_retries(NULL, &out), SB_ERR_NULL);
    CHECK_RC(sb_backoff_retries(&b, NULL), SB_ERR_NULL);
    CHECK_RC(sb_backoff_snapshot(NULL, snap), SB_ERR_NULL);
    CHECK_RC(sb_backoff_snapshot(&b, NULL), SB_ERR_NULL);
    CHECK_RC(sb_backoff_restore(NULL, &p, snap, SB_SNAPSHOT_SIZE), SB_ERR_NULL);
    CHECK_RC(sb_backoff_restore(&b, NULL, snap, SB_SNAPSHOT_SIZE), SB_ERR_NULL);
    CHECK_RC(sb_backoff_restore(&b, &p, NULL, SB_SNAPSHOT_SIZE), SB_ERR_NULL);
    CHECK_RC(sb_backoff_restore(&b, &p, NULL, 0), SB_ERR_NULL);
    CHECK_RC(sb_budget_init_grpc(NULL, 10, 100), SB_ERR_NULL);
    CHECK_RC(sb_budget_init_aws_quota(NULL, 500, 5, 10, 1), SB_ERR_NULL);
    CHECK_RC(sb_budget_init_aws_default(NULL), SB_ERR_NULL);
    CHECK_RC(sb_budget_record_failure(NULL, SB_FAILURE_ERROR), SB_ERR_NULL);
    CHECK_RC(sb_budget_try_acquire(NULL, SB_FAILURE_ERROR, &allowed), SB_ERR_NULL);
    CHECK_RC(sb_budget_try_acquire(&budget, SB_FAILURE_ERROR, NULL), SB_ERR_NULL);
    CHECK_RC(sb_budget_record_success(NULL, false, SB_FAILURE_ERROR), SB_ERR_NULL);
    CHECK_RC(sb_budget_tokens_milli(NULL, &out), SB_ERR_NULL);
    CHECK_RC(sb_budget_tokens_milli(&budget, NULL), SB_ERR_NULL);
    CHECK_RC(sb_parse_retry_after(NULL, 3, 0, &out), SB_ERR_NULL);
    CHECK_RC(sb_parse_retry_after(NULL, 0, 0, &out), SB_ERR_NULL);
    CHECK_RC(sb_parse_retry_after("120", 3, 0, NULL), SB_ERR_NULL);
    CHECK_RC(sb_parse_grpc_pushback(NULL, 3, &out), SB_ERR_NULL);
    CHECK_RC(sb_parse_grpc_pushback("120", 3, NULL), SB_ERR_NULL);

    CHECK(memcmp(&b, &before, sizeof b) == 0);
    CHECK(memcmp(&budget, &budget_before, sizeof budget) == 0);
    CHECK(out == 7);
    CHECK(allowed == true);
    printf("NULL arguments: every pointer of every function, state untouched\n");
}

typedef struct {
    const char *what;
    void (*corrupt)(sb_policy *);
    int32_t want;
} policy_case;

static void initial_zero(sb_policy *p) { p->initial_ms = 0; }
static void initial_too_big(sb_policy *p) { p->initial_ms = SB_MAX_DELAY_MS + 1u; p->max_backoff_ms = SB_MAX_DELAY_MS; }
static void cap_below_initial(sb_policy *p) { p->max_backoff_ms = p->initial_ms - 1u; }
static void cap_too_big(sb_policy *p) { p->max_backoff_ms = SB_MAX_DELAY_MS + 1u; }
static void cap_zero(sb_policy *p) { p->max_backoff_ms = 0; }
static void num_zero(sb_policy *p) { p->multiplier_num = 0; }
static void den_zero(sb_policy *p) { p->multiplier_den = 0; }
static void den_too_big(sb_policy *p) { p->multiplier_den = 1001; p->multiplier_num = 2000; }
static void below_one(sb_policy *p) { p->multiplier_num = 4; p->multiplier_den = 5; }
static void too_large(sb_policy *p) { p->multiplier_num = 1001; p->multiplier_den = 1; }
static void jitter_ms_above_cap(sb_policy *p) { p->jitter_ms = p->max_backoff_ms + 1u; }
static void spread_too_big(sb_policy *p) { p->jitter = SB_JITTER_PROPORTIONAL; p->spread_per_mille = 1001; }
static void hint_too_big(sb_policy *p) { p->max_hint_ms = SB_MAX_DELAY_MS + 1u; }
static void jitter_unknown(sb_policy *p) { p->jitter = 6; }
static void jitter_wraps(sb_policy *p) { p->jitter = 256u + SB_JITTER_GOOGLE; }
static void deadline_unknown(sb_policy *p) { p->deadline = 2; }
static void first_error_wins(sb_policy *p) { p->initial_ms = 0; p->multiplier_den = 0; p->max_hint_ms = 0xFFFFFFFFu; }

static void test_invalid_policies(void) {
    static const policy_case cases[] = {
        {"initial_ms 0", initial_zero, SB_ERR_POLICY_INITIAL_MS},
        {"initial_ms 2^31", initial_too_big, SB_ERR_POLICY_INITIAL_MS},
        {"cap below initial", cap_below_initial, SB_ERR_POLICY_MAX_BACKOFF_MS},
        {"cap 2^31", cap_too_big, SB_ERR_POLICY_MAX_BACKOFF_MS},
        {"cap 0", cap_zero, SB_ERR_POLICY_MAX_BACKOFF_MS},
        {"multiplier_num 0", num_zero, SB_ERR_POLICY_MULTIPLIER_BELOW_ONE},
        {"den 0", den_zero, SB_ERR_POLICY_MULTIPLIER_DEN},
        {"den 1001", den_too_big, SB_ERR_POLICY_MULTIPLIER_DEN},
        {"multiplier 0.8", below_one, SB_ERR_POLICY_MULTIPLIER_BELOW_ONE},
        {"multiplier 1001", too_large, SB_ERR_POLICY_MULTIPLIER_TOO_LARGE},
        {"jitter_ms above cap", jitter_ms_above_cap, SB_ERR_POLICY_JITTER_MS},
        {"spread 1001", spread_too_big, SB_ERR_POLICY_SPREAD_PER_MILLE},
        {"max_hint_ms 2^31", hint_too_big, SB_ERR_POLICY_MAX_HINT_MS},
        {"jitter 6", jitter_unknown, SB_ERR_POLICY_JITTER},
        {"jitter 257", jitter_wraps, SB_ERR_POLICY_JITTER},
        {"deadline 2", deadline_unknown, SB_ERR_POLICY_DEADLINE},
        {"several fields", first_error_wins, SB_ERR_POLICY_INITIAL_MS},
    };
    sb_policy presets[5];
    size_t i;
    presets[0] = sb_policy_google();
    presets[1] = sb_policy_google_64s();
    presets[2] = sb_policy_aws();
    presets[3] = sb_policy_grpc();
    presets[4] = sb_policy_mobile();
    for (i = 0; i < 5; i++) {
        CHECK_RC(sb_policy_validate(&presets[i]), SB_OK);
    }
    CHECK(presets[0].initial_ms == 1000u && presets[0].max_backoff_ms == 32000u &&
          presets[0].jitter == SB_JITTER_GOOGLE && presets[0].jitter_ms == 1000u &&
          presets[0].max_retries == 10u);
    CHECK(presets[1].max_backoff_ms == 64000u && presets[1].max_hint_ms == SB_DEFAULT_MAX_HINT_MS);
    for (i = 0; i < 5; i++) {
        CHECK(presets[i].max_hint_ms == 300000u); /* one hint limit, whatever the cap */
    }
    CHECK(presets[2].jitter == SB_JITTER_FULL && presets[2].initial_ms == 100u);
    CHECK(presets[3].multiplier_num == 8u && presets[3].multiplier_den == 5u &&
          presets[3].spread_per_mille == 200u);
    /* SPEC.md section 2's table: mobile is 2 s, x2, cap 64 s, 16 retries, equal jitter */
    CHECK(presets[4].initial_ms == 2000u && presets[4].multiplier_num == 2u &&
          presets[4].multiplier_den == 1u && presets[4].max_backoff_ms == 64000u &&
          presets[4].max_retries == 16u && presets[4].jitter == SB_JITTER_EQUAL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_policy p = sb_policy_google();
        sb_backoff b, before;
        uint8_t snap[SB_SNAPSHOT_SIZE];
        sb_policy good = sb_policy_google();
        CHECK_RC(sb_backoff_init(&b, &good, 3), SB_OK);
        CHECK_RC(sb_backoff_snapshot(&b, snap), SB_OK);
        before = b;
        cases[i].corrupt(&p);
        CHECK_RC(sb_policy_validate(&p), cases[i].want);
        CHECK_RC(sb_backoff_init(&b, &p, 3), cases[i].want);
        CHECK_RC(sb_backoff_restore(&b, &p, snap, SB_SNAPSHOT_SIZE), cases[i].want);
        CHECK(memcmp(&b, &before, sizeof b) == 0);
    }
    printf("invalid policies: %u cases, each with its field's code, state untouched\n",
           (unsigned)(sizeof cases / sizeof cases[0]));
}

static void test_snapshots(void) {
    sb_policy p = sb_policy_google();
    sb_policy other = sb_policy_google_64s();
    sb_backoff b, restored, before;
    uint8_t snap[SB_SNAPSHOT_SIZE], bad[SB_SNAPSHOT_SIZE + 1];
    uint32_t d1, d2, i;
    int bit;
    unsigned rejected = 0;
    CHECK_RC(sb_backoff_init(&b, &p, 99), SB_OK);
    CHECK_RC(sb_backoff_next(&b, &d1), SB_RETRY);
    CHECK_RC(sb_backoff_snapshot(&b, snap), SB_OK);
    CHECK_RC(sb_backoff_restore(&restored, &p, snap, SB_SNAPSHOT_SIZE), SB_OK);
    CHECK(memcmp(&restored, &b, sizeof b) == 0);
    CHECK_RC(sb_backoff_next(&b, &d1), SB_RETRY);
    CHECK_RC(sb_backoff_next(&restored, &d2), SB_RETRY);
    CHECK(d1 == d2);
    before = restored;

    /* Every single-bit flip is refused, and the target state is untouched. */
    for (i = 0; i < SB_SNAPSHOT_SIZE; i++) {
        for (bit = 0; bit < 8; bit++) {
            int32_t rc;
            memcpy(bad, snap, SB_SNAPSHOT_SIZE);
            bad[i] ^= (uint8_t)(1u << bit);
            rc = sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE);
            CHECK(rc >= SB_ERR_SNAPSHOT_WRONG_LENGTH && rc <= SB_ERR_SNAPSHOT_INVALID_STATE);
            rejected += rc != SB_OK;
        }
    }
    CHECK(memcmp(&restored, &before, sizeof b) == 0);

    /* Each check, with the checksum re-sealed so that the check itself is what fails. */
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, 0), SB_ERR_SNAPSHOT_WRONG_LENGTH);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE - 1), SB_ERR_SNAPSHOT_WRONG_LENGTH);
    bad[SB_SNAPSHOT_SIZE] = 0;
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE + 1), SB_ERR_SNAPSHOT_WRONG_LENGTH);
    bad[0] = 2;
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_UNKNOWN_VERSION);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    bad[36] ^= 1;
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_BAD_CHECKSUM);
    CHECK_RC(sb_backoff_restore(&restored, &other, snap, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_POLICY_MISMATCH);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    memset(bad + 4, 0, 16);
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_ZERO_RNG_STATE);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    bad[2] = 1;
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_INVALID_STATE);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    bad[1] = 6; /* give-up codes stop at 5 */
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_INVALID_STATE);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    put_u32(bad + 20, 11); /* retries above max_retries 10 */
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_INVALID_STATE);
    memcpy(bad, snap, SB_SNAPSHOT_SIZE);
    put_u32(bad + 24, 999); /* level below initial_ms */
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_INVALID_STATE);
    put_u32(bad + 24, 32001); /* level above the cap */
    reseal(bad);
    CHECK_RC(sb_backoff_restore(&restored, &p, bad, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_INVALID_STATE);
    CHECK(memcmp(&restored, &before, sizeof b) == 0);
    CHECK(rejected == SB_SNAPSHOT_SIZE * 8u);
    printf("snapshots: %u single-bit corruptions and 11 forged snapshots refused\n", rejected);
}

static void test_bad_state(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b, good, before;
    uint32_t out = 5;
    uint8_t snap[SB_SNAPSHOT_SIZE];
    memset(&b, 0, sizeof b); /* never initialised */
    before = b;
    CHECK_RC(sb_backoff_next(&b, &out), SB_ERR_BAD_STATE);
    CHECK_RC(sb_backoff_reset(&b), SB_ERR_BAD_STATE);
    CHECK_RC(sb_backoff_retries(&b, &out), SB_ERR_BAD_STATE);
    CHECK_RC(sb_backoff_snapshot(&b, snap), SB_ERR_BAD_STATE);
    CHECK(memcmp(&b, &before, sizeof b) == 0 && out == 5);

    CHECK_RC(sb_backoff_init(&good, &p, 1), SB_OK);
    b = good;
    b.retries = 11;
    CHECK_RC(sb_backoff_next(&b, &out), SB_ERR_BAD_STATE);
    b = good;
    b.level = 40000;
    CHECK_RC(sb_backoff_next(&b, &out), SB_ERR_BAD_STATE);
    b = good;
    b.gave_up = 9;
    CHECK_RC(sb_backoff_next(&b, &out), SB_ERR_BAD_STATE);
    b = good;
    b.policy.multiplier_den = 0; /* the copied policy was damaged */
    before = b;
    CHECK_RC(sb_backoff_next(&b, &out), SB_ERR_BAD_STATE);
    CHECK(memcmp(&b, &before, sizeof b) == 0 && out == 5);

    {
        sb_budget budget, bb;
        bool allowed = false;
        memset(&budget, 0, sizeof budget);
        CHECK_RC(sb_budget_record_failure(&budget, SB_FAILURE_ERROR), SB_ERR_BAD_STATE);
        CHECK_RC(sb_budget_init_grpc(&budget, 10, 100), SB_OK);
        budget.tokens_milli = 10001;
        bb = budget;
        CHECK_RC(sb_budget_try_acquire(&budget, SB_FAILURE_ERROR, &allowed), SB_ERR_BAD_STATE);
        CHECK_RC(step_budget(&good, &budget, SB_FAILURE_ERROR, &out), SB_ERR_BAD_STATE);
        CHECK(memcmp(&budget, &bb, sizeof budget) == 0 && !allowed && out == 5);
    }
    printf("corrupted state: refused with SB_ERR_BAD_STATE, untouched\n");
}

static void test_steps(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b;
    uint32_t d = 0, retries = 99, i;
    p.max_retries = 3;
    CHECK_RC(sb_backoff_init(&b, &p, 7), SB_OK);
    for (i = 0; i < 3; i++) {
        CHECK_RC(sb_backoff_next(&b, &d), SB_RETRY);
        CHECK(d >= (1000u << i) && d <= (1000u << i) + 1000u);
    }
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(step_hint(&b, 5, &d), SB_GIVE_UP_MAX_RETRIES); /* sticky */
    CHECK_RC(sb_backoff_retries(&b, &retries), SB_OK);
    CHECK(retries == 3u);
    CHECK_RC(sb_backoff_reset(&b), SB_OK);
    CHECK_RC(sb_backoff_retries(&b, &retries), SB_OK);
    CHECK(retries == 0u);
    CHECK_RC(step_hint(&b, 20000, &d), SB_RETRY);
    CHECK(d == 20000u);
    d = 7;
    CHECK_RC(step_hint(&b, p.max_hint_ms + 1u, &d), SB_GIVE_UP_HINT_EXCEEDS_MAX);
    CHECK(d == 7u); /* beyond max_hint_ms: a give-up, never an early return */
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_HINT_EXCEEDS_MAX); /* sticky */
    CHECK_RC(sb_backoff_reset(&b), SB_OK);
    CHECK_RC(step_hint(&b, p.max_hint_ms, &d), SB_RETRY);
    CHECK(d == p.max_hint_ms); /* at the limit: honoured */
    CHECK_RC(step_stop(&b), SB_GIVE_UP_SERVER_STOP);

    p = sb_policy_google();
    p.max_elapsed_ms = 10000;
    CHECK_RC(sb_backoff_init(&b, &p, 7), SB_OK);
    CHECK_RC(step_at(&b, 9500, &d), SB_GIVE_UP_DEADLINE);
    p.deadline = SB_DEADLINE_CLAMP;
    CHECK_RC(sb_backoff_init(&b, &p, 7), SB_OK);
    CHECK_RC(step_at(&b, 9500, &d), SB_RETRY);
    CHECK(d == 500u);

    {
        sb_budget budget, before;
        uint32_t tokens = 0, retried = 0;
        int32_t rc = SB_RETRY;
        sb_backoff b2;
        p = sb_policy_google();
        p.max_retries = 100;
        CHECK_RC(sb_budget_init_grpc(&budget, 10, 100), SB_OK);
        CHECK_RC(sb_backoff_init(&b2, &p, 1), SB_OK);
        before = budget;
        CHECK_RC(step_budget(&b2, &budget, 7, &d), SB_ERR_FAILURE_KIND);
        CHECK(memcmp(&budget, &before, sizeof budget) == 0);
        while (rc == SB_RETRY && retried < 100) {
            rc = step_budget(&b2, &budget, SB_FAILURE_ERROR, &d);
            retried += rc == SB_RETRY;
        }
        CHECK_RC(rc, SB_GIVE_UP_BUDGET);
        CHECK(retried == 4u); /* 10 tokens: retry while more than 5 remain after the failure */
        CHECK_RC(sb_budget_tokens_milli(&budget, &tokens), SB_OK);
        CHECK(tokens == 5000u);
        CHECK_RC(sb_budget_record_success(&budget, true, 5), SB_ERR_FAILURE_KIND);
        CHECK_RC(sb_budget_init_aws_default(&budget), SB_OK);
        CHECK_RC(sb_budget_tokens_milli(&budget, &tokens), SB_OK);
        CHECK(tokens == 500000u);
        CHECK_RC(sb_budget_init_grpc(&budget, 0, 1), SB_ERR_BUDGET_MAX_TOKENS);
        CHECK_RC(sb_budget_init_grpc(&budget, 1001, 1), SB_ERR_BUDGET_MAX_TOKENS);
        CHECK_RC(sb_budget_init_grpc(&budget, 10, 0), SB_ERR_BUDGET_TOKEN_RATIO);
        CHECK_RC(sb_budget_init_grpc(&budget, 10, 10001), SB_ERR_BUDGET_TOKEN_RATIO);
        CHECK_RC(sb_budget_init_aws_quota(&budget, 0, 1, 1, 0), SB_ERR_BUDGET_CAPACITY);
        CHECK_RC(sb_budget_init_aws_quota(&budget, 1000001, 1, 1, 0), SB_ERR_BUDGET_CAPACITY);
        CHECK_RC(sb_budget_init_aws_quota(&budget, 10, 0, 1, 0), SB_ERR_BUDGET_COST);
        CHECK_RC(sb_budget_init_aws_quota(&budget, 10, 1, 11, 0), SB_ERR_BUDGET_COST);
        CHECK_RC(sb_budget_init_aws_quota(&budget, 10, 1, 1, 11), SB_ERR_BUDGET_NO_RETRY_INCREMENT);
        CHECK_RC(sb_budget_tokens_milli(&budget, &tokens), SB_OK); /* untouched by the errors */
        CHECK(tokens == 500000u);
    }
    printf("steps: give-up codes, hints, deadlines, budgets\n");
}

static void test_hints_and_classes(void) {
    uint32_t ms = 0;
    const char buf[] = "120 and then garbage";
    CHECK_RC(sb_parse_retry_after(buf, 3, 0, &ms), SB_OK); /* no NUL needed: only len bytes read */
    CHECK(ms == 120000u);
    CHECK_RC(sb_parse_retry_after(buf, sizeof buf - 1, 0, &ms), SB_ERR_PARSE_INVALID_FORMAT);
    CHECK_RC(sb_parse_retry_after(buf, 0, 0, &ms), SB_ERR_PARSE_EMPTY);
    CHECK_RC(sb_parse_retry_after("-5", 2, 0, &ms), SB_ERR_PARSE_NEGATIVE);
    CHECK_RC(sb_parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 29, 784111777u - 30u, &ms), SB_OK);
    CHECK(ms == 30000u);
    CHECK_RC(sb_parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 29, 784111777u + 30u, &ms), SB_OK);
    CHECK(ms == 0u);
    CHECK_RC(sb_parse_retry_after("Sun, 30 Feb 2025 00:00:00 GMT", 29, 0, &ms), SB_ERR_PARSE_BAD_DAY);
    CHECK_RC(sb_parse_grpc_pushback(" 1500 ", 6, &ms), SB_OK);
    CHECK(ms == 1500u);
    CHECK_RC(sb_parse_grpc_pushback("-1", 2, &ms), SB_ERR_PARSE_NEGATIVE);
    CHECK_RC(sb_parse_grpc_pushback("soon", 4, &ms), SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(ms == 1500u); /* untouched by the errors */
    CHECK_RC(sb_parse_grpc_pushback("99999999999999999999", 20, &ms), SB_OK);
    CHECK(ms == UINT32_MAX); /* saturates */
    CHECK(sb_is_retryable_http(503) && sb_is_retryable_http(429));
    CHECK(!sb_is_retryable_http(404) && !sb_is_retryable_http((uint32_t)-1));
    CHECK(sb_classify_http(204) == SB_CLASS_SUCCESS && sb_classify_grpc(14) == SB_CLASS_RETRY);
    printf("hints and classification: ok\n");
}

/* Where 0 is in a field's range it means something, and does it. */
static void test_zero_values(void) {
    sb_policy p = sb_policy_google(), q;
    sb_backoff b, twin;
    uint32_t d = 7, e = 0, i;
    p.max_retries = 0; /* no retry at all */
    CHECK_RC(sb_backoff_init(&b, &p, 1), SB_OK);
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_MAX_RETRIES);
    p = sb_policy_google();
    p.max_hint_ms = 0; /* only a zero wait is taken: the same delay as without one */
    CHECK_RC(sb_backoff_init(&b, &p, 1), SB_OK);
    twin = b;
    CHECK_RC(step_hint(&b, 0, &d), SB_RETRY);
    CHECK_RC(sb_backoff_next(&twin, &e), SB_RETRY);
    CHECK(d == e && d <= 2000u);
    CHECK_RC(step_hint(&b, 1, &d), SB_GIVE_UP_HINT_EXCEEDS_MAX);
    p = sb_policy_google();
    p.jitter_ms = 0; /* Google jitter of width 0: the plain exponential bases */
    CHECK_RC(sb_backoff_init(&b, &p, 1), SB_OK);
    for (i = 0; i < 5; i++) {
        CHECK_RC(sb_backoff_next(&b, &d), SB_RETRY);
        CHECK(d == (1000u << i));
    }
    q = sb_policy_google();
    q.max_elapsed_ms = 0; /* no time budget: even the largest clock gets its retry */
    CHECK_RC(sb_backoff_init(&b, &q, 1), SB_OK);
    CHECK_RC(step_at(&b, UINT64_MAX, &d), SB_RETRY);
    CHECK(d >= 1000u && d <= 2000u);
    printf("zero values: refused where out of range, meaningful where allowed\n");
}

/* The largest valid values run without wrapping: every delay <= 2^31 - 1, elapsed saturates and
 * the time budget ends it. */
static void test_extreme_valid_policy(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b;
    uint32_t d = 0, steps = 0;
    int32_t rc = SB_RETRY;
    p.initial_ms = SB_MAX_DELAY_MS;
    p.max_backoff_ms = SB_MAX_DELAY_MS;
    p.multiplier_num = 1000;
    p.multiplier_den = 1;
    p.max_retries = UINT32_MAX;
    p.jitter_ms = SB_MAX_DELAY_MS;
    p.max_hint_ms = SB_MAX_DELAY_MS;
    p.max_elapsed_ms = UINT32_MAX;
    CHECK_RC(sb_policy_validate(&p), SB_OK);
    CHECK_RC(sb_backoff_init(&b, &p, 5), SB_OK);
    while (rc == SB_RETRY && steps < 100) {
        rc = sb_backoff_next(&b, &d);
        if (rc == SB_RETRY) {
            CHECK(d == SB_MAX_DELAY_MS); /* min(base + jitter, cap) with base = cap */
            steps++;
        }
    }
    CHECK_RC(rc, SB_GIVE_UP_DEADLINE);
    CHECK(steps == 2u); /* 2 * (2^31 - 1) fits in u32, a third would cross the budget */
    CHECK(b.elapsed_ms == 2u * (uint32_t)SB_MAX_DELAY_MS);
    printf("extreme valid policy: %u delays of 2^31-1, then the deadline\n", (unsigned)steps);
}

/* Retry numbers near u32::MAX, reached through a forged (re-sealed) snapshot since the C API has
 * no fast-forward: retry 2^32 - 2 is answered within the cap, then max_retries ends it. */
static void test_retries_near_u32_max(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b;
    uint8_t snap[SB_SNAPSHOT_SIZE];
    uint32_t d = 0, retries = 0;
    CHECK(SB_RETRY_FOREVER == UINT32_MAX);
    p.max_retries = SB_RETRY_FOREVER;
    CHECK_RC(sb_backoff_init(&b, &p, 11), SB_OK);
    CHECK_RC(sb_backoff_snapshot(&b, snap), SB_OK);
    put_u32(snap + 20, UINT32_MAX - 1u);
    put_u32(snap + 24, p.max_backoff_ms);
    reseal(snap);
    CHECK_RC(sb_backoff_restore(&b, &p, snap, SB_SNAPSHOT_SIZE), SB_OK);
    CHECK_RC(sb_backoff_next(&b, &d), SB_RETRY);
    CHECK(d >= 1u && d <= p.max_backoff_ms);
    CHECK_RC(sb_backoff_retries(&b, &retries), SB_OK);
    CHECK(retries == UINT32_MAX);
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(sb_backoff_retries(&b, &retries), SB_OK);
    CHECK(retries == UINT32_MAX); /* no wrap to 0 */
    printf("retries near u32::MAX (SB_RETRY_FOREVER): retry 2^32-2 within the cap, then max_retries\n");
}

/* The caller's clock near u64::MAX saturates to u32::MAX: a time budget gives up in both deadline
 * modes; without one the retry is given and elapsed stays u32::MAX. */
static void test_elapsed_near_u64_max(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b;
    uint32_t d = 0;
    p.max_elapsed_ms = 60000;
    CHECK_RC(sb_backoff_init(&b, &p, 3), SB_OK);
    CHECK_RC(step_at(&b, UINT64_MAX, &d), SB_GIVE_UP_DEADLINE);
    p.deadline = SB_DEADLINE_CLAMP;
    CHECK_RC(sb_backoff_init(&b, &p, 3), SB_OK);
    CHECK_RC(step_at(&b, UINT64_MAX - 1u, &d), SB_GIVE_UP_DEADLINE);
    p = sb_policy_google();
    CHECK_RC(sb_backoff_init(&b, &p, 3), SB_OK);
    CHECK_RC(step_at(&b, UINT64_MAX, &d), SB_RETRY);
    CHECK(d >= 1000u && d <= 2000u);
    CHECK(b.elapsed_ms == UINT32_MAX);
    CHECK_RC(step_at(&b, (uint64_t)UINT32_MAX + 1u, &d), SB_RETRY);
    CHECK(b.elapsed_ms == UINT32_MAX);
    printf("elapsed near u64::MAX: saturates, deadline in both modes\n");
}

/* Foreign bytes: all-zero and all-0xFF snapshots carry no version 1. */
static void test_foreign_snapshots(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b, before;
    uint8_t bytes[SB_SNAPSHOT_SIZE];
    CHECK_RC(sb_backoff_init(&b, &p, 8), SB_OK);
    before = b;
    memset(bytes, 0, sizeof bytes);
    CHECK_RC(sb_backoff_restore(&b, &p, bytes, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_UNKNOWN_VERSION);
    memset(bytes, 0xFF, sizeof bytes);
    CHECK_RC(sb_backoff_restore(&b, &p, bytes, SB_SNAPSHOT_SIZE), SB_ERR_SNAPSHOT_UNKNOWN_VERSION);
    /* The largest reachable values restore: retries = max_retries, level = cap. */
    CHECK_RC(sb_backoff_snapshot(&b, bytes), SB_OK);
    put_u32(bytes + 20, p.max_retries);
    put_u32(bytes + 24, p.max_backoff_ms);
    reseal(bytes);
    CHECK(memcmp(&b, &before, sizeof b) == 0);
    CHECK_RC(sb_backoff_restore(&b, &p, bytes, SB_SNAPSHOT_SIZE), SB_OK);
    CHECK(b.retries == p.max_retries && b.level == p.max_backoff_ms);
    printf("foreign snapshots: all-zero and all-0xFF refused, the largest reachable state restores\n");
}

/* A given-up state answers every step with its reason and changes nothing: no draw, no budget. */
static void test_given_up_refuses(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b, given_up;
    sb_budget budget, budget_before;
    uint32_t d = 0;
    p.max_retries = 1;
    CHECK_RC(sb_backoff_init(&b, &p, 9), SB_OK);
    CHECK_RC(sb_budget_init_grpc(&budget, 10, 100), SB_OK);
    CHECK_RC(sb_backoff_next(&b, &d), SB_RETRY);
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_MAX_RETRIES);
    given_up = b;
    budget_before = budget;
    CHECK_RC(sb_backoff_next(&b, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(step_hint(&b, 5, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(step_at(&b, 100, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(step_stop(&b), SB_GIVE_UP_MAX_RETRIES);
    CHECK_RC(step_budget(&b, &budget, SB_FAILURE_ERROR, &d), SB_GIVE_UP_MAX_RETRIES);
    CHECK(memcmp(&b, &given_up, sizeof b) == 0);
    CHECK(memcmp(&budget, &budget_before, sizeof budget) == 0);
    {
        /* The give-up itself consumes no draw: after reset the schedule is a twin's. */
        sb_backoff x, y;
        uint32_t dx = 0, dy = 1;
        p = sb_policy_google();
        CHECK_RC(sb_backoff_init(&x, &p, 4), SB_OK);
        y = x;
        CHECK_RC(step_stop(&x), SB_GIVE_UP_SERVER_STOP);
        CHECK_RC(sb_backoff_reset(&x), SB_OK);
        CHECK_RC(sb_backoff_next(&x, &dx), SB_RETRY);
        CHECK_RC(sb_backoff_next(&y, &dy), SB_RETRY);
        CHECK(dx == dy);
    }
    printf("given-up state: every step returns its reason, state and budget untouched\n");
}

static void test_fleet(void) {
    static const uint8_t uid[6] = {0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6};
    uint64_t seed = 7, other = 7;
    uint32_t ms = 5, boot;
    CHECK_RC(sb_seed_from_device(NULL, 0, 1, &seed), SB_ERR_NULL);
    CHECK_RC(sb_seed_from_device(uid, sizeof uid, 1, NULL), SB_ERR_NULL);
    CHECK(seed == 7);
    CHECK_RC(sb_startup_delay(1, 1000, NULL), SB_ERR_NULL);
    CHECK_RC(sb_startup_delay(1, SB_MAX_DELAY_MS + 1u, &ms), SB_ERR_FLEET_WINDOW_MS);
    CHECK(ms == 5); /* untouched on error */
    /* One device, consecutive boots: a different seed each time. */
    for (boot = 0; boot < 1000; boot++) {
        CHECK_RC(sb_seed_from_device(uid, sizeof uid, boot, &seed), SB_OK);
        CHECK(seed != other);
        other = seed;
        CHECK_RC(sb_startup_delay(seed, 60000, &ms), SB_OK);
        CHECK(ms <= 60000u);
    }
    printf("fleet helpers: NULLs, the window's range, 1000 boots with distinct seeds\n");
}

int main(void) {
    test_vectors();
    test_fleet();
    test_version();
    test_strerror();
    test_null_arguments();
    test_invalid_policies();
    test_snapshots();
    test_bad_state();
    test_steps();
    test_hints_and_classes();
    test_zero_values();
    test_extreme_valid_policy();
    test_retries_near_u32_max();
    test_elapsed_near_u64_max();
    test_foreign_snapshots();
    test_given_up_refuses();
    test_names_and_options();
    test_rate_limit();
    test_pacer();
    test_send_rate();
    test_store();
    printf("%s: %u checks, %u failed\n", failures ? "FAIL" : "PASS", checks, failures);
    return failures ? 1 : 0;
}
