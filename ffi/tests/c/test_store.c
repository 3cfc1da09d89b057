/* A shared part's stored value (SPEC.md section 19.2) through the C API: the bytes worked out by
 * hand from the SPEC (the fingerprints are zlib's CRC-32 of the configuration words, computed
 * apart), a value decoded into a part of the same configuration, and every refusal by its named
 * status with the struct unchanged. */
#include <stdint.h>
#include <string.h>

#include "check.h"

static void le32(uint8_t *at, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) at[i] = (uint8_t)(v >> (8 * i));
}

static void le64(uint8_t *at, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) at[i] = (uint8_t)(v >> (8 * i));
}

static void test_budget_value(void) {
    sb_budget b, fresh, grpc, before;
    sb_pacer p;
    bool allowed = false;
    uint8_t value[SB_BUDGET_VALUE_SIZE], want[SB_BUDGET_VALUE_SIZE] = {'s', 'b', 1, 1};
    uint32_t tokens = 0;
    CHECK_RC(sb_budget_init_aws_default(&b), SB_OK);
    CHECK_RC(sb_budget_try_acquire(&b, SB_FAILURE_TIMEOUT, &allowed), SB_OK);
    CHECK(allowed);
    CHECK_RC(sb_budget_encode(&b, value), SB_OK);
    /* CRC-32 of [2, 500000, 5000, 10000, 1000], then 500000 - 10000 tokens. */
    le32(want + 4, 0xfea37312u);
    le32(want + 8, 490000u);
    CHECK(memcmp(value, want, sizeof want) == 0);

    CHECK_RC(sb_budget_init_aws_default(&fresh), SB_OK);
    CHECK_RC(sb_budget_decode(&fresh, value, sizeof value), SB_OK);
    CHECK_RC(sb_budget_tokens_milli(&fresh, &tokens), SB_OK);
    CHECK(tokens == 490000u);

    /* Another configuration, length, kind: refused by name, the struct unchanged. */
    CHECK_RC(sb_budget_init_grpc(&grpc, 10, 500), SB_OK);
    before = grpc;
    CHECK_RC(sb_budget_decode(&grpc, value, sizeof value), SB_ERR_STORE_CONFIG);
    CHECK(memcmp(&grpc, &before, sizeof grpc) == 0);
    CHECK(strcmp(sb_status_name(SB_ERR_STORE_CONFIG), "config") == 0);
    CHECK_RC(sb_budget_decode(&fresh, value, sizeof value - 1), SB_ERR_STORE_FORMAT);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    CHECK_RC(sb_pacer_decode(&p, value, sizeof value), SB_ERR_STORE_KIND);
    le32(value + 8, 500001u);
    CHECK_RC(sb_budget_decode(&fresh, value, sizeof value), SB_ERR_STORE_STATE);
    CHECK_RC(sb_budget_encode(NULL, value), SB_ERR_NULL);
    CHECK_RC(sb_budget_encode(&b, NULL), SB_ERR_NULL);
    CHECK_RC(sb_budget_decode(&fresh, NULL, 0), SB_ERR_NULL);
    printf("store: a budget's value as written by hand, decoded, and refused by name\n");
}

static void test_pacer_value(void) {
    sb_pacer p, other, seeded, before;
    sb_pacer_slot slot;
    uint8_t value[SB_PACER_VALUE_SIZE], want[32] = {'s', 'b', 1, 2};
    static const uint8_t tail[16] = {90, 0, 0, 0, 60, 0, 0, 0, 1, 0, 0, 0, 100, 0, 0, 0};
    CHECK_RC(sb_pacer_init(&p, 100, 100, 60, 7), SB_OK);
    CHECK_RC(sb_pacer_assign(&p, 5000, &slot), SB_OK);
    CHECK_RC(sb_pacer_encode(&p, value), SB_OK);
    /* CRC-32 of [100, 90, 60]; latest 5000 ms, tail and reserve second 6; rate 90, 60 s, one
     * return in the tail, capacity 100. */
    le32(want + 4, 0x2e9a390fu);
    le64(want + 8, 5000u);
    le64(want + 16, 6u);
    le64(want + 24, 6u);
    CHECK(memcmp(value, want, sizeof want) == 0);
    CHECK(memcmp(value + 48, tail, sizeof tail) == 0);
    /* Another seed, the same configuration: the stored schedule and generator are taken. */
    CHECK_RC(sb_pacer_init(&seeded, 100, 100, 60, 99), SB_OK);
    CHECK_RC(sb_pacer_decode(&seeded, value, sizeof value), SB_OK);
    CHECK(memcmp(&seeded, &p, sizeof p) == 0);
    CHECK_RC(sb_pacer_init(&other, 100, 0, 60, 7), SB_OK);
    before = other;
    CHECK_RC(sb_pacer_decode(&other, value, sizeof value), SB_ERR_STORE_CONFIG);
    CHECK(memcmp(&other, &before, sizeof other) == 0);
    printf("store: a pacer's value as written by hand, decoded into another seed's pacer\n");
}

static void test_send_rate_value(void) {
    sb_send_rate s, fresh, before;
    sb_send_rate_config config = sb_send_rate_config_default();
    uint8_t value[SB_SEND_RATE_VALUE_SIZE], header[8] = {'s', 'b', 1, 3};
    uint32_t rate = 0;
    CHECK_RC(sb_send_rate_init(&s, &config), SB_OK);
    CHECK_RC(sb_send_rate_answer(&s, 10, NULL, SB_ANSWER_THROTTLED, 0), SB_OK);
    CHECK_RC(sb_send_rate_rate_milli(&s, &rate), SB_OK);
    CHECK_RC(sb_send_rate_encode(&s, value), SB_OK);
    /* CRC-32 of the defaults [1, 1000000000, 20, 500, 10, 250, 0, 2, 60000, 0]; the first word
     * is the rate. */
    le32(header + 4, 0x204e7948u);
    CHECK(memcmp(value, header, sizeof header) == 0);
    CHECK(value[8] == (uint8_t)rate && value[9] == (uint8_t)(rate >> 8));
    CHECK_RC(sb_send_rate_init(&fresh, &config), SB_OK);
    CHECK_RC(sb_send_rate_decode(&fresh, value, sizeof value), SB_OK);
    CHECK(memcmp(&fresh, &s, sizeof s) == 0);
    /* The flag `decreased` (word 5) as 2: no state reaches it. */
    value[8 + 5 * 8] = 2;
    before = fresh;
    CHECK_RC(sb_send_rate_decode(&fresh, value, sizeof value), SB_ERR_STORE_STATE);
    CHECK(memcmp(&fresh, &before, sizeof fresh) == 0);
    config.burst = 3;
    CHECK_RC(sb_send_rate_init(&fresh, &config), SB_OK);
    value[8 + 5 * 8] = 1;
    CHECK_RC(sb_send_rate_decode(&fresh, value, sizeof value), SB_ERR_STORE_CONFIG);
    printf("store: a send rate's value as written by hand, decoded, and refused by name\n");
}

/* The script of SPEC.md section 19.4, typed here from the SPEC: the library's is the same text. */
static void test_script(void) {
    static const char spec[] =
        "local v = redis.call('GET', KEYS[1])\n"
        "local t = redis.call('TIME')\n"
        "local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"
        "if #ARGV == 2 and (v or '') == ARGV[1] then\n"
        "  redis.call('SET', KEYS[1], ARGV[2])\n"
        "  return {1, false, ms}\n"
        "end\n"
        "return {0, v or false, ms}\n";
    CHECK(strcmp(sb_store_script(), spec) == 0);
    CHECK(SB_STORE_BOUND_MS == 50 && SB_STORE_REJOIN_MS == 200 && SB_STORE_MAX_TRIES == 32 && SB_STORE_LATE_LIMIT == 3);
    printf("store: the compare-and-set script is SPEC.md's, byte for byte\n");
}

/* A budget's stored value with `tokens` (AWS defaults: CRC-32 0xfea37312, as above). */
static void budget_value(uint8_t *out, uint32_t tokens) {
    static const uint8_t tag[4] = {'s', 'b', 1, 1};
    memcpy(out, tag, sizeof tag);
    le32(out + 4, 0xfea37312u);
    le32(out + 8, tokens);
}

static uint32_t local_tokens(const sb_store_link *link, sb_store_stats *stats) {
    sb_store_part part = {0};
    uint32_t tokens = 0;
    CHECK_RC(sb_store_link_local(link, &part, stats), SB_OK);
    CHECK_RC(sb_budget_tokens_milli(&part.budget, &tokens), SB_OK);
    return tokens;
}

static uint64_t fleet_ms;

static uint32_t link_state(const sb_store_link *link, uint64_t at, bool *needs) {
    uint32_t state = 99;
    CHECK_RC(sb_store_link_state(link, at, &state, needs, &fleet_ms), SB_OK);
    return state;
}

/* One retry's decision on the state the step gives: the budget's own method. */
static void acquire(sb_store_link *link, sb_store_exchange *ex, sb_store_step *step) {
    bool allowed = false;
    CHECK(step->action == SB_STORE_DECIDE);
    CHECK_RC(sb_budget_try_acquire(&ex->part.budget, SB_FAILURE_ERROR, &allowed), SB_OK);
    CHECK(allowed);
    CHECK_RC(sb_store_decided(link, ex, step), SB_OK);
}

/* The link of SPEC.md sections 19.3 to 19.6 through the C ABI, a budget on the caller's clock:
 * a join publishing the cold start, a conflict decided again on the store's value, a failure
 * deciding alone until the rejoin 200 ms later adopts the fleet's value with them carried in. Each retry costs 5000
 * thousandths of the AWS budget's 500000. */
static void test_link_budget(void) {
    sb_store_part fresh = {0};
    sb_store_link link, before;
    sb_store_exchange ex;
    sb_store_step step;
    sb_store_stats stats;
    uint8_t want[SB_BUDGET_VALUE_SIZE], theirs[SB_BUDGET_VALUE_SIZE];
    bool needs = false;
    CHECK_RC(sb_budget_init_aws_default(&fresh.budget), SB_OK);
    CHECK_RC(sb_store_link_init(&link, SB_STORE_BUDGET, &fresh, SB_STORE_CLOCK_CALLER), SB_OK);
    CHECK(link_state(&link, 0, &needs) == SB_STORE_JOINING && needs);

    /* Joining: read; the key is absent, so the process's own state is decided on and published
     * expecting absent. */
    CHECK_RC(sb_store_begin(&link, &ex, 100, &step), SB_OK);
    CHECK(step.action == SB_STORE_READ);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_VALUE, NULL, 0, false, 5000, &step), SB_OK);
    CHECK(step.now_ms == 100); /* the caller's clock, as given */
    acquire(&link, &ex, &step);
    budget_value(want, 495000u);
    CHECK(step.action == SB_STORE_COMPARE_AND_SET && ex.expected_len == 0);
    CHECK(ex.value_len == SB_BUDGET_VALUE_SIZE && memcmp(ex.value, want, sizeof want) == 0);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_SET, NULL, 0, false, 5001, &step), SB_OK);
    CHECK(step.action == SB_STORE_DONE && step.stored == 1);
    CHECK(link_state(&link, 100, &needs) == SB_STORE_JOINED && needs && fleet_ms == 100);

    /* Joined: decided at once on the value last seen; another process wrote 480000 meanwhile,
     * so the conflict's value is decided on again and expected. */
    CHECK_RC(sb_store_begin(&link, &ex, 200, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE && step.now_ms == 200);
    acquire(&link, &ex, &step);
    CHECK(step.action == SB_STORE_COMPARE_AND_SET && ex.expected_len == SB_BUDGET_VALUE_SIZE);
    CHECK(memcmp(ex.expected, want, sizeof want) == 0);
    budget_value(want, 490000u);
    CHECK(memcmp(ex.value, want, sizeof want) == 0);
    budget_value(theirs, 480000u);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_CONFLICT, theirs, sizeof theirs, true, 6000, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE);
    acquire(&link, &ex, &step);
    budget_value(want, 475000u);
    CHECK(memcmp(ex.expected, theirs, sizeof theirs) == 0 && memcmp(ex.value, want, sizeof want) == 0);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_SET, NULL, 0, false, 6001, &step), SB_OK);
    CHECK(step.action == SB_STORE_DONE && step.stored == 1);
    CHECK(local_tokens(&link, &stats) == 475000u);
    CHECK(stats.decisions == 2 && stats.alone == 0 && stats.conflicts == 1);

    /* A failure: this decision is made alone, and so is every one until 200 ms later. */
    CHECK_RC(sb_store_begin(&link, &ex, 300, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK(step.action == SB_STORE_COMPARE_AND_SET);
    CHECK_RC(sb_store_failed(&link, &ex, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK(step.action == SB_STORE_DONE && step.stored == 0);
    CHECK(link_state(&link, 499, &needs) == SB_STORE_LOCAL && !needs);
    CHECK_RC(sb_store_begin(&link, &ex, 450, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK(step.action == SB_STORE_DONE && step.stored == 0);
    CHECK(local_tokens(&link, &stats) == 465000u);
    CHECK(stats.decisions == 4 && stats.alone == 2 && stats.conflicts == 1);

    /* The rejoin reads the fleet's value, 475000, and takes it with the two retries made alone
     * carried in (SPEC.md section 19.6): 465000. A decision that changes nothing on it still
     * writes, for the value read does not hold those two. */
    CHECK(link_state(&link, 500, &needs) == SB_STORE_LOCAL && needs);
    CHECK_RC(sb_store_begin(&link, &ex, 500, &step), SB_OK);
    CHECK(step.action == SB_STORE_READ);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_VALUE, want, sizeof want, true, 7000, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE);
    CHECK_RC(sb_store_decided(&link, &ex, &step), SB_OK);
    budget_value(theirs, 465000u);
    CHECK(step.action == SB_STORE_COMPARE_AND_SET && memcmp(ex.expected, want, sizeof want) == 0);
    CHECK(memcmp(ex.value, theirs, sizeof theirs) == 0);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_SET, NULL, 0, false, 7001, &step), SB_OK);
    CHECK(step.action == SB_STORE_DONE && step.stored == 1);
    CHECK(local_tokens(&link, &stats) == 465000u && link_state(&link, 500, &needs) == SB_STORE_JOINED);
    CHECK(stats.decisions == 5 && stats.alone == 2 && stats.conflicts == 1);

    /* Refused by name, the link and exchange unchanged. */
    before = link;
    CHECK_RC(sb_store_replied(&link, &ex, 7, NULL, 0, false, 0, &step), SB_ERR_STORE_REPLY);
    CHECK(memcmp(&link, &before, sizeof link) == 0);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_VALUE, NULL, 1, true, 0, &step), SB_ERR_NULL);
    CHECK_RC(sb_store_begin(&link, NULL, 0, &step), SB_ERR_NULL);
    link.state = 3;
    CHECK_RC(sb_store_begin(&link, &ex, 0, &step), SB_ERR_STORE_LINK);
    link = before;
    ex.kind = SB_STORE_PACER;
    CHECK_RC(sb_store_failed(&link, &ex, &step), SB_ERR_STORE_LINK);
    CHECK(memcmp(&link, &before, sizeof link) == 0);
    CHECK_RC(sb_store_link_init(&link, 4, &fresh, SB_STORE_CLOCK_CALLER), SB_ERR_STORE_PART_KIND);
    CHECK_RC(sb_store_link_init(&link, SB_STORE_BUDGET, &fresh, 2), SB_ERR_STORE_CLOCK);
    CHECK_RC(sb_store_link_init(&link, SB_STORE_PACER, &fresh, SB_STORE_CLOCK_CALLER), SB_ERR_BAD_STATE);
    CHECK(strstr(sb_strerror(SB_ERR_STORE_CLOCK), "clock") != NULL);
    CHECK(strstr(sb_strerror(SB_ERR_STORE_PART_KIND), "kind") != NULL);
    printf("store: a link joins, decides again on a conflict, falls back and rejoins\n");
}

/* The store's clock (SPEC.md section 19.3): a decision on a reply is made at the reply's time;
 * the next one at the caller's reading moved by the offset seen then. A late reply costs its
 * decision only; the third in a row (SB_STORE_LATE_LIMIT) makes the link local. */
static void test_link_clock(void) {
    sb_store_part fresh = {0};
    sb_store_link link;
    sb_store_exchange ex;
    sb_store_step step;
    sb_store_stats stats;
    bool needs = false;
    CHECK_RC(sb_budget_init_aws_default(&fresh.budget), SB_OK);
    CHECK_RC(sb_store_link_init(&link, SB_STORE_BUDGET, &fresh, SB_STORE_CLOCK_STORE), SB_OK);
    CHECK_RC(sb_store_begin(&link, &ex, 10, &step), SB_OK);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_VALUE, NULL, 0, false, 5000, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE && step.now_ms == 5000);
    acquire(&link, &ex, &step);
    CHECK_RC(sb_store_replied(&link, &ex, SB_STORE_REPLY_SET, NULL, 0, false, 5003, &step), SB_OK);
    CHECK_RC(sb_store_begin(&link, &ex, 20, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE && step.now_ms == 5013);
    acquire(&link, &ex, &step);
    CHECK_RC(sb_store_timed_out(&link, &ex, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE && step.now_ms == 5013);
    acquire(&link, &ex, &step);
    CHECK(step.action == SB_STORE_DONE && step.stored == 0);
    CHECK(link_state(&link, 30, &needs) == SB_STORE_JOINED);
    CHECK_RC(sb_store_begin(&link, &ex, 30, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK_RC(sb_store_timed_out(&link, &ex, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK(link_state(&link, 30, &needs) == SB_STORE_JOINED);
    CHECK_RC(sb_store_begin(&link, &ex, 40, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK_RC(sb_store_timed_out(&link, &ex, &step), SB_OK);
    acquire(&link, &ex, &step);
    CHECK(link_state(&link, 239, &needs) == SB_STORE_LOCAL && !needs);
    CHECK(local_tokens(&link, &stats) == 480000u);
    CHECK(stats.decisions == 4 && stats.alone == 3 && stats.conflicts == 0);
    /* A decision that did not get its turn at the store is made alone, the link as it stands. */
    CHECK_RC(sb_store_begin_alone(&link, &ex, 2000, &step), SB_OK);
    CHECK(step.action == SB_STORE_DECIDE && step.now_ms == 6993);
    CHECK(link_state(&link, 2000, &needs) == SB_STORE_LOCAL && needs && fleet_ms == 6993);
    printf("store: a link decides on the store's clock; three late replies make it local\n");
}

void test_store(void) {
    test_script();
    test_budget_value();
    test_pacer_value();
    test_send_rate_value();
    test_link_budget();
    test_link_clock();
}
