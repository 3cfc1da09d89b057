/* Types of the generated vector tables (vectors_data.h) and the replay shared by the host tests
 * and the Cortex-M firmware. C99 and C++11. */
#ifndef VECTORS_H
#define VECTORS_H

#include <stdint.h>

#include "seeded_backoff.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    VEC_OP_NEXT, VEC_OP_HINT, VEC_OP_STOP, VEC_OP_AT, VEC_OP_RESET, VEC_OP_SNAPSHOT, VEC_OP_RATE_LIMIT,
    VEC_OP_AT_WIDE
};
enum { VEC_EXPECT_NONE, VEC_EXPECT_DELAY, VEC_EXPECT_STATUS, VEC_EXPECT_SNAPSHOT };
enum {
    VEC_B_FAIL_ERROR,
    VEC_B_FAIL_TIMEOUT,
    VEC_B_ACQUIRE_ERROR,
    VEC_B_ACQUIRE_TIMEOUT,
    VEC_B_SUCCESS_FIRST_TRY,
    VEC_B_SUCCESS_AFTER_ERROR,
    VEC_B_SUCCESS_AFTER_TIMEOUT
};

/* The policy fields by name, so the tables do not depend on sb_policy's field order. */
typedef struct {
    uint32_t initial_ms, multiplier_num, multiplier_den, max_backoff_ms, max_retries, jitter,
        jitter_ms, spread_per_mille, max_hint_ms, max_elapsed_ms, deadline, paced;
} vec_policy;

/* 12 bytes a row, so that the Cortex-M3 firmware's 256 KiB of flash holds every schedule: the
 * few elapsed clocks above 2^32 - 1 ms are VEC_OP_AT_WIDE rows whose arg indexes vec_wide_args. */
typedef struct {
    uint8_t op;
    uint8_t expect_kind;
    uint32_t expect; /* delay, status, or index into vec_snapshots */
    uint32_t arg;    /* hint ms (Retry-After or rate-limit reset), elapsed ms, or a vec_wide_args index */
} vec_op;

typedef struct {
    uint64_t seed;
    uint32_t first_op, n_ops;
} vec_case;

typedef struct {
    const char *name;
    vec_policy policy;
    uint32_t first_case, n_cases;
} vec_schedule;

typedef struct {
    uint8_t bytes[SB_SNAPSHOT_SIZE];
} vec_snapshot;

typedef struct {
    const char *value;
    uint32_t len;
    uint64_t now;
    int32_t status;
    uint32_t ms;
} vec_retry_after;

typedef struct {
    uint32_t header; /* an SB_RATE_LIMIT_* code */
    const char *value;
    uint32_t len;
    uint64_t now;
    int32_t status;
    uint32_t ms;
} vec_rate_limit;

typedef struct {
    const char *id;
    uint32_t len;
    uint32_t boot_counter;
    uint64_t seed;
} vec_fleet_seed;

/* SPEC.md section 14: the seed of call `index` of a loop, and the call's first Google delays
   (0xFFFFFFFF where the backoff gives up). */
typedef struct {
    uint64_t seed, index, expect;
    uint32_t google_delays[3];
} vec_call_seed;

/* SPEC.md section 12.3: a reconnect loop (its init status: SB_OK, or what refuses the policy),
   and its ops: 'n' (sb_reconnect_next: SB_RETRY with the delay, or an SB_GIVE_UP_*), 'r' (reset)
   or 'f' (the state moved to retry `arg`, as fast_forward does), each with the count after it. */
typedef struct {
    const char *name;
    vec_policy policy;
    uint64_t seed;
    int32_t status;
    uint32_t first_op, n_ops;
} vec_reconnect_case;

typedef struct {
    char op;
    int32_t status;
    uint32_t arg, delay, retries;
} vec_reconnect_op;

typedef struct {
    uint64_t seed;
    uint32_t window_ms;
    int32_t status;
    uint32_t ms;
} vec_startup_delay;

typedef struct {
    uint32_t mode;
    uint32_t params[4];
    uint32_t first_op, n_ops;
} vec_budget_case;

typedef struct {
    uint8_t op;
    uint32_t allowed;
    uint32_t tokens_milli;
} vec_budget_op;

typedef void (*vec_any_fn)(void);

typedef struct {
    uint32_t code;
    int32_t cls;
} vec_class;

/* A method as a Fetch client sends it, and whether SPEC.md section 7.1 lets it be retried without
 * an Idempotency-Key (the C library takes the method as the caller sends it). */
typedef struct {
    const char *sent;
    uint32_t len;
    uint32_t may_retry;
} vec_method;

/* A run vector's events (SPEC.md section 15): one row per event, the action (or error) it answers. */
enum {
    VEC_R_START, VEC_R_SUCCESS, VEC_R_FAIL, VEC_R_PERMANENT, VEC_R_OFFLINE, VEC_R_WAKE, VEC_R_PAUSE, VEC_R_RESUME,
    VEC_R_SNAPSHOT, VEC_R_RESTORE, VEC_R_RATE_ASK, VEC_R_RATE_ANSWER
};

typedef struct {
    uint8_t event;
    uint8_t answer; /* a paced outcome's SB_ANSWER_* (SB_ANSWER_FROM_OUTCOME: the outcome's own) */
    uint32_t arg; /* the pause reason, or the failure kind */
    uint32_t hint_flag, hint_ms;
    uint64_t now;
    uint32_t has_now; /* 0: the event carries no clock reading (now_ms NULL) */
    int32_t status; /* SB_OK, or the SB_ERR_RUN_* (SB_ERR_SNAPSHOT_* for a restore) it is refused with */
    sb_action want; /* all 99: a snapshot or a restore, which write no action */
    const uint8_t *bytes; /* a snapshot's expected bytes, or a restore's input */
    uint32_t len;
} vec_run_event;

/* A paced run's send rate (SPEC.md section 15.2): its configuration and its rate at the end. */
typedef struct {
    sb_send_rate_config config;
    uint32_t rate_milli;
} vec_run_rate;

typedef struct {
    const char *name;
    vec_policy policy;
    uint64_t seed;
    uint32_t flags;
    uint32_t has_budget, budget_mode, budget_params[4], tokens_milli;
    uint32_t first_event, n_events;
    /* SPEC.md section 15.2: 0, or 1 + the index in vec_run_rates of the send rate that start, wake
       and the outcomes go through. */
    uint32_t paced;
    /* SPEC.md section 15.3: the startup window given before the start, 0 for none. */
    uint32_t startup_window_ms;
} vec_run_case;

/* A pacer vector (SPEC.md section 16): its configuration, the init status it gets, its ops. */
#define VEC_P_PENDING 0x80000000u
#define VEC_P_FULL 0x40000000u

typedef struct {
    uint32_t capacity_per_s, reserve_per_mille, max_wait_s;
    uint64_t seed;
    int32_t status; /* SB_OK, or the SB_ERR_PACER_* the configuration is refused with */
    uint32_t first_op, n_ops;
} vec_pacer_case;

/* 16 bytes a row, so the smallest firmware's flash holds the table: `a` is an assign's
 * retry_after_s (with VEC_P_FULL set if the slot is full) and `b` its reset_ms; a pending count
 * has VEC_P_PENDING set in `a` and is (`a` & 0xFFFF) << 32 | `b`. */
typedef struct {
    uint32_t now_lo, now_hi;
    uint32_t a, b;
} vec_pacer_op;

/* A send-rate vector (SPEC.md section 17): a configuration and its events; an ask expects the
   status (SB_OK, SB_SEND_RATE_WAIT or SB_SEND_RATE_REFUSE) and its ms, an answer SB_OK and the
   rate after it. */
enum { VEC_S_ASK, VEC_S_ACCEPTED, VEC_S_THROTTLED, VEC_S_NO_ANSWER };

typedef struct {
    uint8_t event;
    uint32_t hint_ms;
    uint64_t now;
    int32_t status;
    uint32_t want; /* the ask's ms, or the rate_milli after an answer */
} vec_send_rate_event;

typedef struct {
    const char *name;
    sb_send_rate_config config;
    uint32_t first_event, n_events;
} vec_send_rate_case;

typedef struct {
    sb_send_rate_config config;
    int32_t status; /* the SB_ERR_SEND_RATE_* of the field rejected */
} vec_send_rate_error;

/* Called for every mismatch: which table, which entry (file/case/op indices), got and wanted. */
typedef void (*vec_fail_fn)(const char *what, const char *name, uint32_t a, uint32_t b,
                            uint64_t got, uint64_t want);

typedef struct {
    uint32_t checked; /* expectations compared */
    uint32_t failed;  /* of which mismatched */
    uint32_t skipped; /* cases left out because the library build returns SB_ERR_UNSUPPORTED */
} vec_stats;

/* Replays every table; returns the totals. */
vec_stats vec_replay_all(vec_fail_fn fail);

sb_policy vec_to_policy(const vec_policy *p);


#ifdef __cplusplus
}
#endif

#endif
