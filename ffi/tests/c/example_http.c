/* The README's C example, verbatim; example_main.c drives it. Keep the two in sync. */
#include <stdio.h>
#include "seeded_backoff.h"

extern int send_request(void);          /* returns the HTTP status */
extern void sleep_ms(uint32_t ms);

int fetch_with_retries(uint64_t device_id) {
    sb_policy policy = sb_policy_google();  /* 1 s, x2, +0..1 s jitter, cap 32 s, 10 retries */
    sb_backoff backoff;
    uint32_t delay_ms;
    int status, rc = sb_backoff_init(&backoff, &policy, device_id);
    if (rc != SB_OK) return rc;
    while (sb_http_status_is_retryable(status = send_request())) {
        rc = sb_backoff_next(&backoff, &delay_ms);
        if (rc != SB_RETRY) {                /* SB_GIVE_UP_MAX_RETRIES, ... */
            fprintf(stderr, "%s\n", sb_strerror(rc)); /* "gave up: ..." */
            return rc;
        }
        sleep_ms(delay_ms);
    }
    return status;
}
