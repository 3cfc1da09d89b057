/* Host tests of the rate-limit part of the C API (SPEC.md section 8.3 and section 5 step 6), with
 * values derived by hand from the SPEC. Called by test_ffi.c's main. C99 and C++11. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "steps.h"
#include "vectors.h"

/* Parses `s` (its strlen) as header `kind` at `now`; the status, with *ms as the parser left it. */
static int32_t parse(uint32_t kind, const char *s, uint64_t now, uint32_t *ms) {
    return sb_parse_rate_limit(kind, s, strlen(s), now, ms);
}

static void parsing(void) {
    uint32_t ms = 0;
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "\"default\";r=0;t=30", 0, &ms) == SB_OK && ms == 30000u);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "\"a\";r=5;t=10, \"b\";r=0;t=3", 0, &ms) == SB_OK && ms == 3000u);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "\"a\";r=5;t=10, \"b\";r=6;t=3", 0, &ms) == SB_OK && ms == 10000u);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "limit=100, remaining=0, reset=7", 0, &ms) == SB_OK && ms == 7000u);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "\"a\";r=0", 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, " ", 0, &ms) == SB_ERR_PARSE_EMPTY);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT_RESET, "12", 0, &ms) == SB_OK && ms == 12000u);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER, " 2.5 ", 0, &ms) == SB_OK && ms == 2500u);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "1.2341", 0, &ms) == SB_OK && ms == 1235u);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "0.0001", 0, &ms) == SB_OK && ms == 1u);
    /* 10^9 is a delay (10^12 ms saturates); 10^9 + 1 is a Unix time. */
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "1000000000", 1000000000u, &ms) == SB_OK && ms == UINT32_MAX);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "1000000001", 1000000000u, &ms) == SB_OK && ms == 1000u);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "1700000060", 1700000000u, &ms) == SB_OK && ms == 60000u);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "1700000000", UINT64_MAX, &ms) == SB_OK && ms == 0u);
    ms = 77;
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT_RESET, "", 0, &ms) == SB_ERR_PARSE_EMPTY);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT_RESET, "-1", 0, &ms) == SB_ERR_PARSE_NEGATIVE);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT_RESET, "1.", 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(parse(SB_RATE_LIMIT_COUNT, "5", 0, &ms) == SB_ERR_RATE_LIMIT_HEADER);
    CHECK(parse(UINT32_MAX, "5", 0, &ms) == SB_ERR_RATE_LIMIT_HEADER);
    CHECK(ms == 77u); /* untouched by the errors */
    CHECK(sb_parse_rate_limit(SB_RATE_LIMIT_RATELIMIT_RESET, "30 and garbage", 2, 0, &ms) == SB_OK && ms == 30000u);
    CHECK(sb_parse_rate_limit(SB_RATE_LIMIT_RATELIMIT_RESET, NULL, 2, 0, &ms) == SB_ERR_NULL);
    CHECK(sb_parse_rate_limit(SB_RATE_LIMIT_RATELIMIT_RESET, "5", 1, 0, NULL) == SB_ERR_NULL);
    CHECK(strstr(sb_strerror(SB_ERR_RATE_LIMIT_HEADER), "SB_RATE_LIMIT_") != NULL);
    CHECK(sb_rate_limit_applies(429) && !sb_rate_limit_applies(503) && !sb_rate_limit_applies(200));
    CHECK(!sb_rate_limit_applies(429u + 65536u));
}

static void stepping(void) {
    sb_policy p = sb_policy_google();
    sb_backoff b, before;
    uint32_t d = 0;
    p.jitter = SB_JITTER_NONE;
    p.jitter_ms = 0;
    p.max_retries = 5;
    CHECK(sb_backoff_init(&b, &p, 0) == SB_OK);
    /* Seed 0's first output is 0x4653DAA3; w = 1000 + 10000 / 10 = 2000; 0x4653DAA3 * 2001 =
     * 2360981058579: low word 3044013075 >= 2001 (no rejection), high word 549. */
    CHECK(step_rate_limit(&b, 10000, &d) == SB_RETRY && d == 10549u);
    CHECK(sb_backoff_next(&b, &d) == SB_RETRY && d == 2000u); /* the level grew as without it */
    before = b;
    CHECK(step_rate_limit(NULL, 1, &d) == SB_ERR_NULL);
    CHECK(step_rate_limit(&b, 1, NULL) == SB_ERR_NULL);
    CHECK(memcmp(&b, &before, sizeof b) == 0);
    /* A time budget the hinted delay would cross: a give-up, no draw consumed. */
    p.max_elapsed_ms = 5000;
    CHECK(sb_backoff_init(&b, &p, 0) == SB_OK);
    CHECK(step_rate_limit(&b, 10000, &d) == SB_GIVE_UP_DEADLINE);
}

/* Header bytes at the edges: no byte outside ASCII is a digit or a date (SPEC.md section 8.1), so
 * UTF-8 that encodes a surrogate (what a binding gets from a string with a lone surrogate) or any
 * invalid UTF-8 is invalid_format, except inside a RateLimit quoted string, whose bytes are skipped
 * (section 8.3.3); 400 digits saturate. Codes and budget parameters at their types' limits. */
static void extremes(void) {
    char digits[401];
    uint32_t ms = 77;
    sb_budget budget;
    memset(digits, '9', 400);
    digits[400] = '\0';
    CHECK(sb_parse_retry_after("\xED\xA0\x80", 3, 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(sb_parse_retry_after("12\xED\xB0\x80", 5, 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(sb_parse_retry_after("\xC0\xB1", 2, 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT); /* overlong '1' */
    CHECK(ms == 77u);
    CHECK(sb_parse_retry_after(digits, 400, 0, &ms) == SB_OK && ms == UINT32_MAX);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RESET, "7\xED\xA0\x80", 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT_RESET, "\xEF\xBC\x97", 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT); /* fullwidth 7 */
    /* A byte outside ASCII is invalid_format anywhere (SPEC.md section 8), quoted too. */
    CHECK(parse(SB_RATE_LIMIT_RATELIMIT, "\"\xED\xA0\x80\";r=0;t=7", 0, &ms) == SB_ERR_PARSE_INVALID_FORMAT);
    CHECK(parse(SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER, digits, 0, &ms) == SB_OK && ms == UINT32_MAX);
    CHECK(sb_classify_grpc(UINT32_MAX) == SB_CLASS_INVALID && sb_classify_http(UINT32_MAX) == SB_CLASS_INVALID);
    CHECK(!sb_rate_limit_applies(UINT32_MAX) && !sb_is_retryable_http(UINT32_MAX));
    CHECK(sb_budget_init_grpc(&budget, 10, UINT32_MAX) == SB_ERR_BUDGET_TOKEN_RATIO);
    CHECK(sb_budget_init_grpc(&budget, UINT32_MAX, 100) == SB_ERR_BUDGET_MAX_TOKENS);
    CHECK(sb_budget_init_aws_quota(&budget, UINT32_MAX, 5, 10, 1) == SB_ERR_BUDGET_CAPACITY);
}

/* Runs the rate-limit tests, counted in test_ffi.c's totals (check.h). */
void test_rate_limit(void) {
    unsigned checks_before = checks, failures_before = failures;
    parsing();
    stepping();
    extremes();
    printf("rate-limit headers and hint: %u checks, %u failed\n", checks - checks_before,
           failures - failures_before);
}
