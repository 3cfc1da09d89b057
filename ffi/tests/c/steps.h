/* One-input steps for the tests: sb_backoff_next_with with one field of sb_step_input set, so a
 * test reads as the step it makes. Shared by the host tests and the firmware's replay. */
#ifndef SB_TEST_STEPS_H
#define SB_TEST_STEPS_H

#include <string.h>

#include "seeded_backoff.h"

static inline int32_t step_input(sb_backoff *b, uint32_t flags, uint32_t ms, uint64_t elapsed_ms,
                                 sb_budget *budget, uint32_t kind, uint32_t *delay_ms) {
    sb_step_input in;
    memset(&in, 0, sizeof in);
    in.flags = flags;
    in.retry_after_ms = ms;
    in.rate_limit_ms = ms;
    in.elapsed_ms = elapsed_ms;
    in.failure_kind = kind;
    return sb_backoff_next_with(b, &in, budget, delay_ms);
}

/* A step honouring a Retry-After of `ms`. */
static inline int32_t step_hint(sb_backoff *b, uint32_t ms, uint32_t *delay_ms) {
    return step_input(b, SB_INPUT_RETRY_AFTER, ms, 0, NULL, 0, delay_ms);
}

/* A step after a 429 whose rate-limit quota resets in `ms`. */
static inline int32_t step_rate_limit(sb_backoff *b, uint32_t ms, uint32_t *delay_ms) {
    return step_input(b, SB_INPUT_RATE_LIMIT, ms, 0, NULL, 0, delay_ms);
}

/* The server said not to retry. */
static inline int32_t step_stop(sb_backoff *b) {
    uint32_t unused = 0;
    return step_input(b, SB_INPUT_DO_NOT_RETRY, 0, 0, NULL, 0, &unused);
}

/* A step with the caller's clock, `elapsed_ms` since the first attempt. */
static inline int32_t step_at(sb_backoff *b, uint64_t elapsed_ms, uint32_t *delay_ms) {
    return step_input(b, SB_INPUT_ELAPSED, 0, elapsed_ms, NULL, 0, delay_ms);
}

/* A step charged to `budget` for a failure of `kind`. */
static inline int32_t step_budget(sb_backoff *b, sb_budget *budget, uint32_t kind,
                                  uint32_t *delay_ms) {
    return step_input(b, SB_INPUT_BUDGET, 0, 0, budget, kind, delay_ms);
}

#endif
