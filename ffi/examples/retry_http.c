/* One request retried with Google's backoff. The transport is a stand-in that answers 503 twice,
 * then 200; a real program sends its HTTP request in send_request and sleeps in sleep_ms.
 * Compiles as C99 and as C++. */
#include <stdint.h>
#include <stdio.h>

#include "seeded_backoff.h"

static int send_request(void) {
    static int calls = 0;
    return ++calls <= 2 ? 503 : 200; /* the HTTP status */
}

static void sleep_ms(uint32_t ms) {
    printf("503: retrying in %u ms\n", (unsigned)ms); /* a real program sleeps here */
}

int main(void) {
    sb_policy policy = sb_policy_google(); /* 1 s, x2, +0..1 s jitter, cap 32 s, 10 retries */
    sb_backoff backoff;
    uint32_t delay_ms, retries = 0;
    int status, rc = sb_backoff_init(&backoff, &policy, 42); /* seed: a per-device number */
    if (rc != SB_OK) {
        fprintf(stderr, "%s\n", sb_strerror(rc));
        return 1;
    }
    while (sb_http_status_is_retryable(status = send_request())) {
        rc = sb_backoff_next(&backoff, &delay_ms);
        if (rc != SB_RETRY) {
            fprintf(stderr, "%s\n", sb_strerror(rc)); /* e.g. "gave up: the policy's ..." */
            return 1;
        }
        sleep_ms(delay_ms);
    }
    sb_backoff_retries(&backoff, &retries);
    printf("HTTP %d after %u retries\n", status, (unsigned)retries);
    return status == 200 ? 0 : 1;
}
