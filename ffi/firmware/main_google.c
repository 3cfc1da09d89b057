/* A firmware's retry loop from the library: one call under Google's preset, run by sb_run. The
 * firmware performs each action the run answers (make the attempt, sleep) and reports what
 * happened; the run numbers the attempts, draws the delays and decides when to give up. Here the
 * server is down for good: every attempt fails, so it prints the 10 delays, then gives up. */
#include <stddef.h>

#include "seeded_backoff.h"
#include "semihosting.h"

/* A stand-in for the firmware's request: the server is down. */
static int connect_to_server(uint32_t attempt) {
    (void)attempt;
    return -1;
}

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_run run;
    sb_action act;
    int rc = sb_run_init(&run, &policy, 42, 0); /* seed: a per-device number */
    if (rc == SB_OK) rc = sb_run_start(&run, NULL, &act);
    while (rc == SB_OK) {
        if (act.kind == SB_ACTION_ATTEMPT) {
            sb_outcome o = {SB_OUTCOME_SUCCESS, SB_FAILURE_ERROR, 0, 0};
            if (connect_to_server(act.attempt) != 0) o.kind = SB_OUTCOME_RETRYABLE;
            rc = sb_run_outcome(&run, &o, NULL, NULL, &act);
        } else if (act.kind == SB_ACTION_RETRY || act.kind == SB_ACTION_WAIT) {
            sh_put_u32(act.delay_ms); /* a real firmware sleeps here */
            sh_puts(" ");
            rc = sb_run_wake(&run, NULL, &act);
        } else {
            break; /* SB_ACTION_DONE, or SB_ACTION_GIVE_UP (act.reason: SB_GIVE_UP_MAX_RETRIES) */
        }
    }
    sh_puts("\n");
    return rc == SB_OK && act.kind == SB_ACTION_GIVE_UP && act.attempt == 11 ? 0 : 1;
}
