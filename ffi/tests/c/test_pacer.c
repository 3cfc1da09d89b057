/* The server pacer (SPEC.md section 16) through the C API: each refused configuration by its named
 * status, NULLs and corrupted state (nothing written), and slots and header text worked out by
 * hand from the SPEC. The vectors (tests/vectors/pacer.json) are replayed by replay.c. */
#include <stdint.h>
#include <string.h>

#include "check.h"

static void test_pacer_bad_config(void) {
    static const struct {
        uint32_t capacity_per_s, reserve_per_mille, max_wait_s;
        int32_t status;
        const char *field;
    } bad[] = {
        {0, 0, 60, SB_ERR_PACER_CAPACITY_PER_S, "capacity_per_s"},
        {1000001, 0, 60, SB_ERR_PACER_CAPACITY_PER_S, "capacity_per_s"},
        {100, 1000, 60, SB_ERR_PACER_RESERVE_PER_MILLE, "reserve_per_mille"},
        {100, 0, 0, SB_ERR_PACER_MAX_WAIT_S, "max_wait_s"},
        {100, 0, 86401, SB_ERR_PACER_MAX_WAIT_S, "max_wait_s"},
        /* Checked in the table's order: the first bad field is the one named. */
        {0, 1000, 0, SB_ERR_PACER_CAPACITY_PER_S, "capacity_per_s"},
        {100, 1000, 0, SB_ERR_PACER_RESERVE_PER_MILLE, "reserve_per_mille"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_pacer p, before;
        const char *name;
        memset(&p, 0x5A, sizeof p);
        before = p;
        CHECK_RC(sb_pacer_init(&p, bad[i].capacity_per_s, bad[i].reserve_per_mille, bad[i].max_wait_s, 1),
                 bad[i].status);
        CHECK(memcmp(&p, &before, sizeof p) == 0);
        name = sb_status_name(bad[i].status);
        CHECK(name != NULL && strcmp(name, bad[i].field) == 0);
        CHECK(strstr(sb_strerror(bad[i].status), bad[i].field) != NULL);
    }
    printf("pacer: %u refused configurations, each by its field, the struct unchanged\n",
           (unsigned)(sizeof bad / sizeof bad[0]));
}

static void test_pacer_null_and_bad_state(void) {
    sb_pacer p, before;
    sb_pacer_slot slot;
    uint64_t pending = 7;
    CHECK_RC(sb_pacer_init(NULL, 100, 0, 60, 1), SB_ERR_NULL);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    before = p;
    memset(&slot, 0x11, sizeof slot);
    CHECK_RC(sb_pacer_assign(NULL, 0, &slot), SB_ERR_NULL);
    CHECK_RC(sb_pacer_assign(&p, 0, NULL), SB_ERR_NULL);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK(slot.retry_after_s == 0x11111111u);
    CHECK_RC(sb_pacer_pending(NULL, 0, &pending), SB_ERR_NULL);
    CHECK_RC(sb_pacer_pending(&p, 0, NULL), SB_ERR_NULL);
    CHECK(pending == 7);

    /* States no init produces: zeroed memory, a zero generator, a second holding more than it may,
     * a capacity below the rate, a reserve second past the tail. */
    memset(&p, 0, sizeof p);
    CHECK_RC(sb_pacer_assign(&p, 0, &slot), SB_ERR_BAD_STATE);
    CHECK_RC(sb_pacer_pending(&p, 0, &pending), SB_ERR_BAD_STATE);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    memset(p.rng, 0, sizeof p.rng);
    CHECK_RC(sb_pacer_assign(&p, 0, &slot), SB_ERR_BAD_STATE);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    p.tail_count = p.rate;
    before = p;
    CHECK_RC(sb_pacer_assign(&p, 0, &slot), SB_ERR_BAD_STATE);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    p.capacity = p.rate - 1; /* below the reserve second's rate */
    before = p;
    CHECK_RC(sb_pacer_assign(&p, 0, &slot), SB_ERR_BAD_STATE);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK_RC(sb_pacer_init(&p, 100, 0, 60, 1), SB_OK);
    p.reserve_s = 2; /* after the tail (0) and the latest second's next (1) */
    before = p;
    CHECK_RC(sb_pacer_assign(&p, 0, &slot), SB_ERR_BAD_STATE);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK(slot.retry_after_s == 0x11111111u);
    printf("pacer: NULLs and corrupted state refused, nothing written\n");
}

/* capacity 1000, reserve 0: rate = 1000 returns a second, w = 1000 / 1000 = 1, every draw is
 * uniform(0) = 0, so the i-th return of second s is at s * 1000 + i ms (SPEC.md section 16.2). */
static void test_pacer_hand_derived(void) {
    sb_pacer p;
    sb_pacer_slot s;
    uint64_t pending = 0;
    uint32_t i;
    CHECK_RC(sb_pacer_init(&p, 1000, 0, 1, 42), SB_OK);
    CHECK_RC(sb_pacer_assign(&p, 0, &s), SB_OK);
    CHECK(s.retry_after_s == 1 && s.reset_ms == 1000 && !s.full);
    CHECK(strcmp(s.retry_after, "1") == 0);
    CHECK(strcmp(s.ratelimit_reset, "1.000") == 0);
    CHECK(strcmp(s.ratelimit, "\"pacer\";r=0;t=1") == 0);
    for (i = 1; i < 1000; i++) {
        CHECK_RC(sb_pacer_assign(&p, 0, &s), SB_OK);
    }
    CHECK(s.reset_ms == 1999 && strcmp(s.ratelimit_reset, "1.999") == 0 && !s.full);
    CHECK_RC(sb_pacer_pending(&p, 0, &pending), SB_OK);
    CHECK(pending == 1000); /* tail_s = 2, tail_count = 0: (2 - 1) * 1000 */
    /* Past max_wait_s = 1: full, the last second's last index. */
    CHECK_RC(sb_pacer_assign(&p, 0, &s), SB_OK);
    CHECK(s.full && s.retry_after_s == 1 && s.reset_ms == 1999);
    /* now = 2500: s = max(2, 3) = 3, i = 0, reset 3000 - 2500 = 500; a clock read earlier after
     * that counts as 2500: i = 1, reset 501. */
    CHECK_RC(sb_pacer_assign(&p, 2500, &s), SB_OK);
    CHECK(s.retry_after_s == 1 && s.reset_ms == 500 && strcmp(s.ratelimit_reset, "0.500") == 0);
    CHECK_RC(sb_pacer_assign(&p, 100, &s), SB_OK);
    CHECK(s.retry_after_s == 1 && s.reset_ms == 501);
    CHECK_RC(sb_pacer_pending(&p, 4000, &pending), SB_OK);
    CHECK(pending == 0);
    CHECK(strcmp(sb_pacer_header_name(0), "retry-after") == 0);
    CHECK(strcmp(sb_pacer_header_name(1), "ratelimit-reset") == 0);
    CHECK(strcmp(sb_pacer_header_name(2), "ratelimit") == 0);
    CHECK(sb_pacer_header_name(3) == NULL);
    printf("pacer: hand-derived slots, header text, pending and a backwards clock\n");
}

void test_pacer(void) {
    test_pacer_bad_config();
    test_pacer_null_and_bad_state();
    test_pacer_hand_derived();
}
