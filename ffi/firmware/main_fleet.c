/* A device of a fleet that reconnects forever, its loop run by the library (sb_run): Google's
 * base schedule (1 s, x2, cap 32 s) with full jitter, which stays at the cap (each delay is
 * uniform in [0, base]), and SB_RETRY_FOREVER retries. The seed comes from the device's own id and
 * boot counter (sb_seed_from_device), so that devices dropped at once by an outage do not retry in
 * step: a fixed seed would give every device the same delays. Links with the SDK's
 * lib/variants/fleet archive (or the default one); the broker stays down here, so it prints the
 * first 12 delays. DEVICE_UID and BOOT_COUNT (compile-time here, a chip register and a counter
 * kept in flash on a real device) let a test build two devices. The smallest reconnect loop is
 * main_reconnect.c. */
#include <stddef.h>

#include "seeded_backoff.h"
#include "semihosting.h"

#ifndef DEVICE_UID
#define DEVICE_UID 0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6
#endif
#ifndef BOOT_COUNT
#define BOOT_COUNT 1
#endif

static const uint8_t uid[] = {DEVICE_UID};

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_run run;
    sb_action act;
    sb_outcome failed = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
    uint64_t seed;
    int i;
    policy.jitter = SB_JITTER_FULL;
    policy.jitter_ms = 0;
    policy.max_retries = SB_RETRY_FOREVER;
    if (sb_seed_from_device(uid, sizeof uid, BOOT_COUNT, &seed) != SB_OK ||
        sb_run_init(&run, &policy, seed, 0) != SB_OK || sb_run_start(&run, NULL, &act) != SB_OK) {
        return 1;
    }
    for (i = 0; i < 12; i++) {
        /* act is SB_ACTION_ATTEMPT: the connect is made here, and fails. */
        if (sb_run_outcome(&run, &failed, NULL, NULL, &act) != SB_OK ||
            act.kind != SB_ACTION_RETRY) {
            return 1;
        }
        sh_put_u32(act.delay_ms); /* a real device sleeps here */
        sh_puts(" ");
        if (sb_run_wake(&run, NULL, &act) != SB_OK) {
            return 1;
        }
    }
    sh_puts("\n");
    return 0;
}
