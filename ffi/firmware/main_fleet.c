/* A device of a fleet that reconnects forever, its loop run by the library (sb_run): Google's
 * base schedule (1 s, x2, cap 32 s) with full jitter, which stays at the cap (each delay is
 * uniform in [0, base]), so that devices dropped at once by an outage do not retry in step, and
 * SB_RETRY_FOREVER retries. Links with the SDK's lib/variants/fleet archive (or the default one);
 * the broker stays down here, so it prints the first 12 delays. */
#include <stddef.h>

#include "seeded_backoff.h"
#include "semihosting.h"

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_run run;
    sb_action act;
    sb_outcome failed = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
    int i;
    policy.jitter = SB_JITTER_FULL;
    policy.jitter_ms = 0;
    policy.max_retries = SB_RETRY_FOREVER;
    if (sb_run_init(&run, &policy, 42, 0) != SB_OK || sb_run_start(&run, SB_NO_CLOCK, &act) != SB_OK) {
        return 1;
    }
    for (i = 0; i < 12; i++) {
        /* act is SB_ACTION_ATTEMPT: the connect is made here, and fails. */
        if (sb_run_outcome(&run, &failed, SB_NO_CLOCK, NULL, &act) != SB_OK ||
            act.kind != SB_ACTION_RETRY) {
            return 1;
        }
        sh_put_u32(act.delay_ms); /* a real device sleeps here */
        sh_puts(" ");
        if (sb_run_wake(&run, SB_NO_CLOCK, &act) != SB_OK) {
            return 1;
        }
    }
    sh_puts("\n");
    return 0;
}
