/* One HTTP request retried with Google's backoff, its loop run by the library (sb_run): the
 * program makes each attempt and sleeps; the run numbers the attempts, honours the server's
 * Retry-After, draws the delays and decides when to give up. The transport is a stand-in that
 * answers 503 with "Retry-After: 3", then 503, then 200; a real program sends its request in
 * send_request and sleeps in sleep_ms. Compiles as C99 and as C++. */
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
    (void)ms; /* a real program sleeps here */
}

/* How the attempt ended, as the run takes it: the core classifies the status and picks the
 * server's hint (Retry-After, or a 429's rate-limit headers). */
static int outcome_of(const response *r, sb_outcome *o) {
    memset(o, 0, sizeof *o);
    if (r->status >= 200 && r->status < 300) {
        o->kind = SB_OUTCOME_SUCCESS;
        return SB_OK;
    }
    if (!sb_is_retryable_http((uint32_t)r->status)) {
        o->kind = SB_OUTCOME_PERMANENT;
        return SB_OK;
    }
    o->kind = SB_OUTCOME_RETRYABLE;
    o->failure_kind = SB_FAILURE_ERROR;
    return sb_hint_from_headers((uint32_t)r->status, r->headers, r->header_count,
                                (uint64_t)time(NULL), &o->hint_flag, &o->hint_ms);
}

int main(void) {
    sb_policy policy = sb_policy_google(); /* 1 s, x2, +0..1 s jitter, cap 32 s, 10 retries */
    sb_run run;
    sb_action act;
    sb_outcome o;
    response r;
    /* seed: a per-device or per-call number; now_ms: NULL, or &now of your monotonic clock in ms */
    int rc = sb_run_init(&run, &policy, 42, 0);
    if (rc == SB_OK) rc = sb_run_start(&run, NULL, &act);
    while (rc == SB_OK && (act.kind == SB_ACTION_ATTEMPT || act.kind == SB_ACTION_RETRY)) {
        if (act.kind == SB_ACTION_ATTEMPT) {
            r = send_request();
            rc = outcome_of(&r, &o);
            if (rc == SB_OK) rc = sb_run_outcome(&run, &o, NULL, NULL, &act);
        } else {
            printf("attempt %u: HTTP %d, retrying in %u ms\n", (unsigned)act.attempt, r.status,
                   (unsigned)act.delay_ms);
            sleep_ms(act.delay_ms);
            rc = sb_run_wake(&run, NULL, &act);
        }
    }
    if (rc != SB_OK) {
        fprintf(stderr, "%s\n", sb_strerror(rc));
        return 1;
    }
    if (act.kind == SB_ACTION_GIVE_UP) { /* reason 0: an error not worth a retry */
        fprintf(stderr, "gave up after %u attempts: %s\n", (unsigned)act.attempt,
                act.reason != 0 ? sb_strerror((int32_t)act.reason) : "not retryable");
        return 1;
    }
    printf("HTTP %d after %u attempts\n", r.status, (unsigned)act.attempt);
    return 0;
}
