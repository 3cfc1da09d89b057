/* A server's pacer (SPEC.md section 16): the headers of each 429 it sends, from one sb_pacer. */
#include <stdint.h>
#include <stdio.h>

#include "seeded_backoff.h"

static sb_pacer pacer; /* one per server: guard it with a lock if several threads share it */

/* The status line and headers of a refusal at `now_ms` on the server's monotonic clock. */
static void refuse(uint64_t now_ms) {
    sb_pacer_slot slot;
    if (sb_pacer_assign(&pacer, now_ms, &slot) != SB_OK) return;
    printf("HTTP/1.1 %s\n", slot.full ? "503 Service Unavailable" : "429 Too Many Requests");
    printf("%s: %s\n", sb_pacer_header_name(0), slot.retry_after);
    printf("%s: %s\n", sb_pacer_header_name(1), slot.ratelimit_reset);
    printf("%s: %s\n", sb_pacer_header_name(2), slot.ratelimit);
}

int main(void) {
    uint64_t pending = 0;
    int i;
    /* 100 requests/s, a tenth kept in the first second (90 returns, 100 later), waits <= 60 s. */
    int rc = sb_pacer_init(&pacer, 100, 100, 60, 7);
    if (rc != SB_OK) {
        fprintf(stderr, "pacer: %s\n", sb_strerror(rc));
        return 1;
    }
    for (i = 0; i < 90; i++) {
        sb_pacer_slot slot;
        sb_pacer_assign(&pacer, 5000, &slot); /* 90 refusals at t = 5 s fill second 6 */
    }
    refuse(5000); /* the 91st comes back in second 7 */
    sb_pacer_pending(&pacer, 5000, &pending);
    printf("pending: %llu\n", (unsigned long long)pending);
    rc = sb_pacer_init(&pacer, 0, 0, 60, 7);
    printf("%s\n", sb_strerror(rc));
    return 0;
}
