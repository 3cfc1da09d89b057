/* A device of a fleet that reconnects forever: Google's base schedule (1 s, x2, cap 32 s) with
 * full jitter, which stays at the cap (each delay is uniform in [0, base]), so that devices
 * dropped at once by an outage do not retry in step, and SB_RETRY_FOREVER retries. Links with the
 * SDK's lib/variants/fleet archive (or the default one); prints the first 12 delays. */
#include "seeded_backoff.h"
#include "semihosting.h"

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_backoff backoff;
    uint32_t delay_ms;
    int i;
    policy.jitter = SB_JITTER_FULL;
    policy.jitter_ms = 0;
    policy.max_retries = SB_RETRY_FOREVER;
    if (sb_backoff_init(&backoff, &policy, 42) != SB_OK) {
        return 1;
    }
    for (i = 0; i < 12; i++) {
        if (sb_backoff_next(&backoff, &delay_ms) != SB_RETRY) {
            return 1;
        }
        sh_put_u32(delay_ms);
        sh_puts(" ");
    }
    sh_puts("\n");
    return 0;
}
