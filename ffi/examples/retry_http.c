/* One request retried with Google's backoff, honouring the server's Retry-After. The transport
 * is a stand-in that answers 503 with "Retry-After: 3", then 503, then 200; a real program sends
 * its HTTP request in send_request and sleeps in sleep_ms. Compiles as C99 and as C++. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "seeded_backoff.h"

/* A response: its status and its headers (here at most one). */
typedef struct {
    int status;
    sb_header headers[1];
    size_t header_count;
} response;

static sb_header header(const char *name, const char *value) {
    sb_header h;
    h.name = name;
    h.name_len = strlen(name);
    h.value = value;
    h.value_len = strlen(value);
    return h;
}

static response send_request(void) {
    static int calls = 0;
    response r;
    r.status = ++calls <= 2 ? 503 : 200;
    r.header_count = calls == 1;
    r.headers[0] = header("Retry-After", "3");
    return r;
}

static void sleep_ms(uint32_t ms) {
    printf("503: retrying in %u ms\n", (unsigned)ms); /* a real program sleeps here */
}

int main(void) {
    sb_policy policy = sb_policy_google(); /* 1 s, x2, +0..1 s jitter, cap 32 s, 10 retries */
    sb_backoff backoff;
    sb_step_input input;
    response r;
    uint32_t delay_ms, retries = 0;
    int rc = sb_backoff_init(&backoff, &policy, 42); /* seed: a per-device number */
    if (rc != SB_OK) {
        fprintf(stderr, "%s\n", sb_strerror(rc));
        return 1;
    }
    while (sb_http_status_is_retryable((uint32_t)(r = send_request()).status)) {
        /* The core picks the hint: Retry-After, or a 429's rate-limit headers. */
        memset(&input, 0, sizeof input);
        rc = sb_hint_from_headers((uint32_t)r.status, r.headers, r.header_count,
                                  (uint64_t)time(NULL), &input.flags, &input.retry_after_ms);
        input.rate_limit_ms = input.retry_after_ms; /* the flag says which of the two it is */
        if (rc == SB_OK) rc = sb_backoff_next_with(&backoff, &input, NULL, &delay_ms);
        if (rc != SB_RETRY) {
            fprintf(stderr, "%s\n", sb_strerror(rc)); /* e.g. "gave up: the policy's ..." */
            return 1;
        }
        sleep_ms(delay_ms);
    }
    sb_backoff_retries(&backoff, &retries);
    printf("HTTP %d after %u retries\n", r.status, (unsigned)retries);
    return r.status == 200 ? 0 : 1;
}
