/**
 * @file seeded_backoff.h
 * @brief seeded-backoff's C API: deterministic, seeded exponential backoff (no allocation).
 *
 * Quick start: a device's reconnect loop (ffi/firmware/main_reconnect.c, lib/variants/reconnect)
 *
 *     static const sb_policy RECONNECT = {  // stays in flash: 1 s, x2, 64 s cap, full jitter
 *         .initial_ms = 1000, .multiplier_num = 2, .multiplier_den = 1, .max_backoff_ms = 64000,
 *         .max_retries = SB_RETRY_FOREVER, .jitter = SB_JITTER_FULL,
 *         .max_hint_ms = SB_DEFAULT_MAX_HINT_MS};
 *     uint64_t seed;
 *     uint32_t delay_ms;
 *     sb_reconnect r;                                        // 28 B on 32-bit cores
 *     sb_seed_from_device(chip_uid, sizeof chip_uid, boot_count, &seed); // one seed per device
 *     sb_startup_delay(seed, 60000, &delay_ms);              // spread a fleet's power-up
 *     sleep_ms(delay_ms);
 *     if (sb_reconnect_init(&r, &RECONNECT, seed) != SB_OK)  // SB_ERR_POLICY_*: the bad field
 *         return;
 *     for (;;) {
 *         while (connect() != 0) {
 *             sb_reconnect_next(&r, &delay_ms);              // SB_RETRY, forever
 *             sleep_ms(delay_ms);
 *         }
 *         serve_until_disconnected();
 *         sb_reconnect_reset(&r);                            // the next outage starts at 1 s
 *     }
 *
 * Its declarations, in use order:
 *     sb_status sb_seed_from_device(const uint8_t *id, uintptr_t len, uint32_t boot_counter, uint64_t *seed);
 *     sb_status sb_startup_delay(uint64_t seed, uint32_t window_ms, uint32_t *delay_ms);
 *     sb_status sb_reconnect_init(struct sb_reconnect *r, const struct sb_policy *policy, uint64_t seed);
 *     sb_status sb_reconnect_next(struct sb_reconnect *r, uint32_t *delay_ms);
 *     sb_status sb_reconnect_reset(struct sb_reconnect *r);
 *     const char *sb_strerror(int32_t code);                 // a status's name
 *
 * Quick start: a request's retry loop, two calls as backoffAlgorithm's (ffi/firmware/main_step.c,
 * lib/variants/google)
 *
 *     sb_policy policy = sb_policy_google();  // 1 s, x2, +0..1 s, 32 s cap, 10 retries
 *     sb_backoff b;                           // 32 B, one per request
 *     uint32_t delay_ms;
 *     sb_backoff_init(&b, &policy, seed);     // SB_OK for a valid policy
 *     while (send_request() >= 500) {         // which statuses: sb_classify_http
 *         if (sb_backoff_next(&b, &delay_ms) != SB_RETRY)  // SB_GIVE_UP_*: stop
 *             break;
 *         sleep_ms(delay_ms);
 *     }
 *
 * Its declarations:
 *     struct sb_policy sb_policy_google(void);
 *     sb_status sb_backoff_init(struct sb_backoff *b, const struct sb_policy *policy, uint64_t seed);
 *     sb_status sb_backoff_next(struct sb_backoff *b, uint32_t *delay_ms);
 * The rest, by what it adds: sb_backoff_next_with (a server's hint, the caller's clock, a budget);
 * sb_run_* (a whole request's run: attempts, hints, budget, send rate; sb_run_init, sb_run_start,
 * sb_run_outcome, sb_run_wake); sb_budget_*, sb_send_rate_*, sb_pacer_*, sb_parse_*.
 *
 * Prebuilt archives of the firmware SDKs (lib/...; Cortex-M0/M3/M4F, rv32imc/imac). Cost: library
 * code and the step's stack in a Cortex-M3 program, -Os, --gc-sections, as measured by
 * lab/firmware.sh and scripts/release/test-c-sdk.sh at this version:
 *   variants/reconnect  reconnect, fleet, runtime-policy, jitter-full: sb_reconnect_*, the seed
 *                       and startup delay, full jitter at any cap. main_reconnect.c: 832 B,
 *                       sb_reconnect_next 52 B of stack (rv32imc: 964 B, 16 B).
 *   variants/fleet      fleet, run, runtime-policy, jitter-full: any policy with full jitter, the
 *                       run, the seed and startup delay. main_fleet.c: 4552 B, sb_run_outcome 512 B.
 *   variants/google     preset-google, run: Google's preset unchanged, the run. main_step.c
 *                       (sb_backoff_next): 802 B, 44 B; main_google.c (sb_run): 4296 B, 464 B.
 *   libseeded_backoff_ffi.a  every feature below. main_fleet.c: 5186 B, sb_run_outcome 720 B.
 * A function whose part a build leaves out links and returns SB_ERR_UNSUPPORTED. sb_strerror holds
 * the text of the statuses a build can return: naming one adds 816 B to main_reconnect.c on the
 * reconnect archive, about 1 KB on fleet or google, 3870 B on the whole API (long messages).
 *
 * Rules: every struct is caller-allocated plain integers; every pointer may be NULL
 * (SB_ERR_NULL); a call that returns an SB_ERR_* code leaves caller-owned state unchanged;
 * sb_strerror() names any status. Lengths are uintptr_t (the width of size_t on every supported
 * target).
 *
 * The library's parts are Cargo features of ffi/Cargo.toml, all on by default: jitter-none,
 * jitter-google, jitter-full, jitter-equal, jitter-decorrelated, jitter-proportional (the
 * strategies), runtime-policy (any valid policy; without it only the preset-google,
 * preset-google-64s, preset-aws, preset-grpc and preset-mobile features' presets, unchanged),
 * reconnect (sb_reconnect_*), run (sb_run_*), time-budget (max_elapsed_ms, SB_INPUT_ELAPSED),
 * hints (server hints in sb_run_outcome and sb_backoff_next_with, sb_parse_grpc_pushback),
 * retry-after (sb_parse_retry_after, sb_parse_rate_limit, sb_hint_from_headers), budget
 * (sb_budget_*, and a budget given to sb_run_outcome or sb_backoff_next_with), send-rate
 * (sb_send_rate_*), snapshot (sb_backoff_snapshot/_restore), fleet (sb_seed_from_device,
 * sb_startup_delay), pacer (sb_pacer_*, a server's Retry-After schedule), long-messages
 * (sb_strerror's sentences; without it, the status's name) and bindings (what language bindings
 * use: sb_policy_from_options and the sb_*_name tables). Every function links in every build; one
 * whose part is left out returns SB_ERR_UNSUPPORTED (the name tables: NULL), and so does every
 * function given a policy the build cannot run. Changes: ffi/CHANGELOG.md.
 *
 * Generated by cbindgen from ffi/src; do not edit.
 */

#ifndef SEEDED_BACKOFF_H
#define SEEDED_BACKOFF_H

/* Generated by cbindgen from ffi/src (config ffi/cbindgen.toml). Do not edit. */

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/**
 * `sb_budget.mode` of a gRFC A6 retry-throttling budget.
 */
#define SB_BUDGET_GRPC 1

/**
 * `sb_budget.mode` of an AWS SDK retry quota.
 */
#define SB_BUDGET_AWS_QUOTA 2

/**
 * The failure was an error response or a connection failure.
 */
#define SB_FAILURE_ERROR 0

/**
 * The failure was a timeout (the AWS quota charges it more).
 */
#define SB_FAILURE_TIMEOUT 1

/**
 * The longest header value the parsers read, in bytes: a longer one is `SB_ERR_PARSE_TOO_LONG`, in
 * every binding (the core's `MAX_HEADER_VALUE_LEN`; a test checks they are equal).
 */
#define SB_MAX_HEADER_VALUE_LEN 8192

/**
 * `RateLimit` (IETF structured field): the largest reset `t` among quotas with `r=0`.
 */
#define SB_RATE_LIMIT_RATELIMIT 0

/**
 * `RateLimit-Reset`: seconds until the quota resets.
 */
#define SB_RATE_LIMIT_RATELIMIT_RESET 1

/**
 * `X-RateLimit-Retry-After`: seconds, or a Unix time above 10^9.
 */
#define SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER 2

/**
 * `X-RateLimit-Reset`: seconds (fractions allowed), or a Unix time above 10^9.
 */
#define SB_RATE_LIMIT_X_RATELIMIT_RESET 3

/**
 * How many rate-limit headers there are: their codes are 0..SB_RATE_LIMIT_COUNT, in the order a
 * 429 response is searched (the first present one that parses gives the hint).
 */
#define SB_RATE_LIMIT_COUNT 4

/**
 * `sb_step_input.flags` bit: `retry_after_ms` is a server hint (a lower bound on the delay).
 */
#define SB_INPUT_RETRY_AFTER 1

/**
 * `sb_step_input.flags` bit: the server said not to retry.
 */
#define SB_INPUT_DO_NOT_RETRY 2

/**
 * `sb_step_input.flags` bit: `elapsed_ms` is the caller's clock since the first attempt.
 */
#define SB_INPUT_ELAPSED 4

/**
 * `sb_step_input.flags` bit: charge `*budget` with a failure of kind `failure_kind`.
 */
#define SB_INPUT_BUDGET 8

/**
 * `sb_step_input.flags` bit: `rate_limit_ms` is a 429's rate-limit reset (see
 * `sb_parse_rate_limit`): the delay is at least `rate_limit_ms` plus an upward jitter of up to
 * 1 s + 10 % of it, so clients told the same reset do not return together; a reset beyond
 * `policy.max_hint_ms` gives up with `SB_GIVE_UP_HINT_EXCEEDS_MAX`. A step takes at most one of `SB_INPUT_RETRY_AFTER`, `SB_INPUT_DO_NOT_RETRY` and
 * `SB_INPUT_RATE_LIMIT` (SPEC.md section 5); `sb_hint_from_headers` picks the one a response
 * gives.
 */
#define SB_INPUT_RATE_LIMIT 16

/**
 * `sb_policy_from_options` preset: Google Cloud's reference (`sb_policy_google`).
 */
#define SB_PRESET_GOOGLE 0

/**
 * `sb_policy_from_options` preset: Google's reference with the 64 s cap.
 */
#define SB_PRESET_GOOGLE_64S 1

/**
 * `sb_policy_from_options` preset: the AWS SDKs' standard mode.
 */
#define SB_PRESET_AWS 2

/**
 * `sb_policy_from_options` preset: gRPC connection backoff.
 */
#define SB_PRESET_GRPC 3

/**
 * `sb_policy_from_options` preset: Google's advice for mobile clients (`sb_policy_mobile`).
 */
#define SB_PRESET_MOBILE 4

/**
 * `given` bit: `values->initial_ms` overrides the preset.
 */
#define SB_OPTION_INITIAL_MS 1

/**
 * `given` bit: `values->multiplier_num` / `multiplier_den` (reduced) override the preset.
 */
#define SB_OPTION_MULTIPLIER 2

/**
 * `given` bit: `values->max_backoff_ms` (the hint limit follows it unless also given).
 */
#define SB_OPTION_MAX_BACKOFF_MS 4

/**
 * `given` bit: `values->max_retries`.
 */
#define SB_OPTION_MAX_RETRIES 8

/**
 * `given` bit: `values->jitter` (its parameter defaults to the reference value).
 */
#define SB_OPTION_JITTER 16

/**
 * `given` bit: `values->jitter_ms` (Google jitter only).
 */
#define SB_OPTION_JITTER_MS 32

/**
 * `given` bit: `values->spread_per_mille` (proportional jitter only).
 */
#define SB_OPTION_SPREAD_PER_MILLE 64

/**
 * `given` bit: `values->max_hint_ms`.
 */
#define SB_OPTION_MAX_HINT_MS 128

/**
 * `given` bit: `values->max_elapsed_ms`.
 */
#define SB_OPTION_MAX_ELAPSED_MS 256

/**
 * `given` bit: `values->deadline`.
 */
#define SB_OPTION_DEADLINE 512

/**
 * `given` bit: `values->paced` (nonzero: a `Retry-After` is the wait itself).
 */
#define SB_OPTION_PACED 1024

/**
 * No jitter: the un-jittered exponential base.
 */
#define SB_JITTER_NONE 0

/**
 * Google Cloud's additive jitter: `min(base + U[0, jitter_ms], cap)`.
 */
#define SB_JITTER_GOOGLE 1

/**
 * AWS "full jitter": `U[0, base]`.
 */
#define SB_JITTER_FULL 2

/**
 * "Equal jitter": `base/2 + U[0, base - base/2]`.
 */
#define SB_JITTER_EQUAL 3

/**
 * "Decorrelated jitter": `min(cap, U[initial, 3 * previous])`.
 */
#define SB_JITTER_DECORRELATED 4

/**
 * gRPC proportional jitter: `min(cap, base +- base * spread_per_mille / 1000)`.
 */
#define SB_JITTER_PROPORTIONAL 5

/**
 * A delay that would cross the time budget gives up (`SB_GIVE_UP_DEADLINE`).
 */
#define SB_DEADLINE_GIVE_UP 0

/**
 * A delay that would cross the time budget is shortened to what is left of it.
 */
#define SB_DEADLINE_CLAMP 1

/**
 * The largest delay any policy can produce, in ms (2^31 - 1).
 */
#define SB_MAX_DELAY_MS 2147483647

/**
 * Every preset's `max_hint_ms`, in ms (5 minutes; SPEC.md section 2): the longest wait a server
 * may ask before a step gives up with `SB_GIVE_UP_HINT_EXCEEDS_MAX`. It does not follow the cap.
 */
#define SB_DEFAULT_MAX_HINT_MS 300000

/**
 * `max_retries` for a device that never stops trying: `sb_reconnect_next` never gives up under
 * it (SPEC.md section 12.3); `sb_backoff` and `sb_run` read it as the count it is, 4294967295
 * retries, more than 4000 years of retries at a 32 s cap. With a jitter that stays at the cap
 * (`SB_JITTER_FULL`), a fleet that retries forever does not retry in step.
 *
 * ```c
 * sb_policy p = sb_policy_google();
 * p.jitter = SB_JITTER_FULL;
 * p.max_retries = SB_RETRY_FOREVER;
 * assert(sb_policy_validate(&p) == SB_OK);
 * ```
 */
#define SB_RETRY_FOREVER 4294967295

/**
 * `sb_run_outcome_paced`'s answer kind meaning "the answer of the outcome" (SPEC.md section
 * 15.2): a success or permanent error is accepted, a retryable error with a Retry-After or
 * rate-limit hint a throttle, anything else no answer.
 */
#define SB_ANSWER_FROM_OUTCOME 255

/**
 * The length of a run snapshot in bytes.
 */
#define SB_RUN_SNAPSHOT_SIZE 100

/**
 * `sb_run_init` flag: time spent paused counts against `max_elapsed_ms`.
 */
#define SB_RUN_COUNT_PAUSED 1

/**
 * Make attempt `attempt` (from 1), then report its outcome with `sb_run_outcome`.
 */
#define SB_ACTION_ATTEMPT 0

/**
 * Attempt `attempt` failed: sleep `delay_ms`, then call `sb_run_wake`.
 */
#define SB_ACTION_RETRY 1

/**
 * Sleep `delay_ms` (a wait re-drawn after a pause), then call `sb_run_wake`.
 */
#define SB_ACTION_WAIT 2

/**
 * Wait for the pause to end, at most `delay_ms` (`UINT32_MAX`: no limit), then `sb_run_resume`.
 */
#define SB_ACTION_PAUSED 3

/**
 * Done after `attempt` attempts.
 */
#define SB_ACTION_DONE 4

/**
 * Give up after `attempt` attempts; `reason` is an `SB_GIVE_UP_*` status, or 0 for a permanent
 * error.
 */
#define SB_ACTION_GIVE_UP 5

/**
 * The attempt succeeded.
 */
#define SB_OUTCOME_SUCCESS 0

/**
 * The attempt failed with an error worth a retry (`failure_kind`, `hint_flag`, `hint_ms`).
 */
#define SB_OUTCOME_RETRYABLE 1

/**
 * The attempt failed with an error not worth a retry.
 */
#define SB_OUTCOME_PERMANENT 2

/**
 * A retryable failure while the device is offline: it spends no retry; the run pauses.
 */
#define SB_OUTCOME_OFFLINE 3

/**
 * `sb_run_pause` reason: the device is offline (the pause ends after `max_backoff_ms` at most).
 */
#define SB_PAUSE_OFFLINE 1

/**
 * `sb_run_pause` reason: the application is in the background.
 */
#define SB_PAUSE_HIDDEN 0

/**
 * `sb_send_rate_answer` kind: the server took the request (any answer but a throttle).
 */
#define SB_ANSWER_ACCEPTED 0

/**
 * `sb_send_rate_answer` kind: a 429, or a 503 with a hint; `hint_ms` is the hint (0 for none).
 */
#define SB_ANSWER_THROTTLED 1

/**
 * `sb_send_rate_answer` kind: no answer (a connection error or a timeout).
 */
#define SB_ANSWER_NO_ANSWER 2

/**
 * The length of a snapshot in bytes.
 */
#define SB_SNAPSHOT_SIZE 40

/**
 * The length of a retry budget's stored value in bytes.
 */
#define SB_BUDGET_VALUE_SIZE 12

/**
 * The length of a pacer's stored value in bytes.
 */
#define SB_PACER_VALUE_SIZE 64

/**
 * The length of a send rate's stored value in bytes.
 */
#define SB_SEND_RATE_VALUE_SIZE 184

/**
 * The longest a decision waits for the store, all round trips included, in ms, before the
 * process decides from its own state (SPEC.md section 19.5).
 */
#define SB_STORE_BOUND_MS 50

/**
 * How long a process that fell back decides alone before it asks the store again, in ms
 * (SPEC.md section 19.6).
 */
#define SB_STORE_REJOIN_MS 200

/**
 * Compare-and-set attempts per decision before it is made from the process's own state (SPEC.md
 * section 19.4).
 */
#define SB_STORE_MAX_TRIES 32

/**
 * Decisions in a row past the bound before the process decides alone until it rejoins (SPEC.md
 * section 19.5): one late reply costs its decision only.
 */
#define SB_STORE_LATE_LIMIT 3

/**
 * The longest stored value of any kind, in bytes: the room `sb_store_link` and
 * `sb_store_exchange` keep for one.
 */
#define SB_STORE_VALUE_MAX SB_SEND_RATE_VALUE_SIZE

/**
 * `sb_store_link_init` kind: a retry budget (`sb_store_part.budget`), SPEC.md section 19.2's kind 1.
 */
#define SB_STORE_BUDGET 1

/**
 * `sb_store_link_init` kind: a pacer (`sb_store_part.pacer`).
 */
#define SB_STORE_PACER 2

/**
 * `sb_store_link_init` kind: a send rate (`sb_store_part.send_rate`).
 */
#define SB_STORE_SEND_RATE 3

/**
 * `sb_store_link_init` clock: decisions read the store's `TIME`, the caller's readings moved
 * onto it by the offset seen at the latest reply (SPEC.md section 19.3).
 */
#define SB_STORE_CLOCK_STORE 0

/**
 * `sb_store_link_init` clock: decisions read the caller's readings as given (a test's virtual
 * clock, or one the whole fleet shares).
 */
#define SB_STORE_CLOCK_CALLER 1

/**
 * `sb_store_link_state`: not in step with the store; the next decision reads it.
 */
#define SB_STORE_JOINING 0

/**
 * `sb_store_link_state`: deciding through the store.
 */
#define SB_STORE_JOINED 1

/**
 * `sb_store_link_state`: deciding alone until the link asks the store again.
 */
#define SB_STORE_LOCAL 2

/**
 * `sb_store_step.action`: run the script with no argument (a read), then `sb_store_replied`
 * with `SB_STORE_REPLY_VALUE`.
 */
#define SB_STORE_READ 0

/**
 * `sb_store_step.action`: apply the part's operation to `sb_store_exchange.part` in place at
 * `now_ms` (its answer kept; a later decide of the same exchange replaces it), then
 * `sb_store_decided`.
 */
#define SB_STORE_DECIDE 1

/**
 * `sb_store_step.action`: run the script with `expected` (`expected_len` 0: empty, for absent)
 * and `value`, then `sb_store_replied` with `SB_STORE_REPLY_SET` or `SB_STORE_REPLY_CONFLICT`.
 */
#define SB_STORE_COMPARE_AND_SET 2

/**
 * `sb_store_step.action`: the last decision's answer stands (`stored`: the store holds it).
 */
#define SB_STORE_DONE 3

/**
 * `sb_store_replied` reply: the answer to a read (its value or none, and the store's time).
 */
#define SB_STORE_REPLY_VALUE 0

/**
 * `sb_store_replied` reply: the compare-and-set set the value (the script answered 1).
 */
#define SB_STORE_REPLY_SET 1

/**
 * `sb_store_replied` reply: the compare-and-set found another value (the script answered 0).
 */
#define SB_STORE_REPLY_CONFLICT 2

/**
 * The major version of this header; `sb_version()` reports the library's.
 */
#define SB_VERSION_MAJOR 0

/**
 * The minor version of this header.
 */
#define SB_VERSION_MINOR 1

/**
 * The patch version of this header.
 */
#define SB_VERSION_PATCH 0

/**
 * What a call did. Every function of the C ABI that can fail returns one of these.
 *
 * Errors (`SB_ERR_*`, all >= 100) leave every caller-owned struct unchanged.
 */
enum sb_status
#ifdef __cplusplus
  : int32_t
#endif // __cplusplus
 {
  /**
   * Success.
   */
  SB_OK = 0,
  /**
   * Retry: wait the returned delay, then send the request again.
   */
  SB_RETRY = 1,
  /**
   * Give up: the policy's `max_retries` retries were already issued.
   */
  SB_GIVE_UP_MAX_RETRIES = 11,
  /**
   * Give up: the next delay would cross the policy's time budget (`max_elapsed_ms`).
   */
  SB_GIVE_UP_DEADLINE = 12,
  /**
   * Give up: the shared retry budget refused another retry.
   */
  SB_GIVE_UP_BUDGET = 13,
  /**
   * Give up: the server said not to retry.
   */
  SB_GIVE_UP_SERVER_STOP = 14,
  /**
   * Give up: the server asked for a wait longer than the policy's `max_hint_ms`.
   */
  SB_GIVE_UP_HINT_EXCEEDS_MAX = 15,
  /**
   * Give up: the run's send rate refused the attempt (fail-fast).
   */
  SB_GIVE_UP_THROTTLED = 16,
  /**
   * A pointer argument is NULL.
   */
  SB_ERR_NULL = 100,
  /**
   * An `sb_backoff`, `sb_budget` or `sb_pacer` holds values no init function produces
   * (uninitialised or corrupted memory).
   */
  SB_ERR_BAD_STATE = 101,
  /**
   * A failure kind other than `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
   */
  SB_ERR_FAILURE_KIND = 102,
  /**
   * The function, or the jitter strategy the policy names, is not compiled into this build
   * of the library (see the Cargo features in ffi/Cargo.toml).
   */
  SB_ERR_UNSUPPORTED = 103,
  /**
   * A rate-limit header kind other than the `SB_RATE_LIMIT_*` codes.
   */
  SB_ERR_RATE_LIMIT_HEADER = 104,
  /**
   * Policy: `initial_ms` must be in 1..=2147483647.
   */
  SB_ERR_POLICY_INITIAL_MS = 110,
  /**
   * Policy: `max_backoff_ms` must be in initial_ms..=2147483647.
   */
  SB_ERR_POLICY_MAX_BACKOFF_MS = 111,
  /**
   * Policy: `multiplier_den` must be in 1..=1000.
   */
  SB_ERR_POLICY_MULTIPLIER_DEN = 112,
  /**
   * Policy: the multiplier must be >= 1 (`multiplier_num >= multiplier_den`).
   */
  SB_ERR_POLICY_MULTIPLIER_BELOW_ONE = 113,
  /**
   * Policy: the multiplier must be <= 1000 (`multiplier_num <= 1000 * multiplier_den`).
   */
  SB_ERR_POLICY_MULTIPLIER_TOO_LARGE = 114,
  /**
   * Policy: `jitter_ms` must be in 0..=max_backoff_ms (Google jitter).
   */
  SB_ERR_POLICY_JITTER_MS = 115,
  /**
   * Policy: `spread_per_mille` must be in 0..=1000 (proportional jitter).
   */
  SB_ERR_POLICY_SPREAD_PER_MILLE = 116,
  /**
   * Policy: `max_hint_ms` must be in 0..=2147483647.
   */
  SB_ERR_POLICY_MAX_HINT_MS = 117,
  /**
   * Policy: `jitter` must be one of the `SB_JITTER_*` codes (0..=5).
   */
  SB_ERR_POLICY_JITTER = 118,
  /**
   * Policy options: `jitter_ms` given for a strategy other than Google's
   * (`sb_policy_from_options`).
   */
  SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE = 160,
  /**
   * Policy options: `spread_per_mille` given for a strategy other than proportional
   * (`sb_policy_from_options`).
   */
  SB_ERR_POLICY_SPREAD_NOT_APPLICABLE = 161,
  /**
   * Policy: `deadline` must be `SB_DEADLINE_GIVE_UP` (0) or `SB_DEADLINE_CLAMP` (1).
   */
  SB_ERR_POLICY_DEADLINE = 119,
  /**
   * Policy options: `preset` must be one of the `SB_PRESET_*` codes (0..=4).
   */
  SB_ERR_POLICY_PRESET = 162,
  /**
   * Snapshot: not exactly `SB_SNAPSHOT_SIZE` bytes.
   */
  SB_ERR_SNAPSHOT_WRONG_LENGTH = 120,
  /**
   * Snapshot: a format version this library does not know.
   */
  SB_ERR_SNAPSHOT_UNKNOWN_VERSION = 121,
  /**
   * Snapshot: the CRC-32 does not match (damaged bytes).
   */
  SB_ERR_SNAPSHOT_BAD_CHECKSUM = 122,
  /**
   * Snapshot: taken under a different policy.
   */
  SB_ERR_SNAPSHOT_POLICY_MISMATCH = 123,
  /**
   * Snapshot: the random state is all zero.
   */
  SB_ERR_SNAPSHOT_ZERO_RNG_STATE = 124,
  /**
   * Snapshot: a state the policy cannot reach.
   */
  SB_ERR_SNAPSHOT_INVALID_STATE = 125,
  /**
   * Retry hint: nothing but whitespace.
   */
  SB_ERR_PARSE_EMPTY = 130,
  /**
   * Retry hint: a leading minus sign.
   */
  SB_ERR_PARSE_NEGATIVE = 131,
  /**
   * Retry hint: neither delta-seconds nor an HTTP-date.
   */
  SB_ERR_PARSE_INVALID_FORMAT = 132,
  /**
   * HTTP-date: the day name is not Mon..Sun (Monday..Sunday in RFC 850).
   */
  SB_ERR_PARSE_BAD_DAY_NAME = 133,
  /**
   * HTTP-date: the month is not Jan..Dec.
   */
  SB_ERR_PARSE_BAD_MONTH = 134,
  /**
   * HTTP-date: the day is outside the month.
   */
  SB_ERR_PARSE_BAD_DAY = 135,
  /**
   * HTTP-date: the hour is above 23.
   */
  SB_ERR_PARSE_BAD_HOUR = 136,
  /**
   * HTTP-date: the minute is above 59.
   */
  SB_ERR_PARSE_BAD_MINUTE = 137,
  /**
   * HTTP-date: the second is above 60.
   */
  SB_ERR_PARSE_BAD_SECOND = 138,
  /**
   * HTTP-date: the year is 0000 (0001..=9999 are valid; before 1970 is in the past).
   */
  SB_ERR_PARSE_BAD_YEAR = 139,
  /**
   * Retry hint: longer than `SB_MAX_HEADER_VALUE_LEN` (8192) bytes; not read (the parse
   * errors' decade, 130s, is full).
   */
  SB_ERR_PARSE_TOO_LONG = 170,
  /**
   * Budget: gRPC `max_tokens` must be in 1..=1000.
   */
  SB_ERR_BUDGET_MAX_TOKENS = 140,
  /**
   * Budget: gRPC `token_ratio_milli` must be in 1..=1000*max_tokens.
   */
  SB_ERR_BUDGET_TOKEN_RATIO = 141,
  /**
   * Budget: AWS `capacity` must be in 1..=1000000.
   */
  SB_ERR_BUDGET_CAPACITY = 142,
  /**
   * Budget: AWS `retry_cost` and `timeout_cost` must be in 1..=capacity.
   */
  SB_ERR_BUDGET_COST = 143,
  /**
   * Budget: AWS `no_retry_increment` must be in 0..=capacity.
   */
  SB_ERR_BUDGET_NO_RETRY_INCREMENT = 144,
  /**
   * Step input: more than one of `SB_INPUT_RETRY_AFTER`, `SB_INPUT_DO_NOT_RETRY` and
   * `SB_INPUT_RATE_LIMIT` (a step takes at most one server hint).
   */
  SB_ERR_TWO_HINTS = 105,
  /**
   * Startup delay: `window_ms` must be in 0..=2147483647.
   */
  SB_ERR_FLEET_WINDOW_MS = 150,
  /**
   * Stored value: not this format's tag and version, or not its kind's length.
   */
  SB_ERR_STORE_FORMAT = 151,
  /**
   * Stored value: another kind of part's (a pacer's where a send rate's is decoded).
   */
  SB_ERR_STORE_KIND = 152,
  /**
   * Stored value: written under another configuration (its fingerprint differs).
   */
  SB_ERR_STORE_CONFIG = 153,
  /**
   * Stored value: words no state of this configuration reaches.
   */
  SB_ERR_STORE_STATE = 154,
  /**
   * Store link: an `sb_store_link` or `sb_store_exchange` that `sb_store_link_init` and
   * `sb_store_begin` did not set up, of another kind than its link, or corrupted.
   */
  SB_ERR_STORE_LINK = 155,
  /**
   * Store link: a kind other than `SB_STORE_BUDGET`, `SB_STORE_PACER` or `SB_STORE_SEND_RATE`.
   */
  SB_ERR_STORE_PART_KIND = 156,
  /**
   * Store link: a clock other than `SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`.
   */
  SB_ERR_STORE_CLOCK = 157,
  /**
   * Store link: a reply other than the `SB_STORE_REPLY_*` codes.
   */
  SB_ERR_STORE_REPLY = 158,
  /**
   * Run: `sb_run_start` after the run has started.
   */
  SB_ERR_RUN_START = 180,
  /**
   * Run: `sb_run_outcome` while no attempt is in flight.
   */
  SB_ERR_RUN_OUTCOME = 181,
  /**
   * Run: `sb_run_wake` while the run is not sleeping.
   */
  SB_ERR_RUN_WAKE = 182,
  /**
   * Run: `sb_run_pause` while an attempt is in flight or the run is paused.
   */
  SB_ERR_RUN_PAUSE = 183,
  /**
   * Run: `sb_run_resume` while the run is neither paused nor sleeping.
   */
  SB_ERR_RUN_RESUME = 184,
  /**
   * Run: an event after the run is done or has given up.
   */
  SB_ERR_RUN_FINISHED = 185,
  /**
   * Run: a paced event (`sb_run_*_paced`) in a run without a clock (its first event's `now_ms` was NULL).
   */
  SB_ERR_RUN_NO_CLOCK = 179,
  /**
   * Run: `sb_run_init` flags other than `SB_RUN_COUNT_PAUSED`.
   */
  SB_ERR_RUN_FLAGS = 186,
  /**
   * Run: an outcome kind other than the `SB_OUTCOME_*` codes.
   */
  SB_ERR_RUN_OUTCOME_KIND = 187,
  /**
   * Run: a pause reason other than `SB_PAUSE_HIDDEN` or `SB_PAUSE_OFFLINE`.
   */
  SB_ERR_RUN_PAUSE_REASON = 188,
  /**
   * Pacer: `capacity_per_s` must be in 1..=1000000.
   */
  SB_ERR_PACER_CAPACITY_PER_S = 175,
  /**
   * Pacer: `reserve_per_mille` must be in 0..=999.
   */
  SB_ERR_PACER_RESERVE_PER_MILLE = 176,
  /**
   * Pacer: `max_wait_s` must be in 1..=86400.
   */
  SB_ERR_PACER_MAX_WAIT_S = 177,
  /**
   * Send rate: wait `*out_ms`, then ask again (`sb_send_rate_ask`).
   */
  SB_SEND_RATE_WAIT = 2,
  /**
   * Send rate, `fail_fast`: do not send now; `*out_ms` is the wait sending would take.
   */
  SB_SEND_RATE_REFUSE = 3,
  /**
   * Send rate: an answer kind other than the `SB_ANSWER_*` codes.
   */
  SB_ERR_SEND_RATE_ANSWER_KIND = 189,
  /**
   * Send rate: `max_rate_milli` must be in 1..=1000000000.
   */
  SB_ERR_SEND_RATE_MAX_RATE_MILLI = 190,
  /**
   * Send rate: `min_rate_milli` must be in 1..=max_rate_milli.
   */
  SB_ERR_SEND_RATE_MIN_RATE_MILLI = 191,
  /**
   * Send rate: `margin_permille` must be in 1..=500.
   */
  SB_ERR_SEND_RATE_MARGIN_PERMILLE = 192,
  /**
   * Send rate: `probe_ms` must be in 10..=60000.
   */
  SB_ERR_SEND_RATE_PROBE_MS = 193,
  /**
   * Send rate: `probe_first_permille` must be in 1..=probe_max_permille.
   */
  SB_ERR_SEND_RATE_PROBE_FIRST_PERMILLE = 194,
  /**
   * Send rate: `probe_max_permille` must be in 1..=1000.
   */
  SB_ERR_SEND_RATE_PROBE_MAX_PERMILLE = 195,
  /**
   * Send rate: `guard_ms` must be in 0..=60000.
   */
  SB_ERR_SEND_RATE_GUARD_MS = 196,
  /**
   * Send rate: `burst` must be in 1..=1000.
   */
  SB_ERR_SEND_RATE_BURST = 197,
  /**
   * Send rate: `max_hold_ms` must be in 0..=3600000.
   */
  SB_ERR_SEND_RATE_MAX_HOLD_MS = 198,
  /**
   * An error this version of the C layer has no code for (a newer core).
   */
  SB_ERR_OTHER = 199,
};
#ifndef __cplusplus
typedef int32_t sb_status;
#endif // __cplusplus

/**
 * What to do with a response.
 */
enum sb_class
#ifdef __cplusplus
  : int32_t
#endif // __cplusplus
 {
  /**
   * It worked: `sb_backoff_reset` if the state is reused.
   */
  SB_CLASS_SUCCESS = 0,
  /**
   * A transient failure: report `SB_OUTCOME_RETRYABLE` to the run (or ask `sb_backoff_next`).
   */
  SB_CLASS_RETRY = 1,
  /**
   * A permanent failure: report it now.
   */
  SB_CLASS_DO_NOT_RETRY = 2,
  /**
   * Not a valid status at all.
   */
  SB_CLASS_INVALID = 3,
};
#ifndef __cplusplus
typedef int32_t sb_class;
#endif // __cplusplus

/**
 * A retry policy as plain integers (SPEC.md section 2). Start from a preset such as
 * `sb_policy_google()` and change fields; every function that takes one validates it and returns
 * the `SB_ERR_POLICY_*` code of the first invalid field.
 */
typedef struct sb_policy {
  /**
   * The first delay's base, ms (1..=2147483647).
   */
  uint32_t initial_ms;
  /**
   * Multiplier numerator: the base grows by `multiplier_num / multiplier_den` per retry.
   */
  uint32_t multiplier_num;
  /**
   * Multiplier denominator (1..=1000).
   */
  uint32_t multiplier_den;
  /**
   * The cap on computed delays, ms (initial_ms..=2147483647).
   */
  uint32_t max_backoff_ms;
  /**
   * Retries before giving up (0 = never retry).
   */
  uint32_t max_retries;
  /**
   * Jitter strategy, an `SB_JITTER_*` code.
   */
  uint32_t jitter;
  /**
   * Google jitter only: upper bound of the added random ms (0..=max_backoff_ms).
   */
  uint32_t jitter_ms;
  /**
   * Proportional jitter only: half-width of the band in thousandths of the base (0..=1000).
   */
  uint32_t spread_per_mille;
  /**
   * The largest server hint honoured, ms (0..=2147483647); a longer one gives up with
   * `SB_GIVE_UP_HINT_EXCEEDS_MAX`. Every preset sets `SB_DEFAULT_MAX_HINT_MS` (300000),
   * whatever its cap.
   */
  uint32_t max_hint_ms;
  /**
   * Time budget since the first attempt, ms; 0 means none.
   */
  uint32_t max_elapsed_ms;
  /**
   * What a delay crossing the time budget does, an `SB_DEADLINE_*` code.
   */
  uint32_t deadline;
  /**
   * Nonzero: follow a pacing server, a `Retry-After` is the wait itself (SPEC.md section 16).
   */
  uint32_t paced;
} sb_policy;

/**
 * One request's retry state: the core's 32-byte state as integers plus a copy of its policy, so
 * the step functions need no policy argument. Allocate it anywhere (stack, static, inside your own
 * struct), set it up with `sb_backoff_init` or `sb_backoff_restore`, and treat the fields as
 * private: every call validates them and returns `SB_ERR_BAD_STATE` if they were corrupted.
 */
typedef struct sb_backoff {
  /**
   * Random generator state (xoshiro128++ words s0..s3).
   */
  uint32_t rng[4];
  /**
   * Retries issued since init or the last reset.
   */
  uint32_t retries;
  /**
   * The un-jittered base of the next retry (the previous delay for decorrelated jitter).
   */
  uint32_t level;
  /**
   * Milliseconds spent so far (issued delays, or the caller's clock plus the last delay).
   */
  uint32_t elapsed_ms;
  /**
   * 0 while retrying, else the give-up reason (1..=4, SPEC.md section 5).
   */
  uint32_t gave_up;
  /**
   * The policy this state follows, validated at init.
   */
  struct sb_policy policy;
} sb_backoff;

/**
 * A retry budget shared by every request to one server. Allocate it anywhere, set it up with an
 * `sb_budget_init_*` function, and treat the fields as private: every call validates them and
 * returns `SB_ERR_BAD_STATE` if they were corrupted. Not thread-safe: guard it with a lock if
 * several threads share it. In a build without the `budget` feature every `sb_budget_*` function
 * and every step or run given a budget return `SB_ERR_UNSUPPORTED`.
 */
typedef struct sb_budget {
  /**
   * `SB_BUDGET_GRPC` or `SB_BUDGET_AWS_QUOTA`.
   */
  uint32_t mode;
  /**
   * gRPC: `max_tokens`, `token_ratio_milli`, 0, 0. AWS: `capacity`, `retry_cost`,
   * `timeout_cost`, `no_retry_increment` (whole tokens).
   */
  uint32_t params[4];
  /**
   * Tokens left, in thousandths.
   */
  uint32_t tokens_milli;
} sb_budget;

/**
 * One response header: `name_len` bytes at `name` and `value_len` bytes at `value`, no NUL
 * needed.
 */
typedef struct sb_header {
  /**
   * The header's name, in any case.
   */
  const char *name;
  /**
   * Bytes at `name`.
   */
  uintptr_t name_len;
  /**
   * The header's value.
   */
  const char *value;
  /**
   * Bytes at `value`.
   */
  uintptr_t value_len;
} sb_header;

/**
 * The inputs of one `sb_backoff_next_with` step. Fields whose flag is not set are not read.
 */
typedef struct sb_step_input {
  /**
   * `SB_INPUT_*` bits: which of the fields below are given.
   */
  uint32_t flags;
  /**
   * With `SB_INPUT_RETRY_AFTER`: the server's Retry-After, ms (see `sb_parse_retry_after`).
   */
  uint32_t retry_after_ms;
  /**
   * With `SB_INPUT_ELAPSED`: ms since the first attempt by the caller's monotonic clock.
   */
  uint64_t elapsed_ms;
  /**
   * With `SB_INPUT_BUDGET`: `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
   */
  uint32_t failure_kind;
  /**
   * With `SB_INPUT_RATE_LIMIT`: ms until the rate-limit quota resets. Last, so an initialiser
   * that lists the first four fields leaves it 0.
   */
  uint32_t rate_limit_ms;
} sb_step_input;

/**
 * A server's pacer: one per server (or per quota), fed the server's monotonic clock in
 * milliseconds. Allocate it anywhere, set it up with `sb_pacer_init`, and treat the fields as
 * private: every call validates them and returns `SB_ERR_BAD_STATE` if they were corrupted. Not
 * thread-safe: guard it with a lock if several threads share it. In a build without the `pacer`
 * feature every `sb_pacer_*` function returns `SB_ERR_UNSUPPORTED`.
 */
typedef struct sb_pacer {
  /**
   * The latest clock reading seen, in ms.
   */
  uint64_t latest_ms;
  /**
   * The earliest second of the schedule that may still have room.
   */
  uint64_t tail_s;
  /**
   * The second that keeps the reserve (the first of the latest schedule that started empty).
   */
  uint64_t reserve_s;
  /**
   * Random generator state (xoshiro128++ words s0..s3).
   */
  uint32_t rng[4];
  /**
   * Returns the reserve second holds.
   */
  uint32_t rate;
  /**
   * The longest wait the pacer tells, in seconds.
   */
  uint32_t max_wait_s;
  /**
   * Returns already assigned to `tail_s`.
   */
  uint32_t tail_count;
  /**
   * Returns every other second holds.
   */
  uint32_t capacity;
} sb_pacer;

/**
 * Where a refused request is told to come back (SPEC.md section 16.2), with the text of the
 * headers to send with the 429 or 503 (section 16.4), each NUL-terminated: `retry-after`,
 * `ratelimit-reset` and `ratelimit`.
 */
typedef struct sb_pacer_slot {
  /**
   * The `Retry-After` value, whole seconds, in 1..=max_wait_s.
   */
  uint32_t retry_after_s;
  /**
   * The return time in ms from now, in 1..=max_wait_s*1000+999.
   */
  uint32_t reset_ms;
  /**
   * The schedule was full up to `max_wait_s`: the server may answer something else instead.
   */
  bool full;
  /**
   * The `retry-after` header's value (`"2"`).
   */
  char retry_after[12];
  /**
   * The `ratelimit-reset` header's value (`"1.350"`).
   */
  char ratelimit_reset[12];
  /**
   * The `ratelimit` header's value (`"\"pacer\";r=0;t=2"`).
   */
  char ratelimit[28];
} sb_pacer_slot;

/**
 * A reconnect loop's state: the generator, the retry count and the level, plus a pointer to the
 * policy it follows, which must stay valid and unchanged as long as the state is used (make it
 * `static const`). Set it up with `sb_reconnect_init` and treat the fields as private: every
 * call validates them and the policy's fields it reads, and returns `SB_ERR_BAD_STATE` if either
 * was corrupted.
 */
typedef struct sb_reconnect {
  /**
   * Random generator state (xoshiro128++ words s0..s3).
   */
  uint32_t rng[4];
  /**
   * Retries issued since init or the last reset; under `SB_RETRY_FOREVER` it stops at
   * 4294967295 and the retries go on.
   */
  uint32_t retries;
  /**
   * The un-jittered base of the next retry (the previous delay for decorrelated jitter).
   */
  uint32_t level;
  /**
   * The policy, read where it lies at every step rather than copied.
   */
  const struct sb_policy *policy;
} sb_reconnect;

/**
 * One call's retry run: the core's run as integers plus a copy of its policy. Place it anywhere,
 * set it up with `sb_run_init`, and treat the fields as private: every call validates them
 * (`SB_ERR_BAD_STATE`) and writes them back only on success.
 */
typedef struct sb_run {
  /**
   * The run's state, SPEC.md section 15's raw form, as 11 words.
   */
  uint64_t state[11];
  /**
   * The policy, validated at init.
   */
  struct sb_policy policy;
} sb_run;

/**
 * What to do next: an `SB_ACTION_*` code and its numbers.
 */
typedef struct sb_action {
  /**
   * An `SB_ACTION_*` code.
   */
  uint32_t kind;
  /**
   * The attempt to make, the attempt that failed, or the attempts made.
   */
  uint32_t attempt;
  /**
   * The sleep, or the longest pause (`UINT32_MAX`: none).
   */
  uint32_t delay_ms;
  /**
   * With `SB_ACTION_GIVE_UP`: an `SB_GIVE_UP_*` status, or 0 for a permanent error.
   */
  uint32_t reason;
} sb_action;

/**
 * How an attempt ended, for `sb_run_outcome`.
 */
typedef struct sb_outcome {
  /**
   * An `SB_OUTCOME_*` code.
   */
  uint32_t kind;
  /**
   * With `SB_OUTCOME_RETRYABLE`: `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
   */
  uint32_t failure_kind;
  /**
   * With `SB_OUTCOME_RETRYABLE`: 0, `SB_INPUT_RETRY_AFTER`, `SB_INPUT_RATE_LIMIT` or
   * `SB_INPUT_DO_NOT_RETRY`, as `sb_hint_from_headers` gives it.
   */
  uint32_t hint_flag;
  /**
   * The hint's milliseconds.
   */
  uint32_t hint_ms;
} sb_outcome;

/**
 * A send rate's parameters (SPEC.md section 17.1). Start from `sb_send_rate_config_default()`
 * and change fields; `sb_send_rate_init` checks them in this order and names the first out of
 * range (`SB_ERR_SEND_RATE_*`).
 */
typedef struct sb_send_rate_config {
  /**
   * Thousandths of a request per second, 1..=1000000000 (default 1000000000).
   */
  uint32_t max_rate_milli;
  /**
   * 1..=max_rate_milli (default 1: one request every 1000 s).
   */
  uint32_t min_rate_milli;
  /**
   * How far under the measured accepted rate a throttle sets the rate, 1..=500 (default 20).
   */
  uint32_t margin_permille;
  /**
   * How often the rate grows without a throttle, 10..=60000 ms (default 500).
   */
  uint32_t probe_ms;
  /**
   * The first growth after a throttle, 1..=probe_max_permille (default 10).
   */
  uint32_t probe_first_permille;
  /**
   * The largest growth per probe, 1..=1000 (default 250).
   */
  uint32_t probe_max_permille;
  /**
   * Throttles within this many ms of a decrease do not decrease again, 0..=60000 (default 0).
   */
  uint32_t guard_ms;
  /**
   * Attempts that may go at once after an idle spell, 1..=1000 (default 2).
   */
  uint32_t burst;
  /**
   * The longest a server's hint holds every attempt, 0..=3600000 ms (default 60000).
   */
  uint32_t max_hold_ms;
  /**
   * Nonzero: `sb_send_rate_ask` refuses an attempt that would have to wait (default 0).
   */
  uint32_t fail_fast;
} sb_send_rate_config;

/**
 * A send rate shared by every request of a process to one server. Allocate it anywhere, set it
 * up with `sb_send_rate_init`, and treat the fields as private: every call validates them and
 * returns `SB_ERR_BAD_STATE` if they were corrupted. Not thread-safe: when several threads share
 * one, the caller holds its own lock around each `sb_send_rate_*` call (each call is one O(1)
 * transition, SPEC.md section 17.6).
 */
typedef struct sb_send_rate {
  /**
   * The parameters, as given to `sb_send_rate_init` (`fail_fast` as 0 or 1).
   */
  struct sb_send_rate_config config;
  /**
   * The state's words (SPEC.md section 17.1).
   */
  uint64_t state[22];
} sb_send_rate;

/**
 * One part of the kind its link names: only that member is read and written.
 */
typedef struct sb_store_part {
  /**
   * `SB_STORE_BUDGET`'s part.
   */
  struct sb_budget budget;
  /**
   * `SB_STORE_PACER`'s part.
   */
  struct sb_pacer pacer;
  /**
   * `SB_STORE_SEND_RATE`'s part.
   */
  struct sb_send_rate send_rate;
} sb_store_part;

/**
 * What a link's decisions cost so far (`sb_store_link_stats`).
 */
typedef struct sb_store_stats {
  /**
   * Decisions made.
   */
  uint64_t decisions;
  /**
   * Of those, decisions made from the process's own state (the store failed, was slow, held a
   * value of another configuration, or conflicted `SB_STORE_MAX_TRIES` times).
   */
  uint64_t alone;
  /**
   * Conflicts met, each one decision made again.
   */
  uint64_t conflicts;
} sb_store_stats;

/**
 * One part's link to its key (SPEC.md section 19): the process's own state, the value last
 * seen, where it stands with the store, its clock and counts. Set it up with
 * `sb_store_link_init` and treat the fields as private: every call validates them and returns
 * `SB_ERR_STORE_LINK` if they were corrupted. Not thread-safe: the caller holds its own lock
 * around each call that takes it (never across a round trip).
 */
typedef struct sb_store_link {
  /**
   * The cold start: the part as given to `sb_store_link_init`.
   */
  struct sb_store_part fresh;
  /**
   * The process's own state: the fleet's as last seen, with the decisions made alone since.
   */
  struct sb_store_part local;
  /**
   * The fleet's state the decisions made alone since are counted from, if `has_since` is 1
   * (SPEC.md section 19.6: they are carried into the fleet's state when the process is back in
   * step).
   */
  struct sb_store_part since;
  /**
   * The value last seen in the store, `seen_len` bytes (0: none).
   */
  uint8_t seen[SB_STORE_VALUE_MAX];
  /**
   * The caller's reading at which a local link asks the store again.
   */
  uint64_t rejoin_at_ms;
  /**
   * The store's time at the latest reply.
   */
  uint64_t fleet_base_ms;
  /**
   * The caller's reading at the latest reply.
   */
  uint64_t caller_base_ms;
  /**
   * 1 if `since` holds a state, else 0 (a 64-bit word, so the struct has no padding).
   */
  uint64_t has_since;
  /**
   * The decisions' counts.
   */
  struct sb_store_stats stats;
  /**
   * `SB_STORE_BUDGET`, `SB_STORE_PACER` or `SB_STORE_SEND_RATE`.
   */
  uint32_t kind;
  /**
   * `SB_STORE_JOINING`, `SB_STORE_JOINED` or `SB_STORE_LOCAL`.
   */
  uint32_t state;
  /**
   * `SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`.
   */
  uint32_t clock;
  /**
   * Decisions in a row that passed the bound.
   */
  uint32_t late;
  /**
   * Why the last value read could not be used (an `SB_ERR_STORE_*` code), else 0.
   */
  uint32_t error;
  /**
   * The length of `seen`: 0 or the kind's value size.
   */
  uint32_t seen_len;
} sb_store_link;

/**
 * One decision's exchange with the store, begun by `sb_store_begin` or `sb_store_begin_alone`
 * (which set every field) and driven through the steps they and the calls after them answer.
 * Several exchanges may run at once over one link. `part` holds the state a `SB_STORE_DECIDE`
 * step asks to decide on; `expected` and `value` the bytes of a `SB_STORE_COMPARE_AND_SET`.
 */
typedef struct sb_store_exchange {
  /**
   * The state to decide on (its link's kind's member), decided in place.
   */
  struct sb_store_part part;
  /**
   * The value the decision was made on, `expected_len` bytes (0: absent).
   */
  uint8_t expected[SB_STORE_VALUE_MAX];
  /**
   * The value after the decision, `value_len` bytes.
   */
  uint8_t value[SB_STORE_VALUE_MAX];
  /**
   * The caller's reading the decision began at.
   */
  uint64_t caller_ms;
  /**
   * Its link's kind.
   */
  uint32_t kind;
  /**
   * What the exchange waits for.
   */
  uint32_t phase;
  /**
   * Conflicts met.
   */
  uint32_t tries;
  /**
   * 1: `expected` came with a reply of this exchange.
   */
  uint32_t replied;
  /**
   * The length of `expected`: 0 or the kind's value size.
   */
  uint32_t expected_len;
  /**
   * The length of `value`: 0 or the kind's value size.
   */
  uint32_t value_len;
} sb_store_exchange;

/**
 * What the caller does next for one decision.
 */
typedef struct sb_store_step {
  /**
   * `SB_STORE_READ`, `SB_STORE_DECIDE`, `SB_STORE_COMPARE_AND_SET` or `SB_STORE_DONE`.
   */
  uint32_t action;
  /**
   * `SB_STORE_DONE`: 1 if the store holds the decision, 0 if it was made alone.
   */
  uint32_t stored;
  /**
   * `SB_STORE_DECIDE`: the fleet clock's reading to decide at, in ms.
   */
  uint64_t now_ms;
} sb_store_step;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * Starts a request's retry state under `policy`, its jitter seeded from `seed` (use a different
 * seed per client, e.g. a device id mixed with a counter). Returns `SB_OK`, `SB_ERR_NULL` or the
 * policy's `SB_ERR_POLICY_*` code; `*b` is written only on `SB_OK`.
 *
 * ```c
 * sb_policy policy = sb_policy_google();
 * sb_backoff b;
 * if (sb_backoff_init(&b, &policy, 42) != SB_OK)
 *     return; // invalid policy
 * ```
 *
 * # Safety
 * `b` is NULL or valid for writes of an `sb_backoff`; `policy` is NULL or readable.
 */
sb_status sb_backoff_init(struct sb_backoff *b, const struct sb_policy *policy, uint64_t seed);

/**
 * The bare step: the delay before the next retry, `SB_RETRY` with `*delay_ms` set, or an
 * `SB_GIVE_UP_*` reason (then `*delay_ms` is not written, and the state answers the same reason
 * until reset). Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, with `*b` unchanged. A step with a
 * server hint, the caller's clock or a budget is `sb_backoff_next_with`; a whole retry loop,
 * attempts and all, is `sb_run_*`.
 *
 * ```c
 * uint32_t delay_ms;
 * while (send_request() >= 500) {
 *     if (sb_backoff_next(&b, &delay_ms) != SB_RETRY) break; // give up
 *     sleep_ms(delay_ms);
 * }
 * ```
 *
 * # Safety
 * `b` and `delay_ms` are NULL or valid for reads and writes.
 */
sb_status sb_backoff_next(struct sb_backoff *b, uint32_t *delay_ms);

/**
 * Starts over after a success: retries, level and elapsed time return to their initial values
 * and a give-up is cleared. The random stream continues (no replay of the last jitter).
 *
 * # Safety
 * `b` is NULL or valid for reads and writes.
 */
sb_status sb_backoff_reset(struct sb_backoff *b);

/**
 * Stores the number of retries issued since init or the last reset in `*out`.
 *
 * # Safety
 * `b` is NULL or readable; `out` is NULL or writable.
 */
sb_status sb_backoff_retries(const struct sb_backoff *b, uint32_t *out);

/**
 * A full gRFC A6 retry-throttling budget: `max_tokens` 1..=1000, `token_ratio_milli`
 * 1..=1000*max_tokens (the ratio times 1000). Returns `SB_OK`, `SB_ERR_NULL`,
 * `SB_ERR_BUDGET_MAX_TOKENS` or `SB_ERR_BUDGET_TOKEN_RATIO`.
 *
 * ```c
 * static sb_budget budget; // shared by every request to one server
 * sb_budget_init_grpc(&budget, 10, 100); // 10 tokens, each success refunds 0.1
 * ```
 *
 * # Safety
 * `b` is NULL or valid for writes of an `sb_budget`.
 */
sb_status sb_budget_init_grpc(struct sb_budget *b, uint32_t max_tokens, uint32_t token_ratio_milli);

/**
 * A full AWS retry quota (whole tokens): `capacity` 1..=1000000, `retry_cost` and `timeout_cost`
 * 1..=capacity, `no_retry_increment` 0..=capacity.
 *
 * # Safety
 * `b` is NULL or valid for writes of an `sb_budget`.
 */
sb_status sb_budget_init_aws_quota(struct sb_budget *b,
                                   uint32_t capacity,
                                   uint32_t retry_cost,
                                   uint32_t timeout_cost,
                                   uint32_t no_retry_increment);

/**
 * The AWS SDKs' default quota: 500 tokens, a retry costs 5, a timeout 10, a first-try success
 * adds 1.
 *
 * # Safety
 * `b` is NULL or valid for writes of an `sb_budget`.
 */
sb_status sb_budget_init_aws_default(struct sb_budget *b);

/**
 * Records a failed attempt (gRPC mode spends a token). `sb_run_outcome` and
 * `sb_backoff_next_with` (`SB_INPUT_BUDGET`) do this themselves; call it directly only without
 * them.
 *
 * # Safety
 * `b` is NULL or valid for reads and writes of an `sb_budget`.
 */
sb_status sb_budget_record_failure(struct sb_budget *b, uint32_t kind);

/**
 * Asks to retry: `*allowed` becomes true or false (the AWS quota spends the retry's cost when
 * true). `sb_run_outcome` and `sb_backoff_next_with` (`SB_INPUT_BUDGET`) do this themselves.
 *
 * # Safety
 * `b` is NULL or valid for reads and writes; `allowed` is NULL or writable.
 */
sb_status sb_budget_try_acquire(struct sb_budget *b, uint32_t kind, bool *allowed);

/**
 * Records a success. `retried` is false for a first-try success; when true, `kind` is the kind of
 * failure the successful retry followed (the AWS quota refunds its cost).
 *
 * # Safety
 * `b` is NULL or valid for reads and writes of an `sb_budget`.
 */
sb_status sb_budget_record_success(struct sb_budget *b, bool retried, uint32_t kind);

/**
 * Stores the tokens left, in thousandths, in `*out`.
 *
 * # Safety
 * `b` is NULL or readable; `out` is NULL or writable.
 */
sb_status sb_budget_tokens_milli(const struct sb_budget *b, uint32_t *out);

/**
 * True for the HTTP statuses worth retrying: 429 and 500..=599.
 *
 * ```c
 * o.kind = sb_is_retryable_http(status) ? SB_OUTCOME_RETRYABLE : SB_OUTCOME_PERMANENT;
 * ```
 */
bool sb_is_retryable_http(uint32_t status);

/**
 * Classifies an HTTP status: 2xx success, 429 and 5xx retry, other 100..=599 do not retry,
 * anything else (a negative `int` converts to a large value) invalid.
 */
sb_class sb_classify_http(uint32_t status);

/**
 * Classifies a gRPC status code: 0 success, 8 and 14 retry, other 1..=16 do not retry, above 16
 * invalid.
 */
sb_class sb_classify_grpc(uint32_t code);

/**
 * Whether a request may be sent again after a failure (SPEC.md section 7.1): its method
 * (`method_len` bytes at `method`, case-sensitive, e.g. "GET") is idempotent by RFC 9110 section
 * 9.2.2 (GET, HEAD, OPTIONS, PUT, DELETE, TRACE), or it carries an `Idempotency-Key` header. A
 * POST without one might charge a card twice: send it once. False for a NULL `method`.
 *
 * ```c
 * if (!sb_request_may_retry("POST", 4, has_key)) return send_once(request);
 * ```
 *
 * # Safety
 * `method` is NULL or valid for reads of `method_len` bytes.
 */
bool sb_request_may_retry(const char *method, uintptr_t method_len, bool has_idempotency_key);

/**
 * The seed of call `index` (0, 1, 2, … in the order the calls start) of a loop seeded with `seed`
 * (SPEC.md section 14): `seed` itself for call 0, and a different seed for every other index, so
 * that calls made together retry apart. A loop written over `sb_run_*` that serves many calls
 * seeds call `i`'s run with it, counting its calls from 0.
 *
 * ```c
 * static uint64_t calls; // this loop's call counter
 * sb_run_init(&run, &policy, sb_call_seed(device_seed, calls++), 0);
 * ```
 */
uint64_t sb_call_seed(uint64_t seed, uint64_t index);

/**
 * Writes to `*seed` a seed for `sb_backoff_init` made from the device's unique id (`len` bytes at
 * `id`: a serial number, MAC address or chip UID) and a counter the device increments on every
 * boot and keeps (e.g. in flash): the same inputs give the same seed on every platform, and each
 * boot counter a different one. Returns `SB_OK` or `SB_ERR_NULL` (`SB_ERR_UNSUPPORTED` in a
 * build without the `fleet` feature).
 *
 * ```c
 * uint64_t seed;
 * sb_seed_from_device(chip_uid, sizeof chip_uid, boot_count, &seed);
 * sb_backoff_init(&b, &policy, seed);
 * ```
 *
 * # Safety
 * `id` is NULL or valid for reads of `len` bytes; `seed` is NULL or writable.
 */
sb_status sb_seed_from_device(const uint8_t *id,
                              uintptr_t len,
                              uint32_t boot_counter,
                              uint64_t *seed);

/**
 * Writes to `*delay_ms` how long to wait before the first connection after power returns to the
 * whole fleet: a uniform draw in `0..=window_ms` from `seed` (use the device's seed), so the
 * fleet's reconnections spread over the window. Returns `SB_OK`, `SB_ERR_NULL` or
 * `SB_ERR_FLEET_WINDOW_MS` (`SB_ERR_UNSUPPORTED` in a build without the `fleet` feature).
 *
 * ```c
 * uint32_t wait_ms;
 * if (sb_startup_delay(seed, 60000, &wait_ms) == SB_OK)
 *     sleep_ms(wait_ms); // then connect
 * ```
 *
 * # Safety
 * `delay_ms` is NULL or writable.
 */
sb_status sb_startup_delay(uint64_t seed, uint32_t window_ms, uint32_t *delay_ms);

/**
 * The server hint a response gives: a valid `Retry-After` (any status); else, for a 429 only,
 * the first rate-limit header in `SB_RATE_LIMIT_*` order that is present and parses; else none.
 * Header names match in any case, and of a name given twice the first counts. `now_unix_s` is
 * the time HTTP-dates and Unix times are measured from.
 *
 * Returns `SB_OK` with `*hint_flag` set to `SB_INPUT_RETRY_AFTER`, `SB_INPUT_RATE_LIMIT` or 0
 * (no hint) and `*hint_ms` to its milliseconds (0 without a hint), ready for an `sb_outcome`
 * (or an `sb_step_input`); `SB_ERR_NULL` for a NULL output, a NULL `headers` (it may be NULL when
 * `count` is 0) or a header with a NULL pointer; `SB_ERR_UNSUPPORTED` in a build without the
 * `retry-after` feature.
 *
 * ```c
 * sb_header headers[] = {{"Retry-After", 11, "120", 3}};
 * sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
 * if (sb_hint_from_headers(503, headers, 1, (uint64_t)time(NULL), &o.hint_flag, &o.hint_ms) == SB_OK)
 *     rc = sb_run_outcome(&run, &o, now_ms(), NULL, &act);
 * ```
 *
 * # Safety
 * `headers` is NULL or valid for reads of `count` `sb_header`s, each pointer NULL or valid for
 * reads of its length; `hint_flag` and `hint_ms` are NULL or writable.
 */
sb_status sb_hint_from_headers(uint32_t status,
                               const struct sb_header *headers,
                               uintptr_t count,
                               uint64_t now_unix_s,
                               uint32_t *hint_flag,
                               uint32_t *hint_ms);

/**
 * Parses a `Retry-After` header value (`len` bytes at `s`, no NUL needed) into milliseconds from
 * `now_unix_s`: delta-seconds (saturating) or any of the three HTTP-date formats; a past date gives
 * 0. Returns `SB_OK` with `*out_ms` set, `SB_ERR_NULL`, or an `SB_ERR_PARSE_*` code
 * (`SB_ERR_UNSUPPORTED` in a build without the `retry-after` feature).
 *
 * ```c
 * sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
 * if (sb_parse_retry_after(value, value_len, (uint64_t)time(NULL), &o.hint_ms) == SB_OK)
 *     o.hint_flag = SB_INPUT_RETRY_AFTER;
 * rc = sb_run_outcome(&run, &o, now_ms(), NULL, &act);
 * ```
 *
 * # Safety
 * `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
 */
sb_status sb_parse_retry_after(const char *s, uintptr_t len, uint64_t now_unix_s, uint32_t *out_ms);

/**
 * Parses a rate-limit header's value (`len` bytes at `s`) into milliseconds until the quota
 * resets, from `now_unix_s`. `header_kind` is an `SB_RATE_LIMIT_*` code. Read these headers only
 * for a 429 (`sb_rate_limit_applies`) without a valid `Retry-After`, in code order, and step
 * with the first that parses (`SB_INPUT_RATE_LIMIT`); `sb_hint_from_headers` does all of this
 * for a response's headers. Returns `SB_OK` with `*out_ms`
 * set, `SB_ERR_NULL`, `SB_ERR_RATE_LIMIT_HEADER`, or `SB_ERR_PARSE_EMPTY`, `_NEGATIVE` or
 * `_INVALID_FORMAT` (`SB_ERR_UNSUPPORTED` in a build without the `retry-after` feature).
 *
 * ```c
 * sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
 * for (uint32_t k = 0; k < SB_RATE_LIMIT_COUNT; k++) {
 *     const char *v = find_header(response, sb_rate_limit_name(k));
 *     if (v && sb_parse_rate_limit(k, v, strlen(v), (uint64_t)time(NULL), &o.hint_ms) == SB_OK) {
 *         o.hint_flag = SB_INPUT_RATE_LIMIT;
 *         break;
 *     }
 * }
 * ```
 *
 * # Safety
 * `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
 */
sb_status sb_parse_rate_limit(uint32_t header_kind,
                              const char *s,
                              uintptr_t len,
                              uint64_t now_unix_s,
                              uint32_t *out_ms);

/**
 * True for the HTTP statuses whose rate-limit headers are read: 429 only (on a 5xx the reset
 * time describes a quota, not the server's recovery).
 */
bool sb_rate_limit_applies(uint32_t status);

/**
 * Parses a `grpc-retry-pushback-ms` value: non-negative decimal milliseconds (saturating).
 * As gRFC A6 requires, treat every error as "do not retry" (`SB_INPUT_DO_NOT_RETRY`).
 * `SB_ERR_UNSUPPORTED` in a build without the `hints` feature.
 *
 * # Safety
 * `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
 */
sb_status sb_parse_grpc_pushback(const char *s, uintptr_t len, uint32_t *out_ms);

/**
 * `sb_backoff_next` with any combination of inputs (`*input`): a hint, the caller's clock, and
 * `*budget` (read only with `SB_INPUT_BUDGET`; otherwise it may be NULL). The hint takes no
 * random draw (a rate-limit reset takes one) and does not change later delays' growth. Returns
 * `SB_RETRY` with `*delay_ms` set, an `SB_GIVE_UP_*` reason, or an error (`SB_ERR_NULL`,
 * `SB_ERR_BAD_STATE`, `SB_ERR_FAILURE_KIND`, `SB_ERR_TWO_HINTS` for more than one hint flag,
 * `SB_ERR_UNSUPPORTED` for an input whose feature, `hints`, `time-budget` or `budget`, this build
 * leaves out) that changes neither struct.
 *
 * ```c
 * sb_step_input in = {SB_INPUT_RETRY_AFTER | SB_INPUT_ELAPSED, 5000, now_ms() - start_ms, 0};
 * if (sb_backoff_next_with(&b, &in, NULL, &delay_ms) == SB_RETRY) sleep_ms(delay_ms);
 * in.flags = SB_INPUT_DO_NOT_RETRY; // e.g. an unparseable gRPC pushback
 * sb_backoff_next_with(&b, &in, NULL, &delay_ms); // SB_GIVE_UP_SERVER_STOP
 * ```
 *
 * # Safety
 * `b` and `delay_ms` are NULL or valid for reads and writes; `input` is NULL or readable;
 * with `SB_INPUT_BUDGET`, `budget` is NULL or valid for reads and writes.
 */
sb_status sb_backoff_next_with(struct sb_backoff *b,
                               const struct sb_step_input *input,
                               struct sb_budget *budget,
                               uint32_t *delay_ms);

/**
 * The name of the preset with code `code` (an `SB_PRESET_*` value): "google", "google_64s",
 * "aws_standard", "grpc", "mobile"; NULL for any other code.
 *
 * ```c
 * for (uint32_t i = 0; sb_preset_name(i) != NULL; i++) puts(sb_preset_name(i));
 * ```
 */
const char *sb_preset_name(uint32_t code);

/**
 * The name of the jitter strategy with code `code` (an `SB_JITTER_*` value): "none", "google",
 * "full", "equal", "decorrelated", "proportional"; NULL for any other code.
 */
const char *sb_jitter_name(uint32_t code);

/**
 * The name of the deadline mode with code `code` (an `SB_DEADLINE_*` value): "give_up",
 * "clamp"; NULL for any other code.
 */
const char *sb_deadline_name(uint32_t code);

/**
 * The lower-case name of the rate-limit header with code `code` (an `SB_RATE_LIMIT_*` value, in
 * the order a 429 is searched): "ratelimit", "ratelimit-reset", "x-ratelimit-retry-after",
 * "x-ratelimit-reset"; NULL for any other code.
 *
 * ```c
 * for (uint32_t k = 0; sb_rate_limit_name(k) != NULL; k++) {
 *     const char *v = find_header(response, sb_rate_limit_name(k));
 *     if (v && sb_parse_rate_limit(k, v, strlen(v), (uint64_t)time(NULL), &ms) == SB_OK) break;
 * }
 * ```
 */
const char *sb_rate_limit_name(uint32_t code);

/**
 * The name of a class (an `sb_class` value, as `sb_classify_http` returns it): "success",
 * "retry", "do_not_retry", "invalid"; NULL for any other value.
 */
const char *sb_class_name(int32_t class_);

/**
 * The core's snake_case name for what a status stands for: the give-up reason of an
 * `SB_GIVE_UP_*` status ("max_retries", ...) or the core error of an `SB_ERR_*` status
 * ("bad_day", "initial_ms", ...), as the test vectors and the other bindings name them. NULL for
 * a status that stands for no core variant (`SB_OK`, `SB_ERR_NULL`, ...) and for unknown codes.
 *
 * ```c
 * if (rc >= SB_GIVE_UP_MAX_RETRIES && rc <= SB_GIVE_UP_HINT_EXCEEDS_MAX) log("gave up: %s", sb_status_name(rc));
 * ```
 */
const char *sb_status_name(int32_t code);

/**
 * The policy option an `SB_ERR_POLICY_*` status is about, as SPEC.md section 2 names it
 * ("initial_ms", "multiplier", "jitter_ms", ...), so a binding can show the value at fault. NULL
 * for any other code, `SB_ERR_POLICY_DEADLINE` and `SB_ERR_POLICY_PRESET` included.
 */
const char *sb_policy_error_field(int32_t code);

/**
 * Writes to `*out` the preset `preset` (an `SB_PRESET_*` code) with the fields of `*values` whose
 * `SB_OPTION_*` bit is set in `given` overriding it, by the rules every binding shares: an option
 * the chosen strategy has no use for is refused (`jitter_ms` with full jitter:
 * `SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE`); a newly chosen strategy's parameter defaults to the
 * reference value (Google's 1000 ms, gRPC's 200 per mille); the hint limit follows an overridden
 * cap unless given; the multiplier is reduced (1600/1000 becomes 8/5). Fields without their bit
 * are not read for their value; other bits of `given` are ignored.
 *
 * Returns `SB_OK`, `SB_ERR_NULL`, `SB_ERR_POLICY_PRESET`, an `SB_ERR_POLICY_*` code naming the
 * field at fault, or `SB_ERR_UNSUPPORTED` (a build without `bindings` or `runtime-policy`, or a
 * strategy or time budget left out of this build). `*out` is written only on `SB_OK`.
 *
 * ```c
 * sb_policy values = {0}, p;
 * values.max_retries = 5;
 * values.jitter = SB_JITTER_FULL;
 * if (sb_policy_from_options(&p, SB_PRESET_GOOGLE, &values, SB_OPTION_MAX_RETRIES | SB_OPTION_JITTER) != SB_OK)
 *     return; // e.g. SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE
 * ```
 *
 * # Safety
 * `out` is NULL or valid for writes of an `sb_policy`; `values` is NULL or readable.
 */
sb_status sb_policy_from_options(struct sb_policy *out,
                                 uint32_t preset,
                                 const struct sb_policy *values,
                                 uint32_t given);

/**
 * Writes to `*out` the policy `*base` with the fields of `*values` whose `SB_OPTION_*` bit is set
 * in `given` overriding it, by `sb_policy_from_options`'s rules with `*base` in the preset's
 * place: a strategy's parameter carries over while the strategy is kept, the hint limit follows
 * an overridden cap unless given, an option the strategy has no use for is refused. A binding
 * derives a policy from a user's one this way (a deadline lowering `max_elapsed_ms`).
 *
 * Returns `SB_OK`, `SB_ERR_NULL`, the `SB_ERR_POLICY_*` code of `*base`'s first invalid field
 * or of the override at fault, or `SB_ERR_UNSUPPORTED` (as `sb_policy_from_options`). `*out` is
 * written only on `SB_OK`.
 *
 * ```c
 * sb_policy base = sb_policy_grpc(), values = {0}, p;
 * values.max_elapsed_ms = 60000;
 * if (sb_policy_with_options(&p, &base, &values, SB_OPTION_MAX_ELAPSED_MS) != SB_OK)
 *     return;
 * // p is gRPC's policy, its +-20 % jitter kept, with a 60 s time budget.
 * ```
 *
 * # Safety
 * `out` is NULL or valid for writes of an `sb_policy`; `base` and `values` are NULL or readable.
 */
sb_status sb_policy_with_options(struct sb_policy *out,
                                 const struct sb_policy *base,
                                 const struct sb_policy *values,
                                 uint32_t given);

/**
 * Sets up `*p` for a server of `capacity_per_s` requests a second (1..=1000000) that keeps
 * `reserve_per_mille` thousandths of it for first attempts (0..=999) and tells no request to wait
 * longer than `max_wait_s` (1..=86400); `seed` makes the spread inside each second reproducible.
 * Returns `SB_OK`, `SB_ERR_NULL`, `SB_ERR_PACER_CAPACITY_PER_S`, `SB_ERR_PACER_RESERVE_PER_MILLE`
 * or `SB_ERR_PACER_MAX_WAIT_S` (checked in that order; `*p` is unchanged on error).
 *
 * ```c
 * static sb_pacer pacer; // one per server
 * sb_pacer_init(&pacer, 100, 100, 60, seed); // 100 requests/s, a tenth kept for first attempts
 * ```
 *
 * # Safety
 * `p` is NULL or valid for writes of an `sb_pacer`.
 */
sb_status sb_pacer_init(struct sb_pacer *p,
                        uint32_t capacity_per_s,
                        uint32_t reserve_per_mille,
                        uint32_t max_wait_s,
                        uint64_t seed);

/**
 * Assigns a request refused at `now_ms` (the server's monotonic clock; an earlier reading than
 * one seen before counts as that one) its return, written to `*out` with its header text.
 * Returns `SB_OK`, `SB_ERR_NULL` or `SB_ERR_BAD_STATE`; on error neither struct is changed.
 *
 * ```c
 * sb_pacer_slot slot;
 * sb_pacer_assign(&pacer, monotonic_ms(), &slot);
 * add_header("retry-after", slot.retry_after);
 * add_header("ratelimit-reset", slot.ratelimit_reset);
 * add_header("ratelimit", slot.ratelimit);
 * ```
 *
 * # Safety
 * `p` is NULL or valid for reads and writes of an `sb_pacer`; `out` is NULL or writable.
 */
sb_status sb_pacer_assign(struct sb_pacer *p, uint64_t now_ms, struct sb_pacer_slot *out);

/**
 * Stores in `*out` the returns still scheduled after `now_ms` (a queue length a server may report,
 * or use to refuse first attempts while it drains). Changes nothing. Returns `SB_OK`,
 * `SB_ERR_NULL` or `SB_ERR_BAD_STATE`.
 *
 * # Safety
 * `p` is NULL or readable; `out` is NULL or writable.
 */
sb_status sb_pacer_pending(const struct sb_pacer *p, uint64_t now_ms, uint64_t *out);

/**
 * The name of header `index` of a paced refusal (SPEC.md section 16.4), in `sb_pacer_slot`'s
 * order: 0 `"retry-after"`, 1 `"ratelimit-reset"`, 2 `"ratelimit"`; NULL past the last. A static
 * string, never to be freed.
 */
const char *sb_pacer_header_name(uint32_t index);

/**
 * Google Cloud's reference: 1 s, x2, jitter 0..1000 ms, cap 32 s, 10 retries.
 *
 * ```c
 * sb_policy p = sb_policy_google();
 * p.max_retries = 5; // then pass it to sb_policy_validate or sb_backoff_init
 * ```
 */
struct sb_policy sb_policy_google(void);

/**
 * Google's reference with the 64 s cap.
 */
struct sb_policy sb_policy_google_64s(void);

/**
 * The AWS SDKs' standard mode: full jitter, 100 ms, x2, cap 20 s, 2 retries.
 */
struct sb_policy sb_policy_aws(void);

/**
 * gRPC connection backoff: 1 s, x1.6, +-20 % proportional jitter, cap 120 s, 10 retries.
 */
struct sb_policy sb_policy_grpc(void);

/**
 * Google's advice for mobile clients: equal jitter on 2 s, x2, cap 64 s, 16 retries. Retry n
 * waits 2^n to 2^(n+1) s, at the cap 32 to 64 s: the jitter stays at the cap, so a fleet that
 * lost its link together does not come back together.
 */
struct sb_policy sb_policy_mobile(void);

/**
 * Checks a policy: `SB_OK`, `SB_ERR_NULL`, the `SB_ERR_POLICY_*` code of the first invalid field
 * in the order of SPEC.md section 2 (the jitter and deadline codes are checked first), in every
 * build, or `SB_ERR_UNSUPPORTED` for a valid policy this build cannot run (its jitter strategy or
 * a time budget left out; without `runtime-policy`, any policy but the build's presets, which
 * the other functions refuse with `SB_ERR_UNSUPPORTED` alone).
 *
 * ```c
 * sb_policy p = sb_policy_google();
 * p.max_backoff_ms = 10; // below initial_ms
 * assert(sb_policy_validate(&p) == SB_ERR_POLICY_MAX_BACKOFF_MS);
 * ```
 *
 * # Safety
 * `policy` is NULL or points to a readable `sb_policy`.
 */
sb_status sb_policy_validate(const struct sb_policy *policy);

/**
 * Starts a reconnect loop under `*policy`, its jitter seeded from `seed` (from
 * `sb_seed_from_device`, so that each device of a fleet draws its own delays). `*r` keeps
 * `policy`, which must outlive it. Returns `SB_OK`, `SB_ERR_NULL`, the policy's
 * `SB_ERR_POLICY_*` code, or `SB_ERR_UNSUPPORTED` for a valid policy this build cannot run (a
 * time budget, a strategy left out); `*r` is written only on `SB_OK`.
 *
 * ```c
 * static const sb_policy RECONNECT = {.initial_ms = 1000, .multiplier_num = 2,
 *     .multiplier_den = 1, .max_backoff_ms = 64000, .max_retries = SB_RETRY_FOREVER,
 *     .jitter = SB_JITTER_FULL, .max_hint_ms = SB_DEFAULT_MAX_HINT_MS};
 * sb_reconnect r;
 * if (sb_reconnect_init(&r, &RECONNECT, seed) != SB_OK)
 *     return; // invalid policy
 * ```
 *
 * # Safety
 * `r` is NULL or writable; `policy` is NULL or readable, and stays so, unchanged, while `*r` is
 * used.
 */
sb_status sb_reconnect_init(struct sb_reconnect *r, const struct sb_policy *policy, uint64_t seed);

/**
 * The step: `SB_RETRY` with the delay before the next connection attempt in `*delay_ms`. Under
 * `max_retries = SB_RETRY_FOREVER` it never gives up; under a finite count it answers
 * `SB_GIVE_UP_MAX_RETRIES` once that many retries were issued (then `*delay_ms` is not written).
 * Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE` (`*r` or its policy corrupted), with `*r` unchanged.
 *
 * ```c
 * uint32_t delay_ms;
 * while (mqtt_connect() != 0) {
 *     sb_reconnect_next(&r, &delay_ms);
 *     sleep_ms(delay_ms);
 * }
 * sb_reconnect_reset(&r); // connected: the next outage starts from initial_ms
 * ```
 *
 * # Safety
 * `r` and `delay_ms` are NULL or valid for reads and writes; `r`'s policy is as
 * `sb_reconnect_init` requires.
 */
sb_status sb_reconnect_next(struct sb_reconnect *r, uint32_t *delay_ms);

/**
 * Starts over after a successful connection: the retry count and level return to their initial
 * values; the random stream continues, so the next outage draws new delays. Returns `SB_OK`,
 * `SB_ERR_NULL` or `SB_ERR_BAD_STATE` (`*r` unchanged).
 *
 * # Safety
 * As `sb_reconnect_next`.
 */
sb_status sb_reconnect_reset(struct sb_reconnect *r);

/**
 * Starts a run under `policy`, seeded from `seed` (use a different seed per call: mix a device id
 * with a counter). `flags`: 0, or `SB_RUN_COUNT_PAUSED`. Returns `SB_OK`, `SB_ERR_NULL`, an
 * `SB_ERR_POLICY_*` code, `SB_ERR_RUN_FLAGS` for an unknown flag, or `SB_ERR_UNSUPPORTED` in a
 * build without the `run` feature; `*r` is written only on `SB_OK`.
 *
 * ```c
 * sb_policy policy = sb_policy_google();
 * sb_run run;
 * sb_action act;
 * sb_run_init(&run, &policy, seed, 0);
 * for (sb_run_start(&run, now_ms(), &act); ; ) {
 *     if (act.kind == SB_ACTION_ATTEMPT) {
 *         sb_outcome o = {send_request() == 200 ? SB_OUTCOME_SUCCESS : SB_OUTCOME_RETRYABLE, 0, 0, 0};
 *         sb_run_outcome(&run, &o, now_ms(), NULL, &act);
 *     } else if (act.kind == SB_ACTION_RETRY || act.kind == SB_ACTION_WAIT) {
 *         sleep_ms(act.delay_ms);
 *         sb_run_wake(&run, now_ms(), &act);
 *     } else break; // SB_ACTION_DONE or SB_ACTION_GIVE_UP
 * }
 * ```
 *
 * # Safety
 * `r` is NULL or writable; `policy` is NULL or readable.
 */
sb_status sb_run_init(struct sb_run *r,
                      const struct sb_policy *policy,
                      uint64_t seed,
                      uint32_t flags);

/**
 * Begins the run: `*out` is `SB_ACTION_ATTEMPT` for attempt 1, or `SB_ACTION_WAIT` for a run
 * given a startup window (`sb_run_startup_window`). `now_ms` points to a monotonic clock reading
 * (any value, `UINT64_MAX` included), or is NULL for none: a run whose first event has none
 * never reads a clock, and in a run with one, NULL counts as no time passing. Every event of a
 * run takes its `now_ms` so.
 *
 * # Safety
 * `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
 */
sb_status sb_run_start(struct sb_run *r, const uint64_t *now_ms, struct sb_action *out);

/**
 * Reports how the attempt in flight ended (`*o`); `budget` (may be NULL) is charged and refunded
 * by the run's rules. `*out` is `SB_ACTION_RETRY`, `SB_ACTION_PAUSED`, `SB_ACTION_DONE` or
 * `SB_ACTION_GIVE_UP`. Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, `SB_ERR_FAILURE_KIND`,
 * `SB_ERR_RUN_OUTCOME_KIND`, `SB_ERR_TWO_HINTS` for an unknown hint flag, `SB_ERR_RUN_*` for an
 * event out of its phase; nothing is written then.
 *
 * # Safety
 * `r`, `o` and `out` are NULL or valid; `budget` is NULL or valid for reads and writes.
 */
sb_status sb_run_outcome(struct sb_run *r,
                         const struct sb_outcome *o,
                         const uint64_t *now_ms,
                         struct sb_budget *budget,
                         struct sb_action *out);

/**
 * Reports that the sleep of `SB_ACTION_RETRY` or `SB_ACTION_WAIT` has ended: `*out` is the next
 * `SB_ACTION_ATTEMPT`.
 *
 * # Safety
 * `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
 */
sb_status sb_run_wake(struct sb_run *r, const uint64_t *now_ms, struct sb_action *out);

/**
 * Reports that the device went offline (`SB_PAUSE_OFFLINE`) or the application to the
 * background (`SB_PAUSE_HIDDEN`), before the start or during a sleep: `*out` is
 * `SB_ACTION_PAUSED`. Errors as `sb_run_wake`, and `SB_ERR_RUN_PAUSE_REASON`.
 *
 * # Safety
 * `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
 */
sb_status sb_run_pause(struct sb_run *r,
                       uint32_t reason,
                       const uint64_t *now_ms,
                       struct sb_action *out);

/**
 * Reports that the pause has ended (or that the application was resumed during a sleep): `*out`
 * is `SB_ACTION_WAIT` with the re-drawn wait (SPEC.md section 13).
 *
 * # Safety
 * `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
 */
sb_status sb_run_resume(struct sb_run *r, const uint64_t *now_ms, struct sb_action *out);

/**
 * Attempts made so far by the run, or 0 for a NULL or corrupted `r`.
 *
 * # Safety
 * `r` is NULL or readable.
 */
uint32_t sb_run_attempts(const struct sb_run *r);

/**
 * `sb_run_start` behind the send rate `*s`: `*out` is `SB_ACTION_ATTEMPT`, `SB_ACTION_WAIT`
 * (the send rate's wait: no retry, no attempt; sleep it, then `sb_run_wake_paced`) or
 * `SB_ACTION_GIVE_UP` (reason `SB_GIVE_UP_THROTTLED` for a fail-fast refusal, `SB_GIVE_UP_DEADLINE`
 * for a wait past `max_elapsed_ms`). Errors: those of `sb_run_start` and `sb_send_rate_ask`,
 * `SB_ERR_RUN_NO_CLOCK` for a NULL `now_ms` in a run without a clock; nothing is written then.
 *
 * # Safety
 * `r`, `s` and `out` are NULL or valid.
 */
sb_status sb_run_start_paced(struct sb_run *r,
                             const uint64_t *now_ms,
                             struct sb_send_rate *s,
                             struct sb_action *out);

/**
 * `sb_run_wake` behind the send rate `*s`, answering as `sb_run_start_paced`.
 *
 * # Safety
 * `r`, `s` and `out` are NULL or valid.
 */
sb_status sb_run_wake_paced(struct sb_run *r,
                            const uint64_t *now_ms,
                            struct sb_send_rate *s,
                            struct sb_action *out);

/**
 * `sb_run_outcome`, then the attempt's answer told to the send rate `*s`: `answer_kind` an
 * `SB_ANSWER_*` code (`hint_ms` for `SB_ANSWER_THROTTLED`) when the caller knows the response,
 * or `SB_ANSWER_FROM_OUTCOME`. Errors: those of `sb_run_outcome`, `SB_ERR_SEND_RATE_ANSWER_KIND`,
 * `SB_ERR_RUN_NO_CLOCK`; nothing is written then.
 *
 * # Safety
 * As `sb_run_outcome`; `s` is NULL or valid for reads and writes.
 */
sb_status sb_run_outcome_paced(struct sb_run *r,
                               const struct sb_outcome *o,
                               uint32_t answer_kind,
                               uint32_t hint_ms,
                               const uint64_t *now_ms,
                               struct sb_budget *budget,
                               struct sb_send_rate *s,
                               struct sb_action *out);

/**
 * Writes the run's snapshot (`SB_RUN_SNAPSHOT_SIZE` bytes, versioned, under its policy's
 * fingerprint and a CRC-32) to `out`. Returns `SB_OK`, `SB_ERR_NULL` or `SB_ERR_BAD_STATE`;
 * both run snapshot functions return `SB_ERR_UNSUPPORTED` in a build without the `run` and
 * `snapshot` features.
 *
 * ```c
 * static uint8_t flash_page[SB_RUN_SNAPSHOT_SIZE];
 * sb_run_snapshot(&run, flash_page); // before the reboot, in the middle of a retry's sleep
 * ```
 *
 * # Safety
 * `r` is NULL or readable; `out` is NULL or valid for writes of `SB_RUN_SNAPSHOT_SIZE` bytes.
 */
sb_status sb_run_snapshot(const struct sb_run *r, uint8_t *out);

/**
 * Rebuilds a run in `*r` from `len` snapshot bytes taken under `policy`. Returns `SB_OK`,
 * `SB_ERR_NULL`, the policy's `SB_ERR_POLICY_*` code, or the `SB_ERR_SNAPSHOT_*` code of the first
 * failed check (length, version, checksum, policy fingerprint, random state, reachability).
 * `*r` is written only on `SB_OK`; the restored run answers every later event as the
 * snapshotted one would have.
 *
 * ```c
 * sb_run run;
 * if (sb_run_restore(&run, &policy, flash_page, SB_RUN_SNAPSHOT_SIZE) != SB_OK)
 *     sb_run_init(&run, &policy, seed, 0); // nothing valid saved: a new run
 * ```
 *
 * # Safety
 * `r` is NULL or writable; `policy` is NULL or readable; `bytes` is NULL or valid for reads of
 * `len` bytes.
 */
sb_status sb_run_restore(struct sb_run *r,
                         const struct sb_policy *policy,
                         const uint8_t *bytes,
                         uintptr_t len);

/**
 * Gives a run not yet started a startup window: `sb_run_start` then answers `SB_ACTION_WAIT`
 * with the run's own draw in `0..=window_ms` (`sb_startup_delay` of its seed), and the
 * `sb_run_wake` after it makes attempt 1, so devices whose runs begin together (after an outage,
 * or after their last runs gave up together) spread their first attempts over the window. 0
 * (the default) starts with the attempt; a started run keeps its own window. Returns `SB_OK`,
 * `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, or `SB_ERR_FLEET_WINDOW_MS` above 2147483647; `*r` is
 * written only on `SB_OK`.
 *
 * ```c
 * sb_run_init(&run, &RECONNECT, sb_call_seed(device_seed, outage), 0);
 * sb_run_startup_window(&run, RECONNECT.max_backoff_ms); // not all at once after an outage
 * sb_run_start(&run, now_ms(), &act); // SB_ACTION_WAIT: sleep act.delay_ms, then sb_run_wake
 * ```
 *
 * # Safety
 * `r` is NULL or valid for reads and writes.
 */
sb_status sb_run_startup_window(struct sb_run *r, uint32_t window_ms);

/**
 * SPEC.md section 17.1's defaults: 0.001..1000000 requests/s, margin 2 %, probe every 500 ms
 * growing 1 % doubling to 25 %, no guard, burst 2, hints held up to 60 s, blocking.
 */
struct sb_send_rate_config sb_send_rate_config_default(void);

/**
 * Checks `*config` and writes a send rate, off until the first throttle, to `*s`. Returns
 * `SB_OK`, `SB_ERR_NULL`, or the `SB_ERR_SEND_RATE_*` of the first field out of range (then `*s`
 * is unchanged).
 *
 * ```c
 * static sb_send_rate rate; // shared by every request to one server, under the caller's lock
 * sb_send_rate_config config = sb_send_rate_config_default();
 * config.fail_fast = 1;
 * if (sb_send_rate_init(&rate, &config) != SB_OK) abort();
 * ```
 *
 * # Safety
 * `s` is NULL or valid for writes of an `sb_send_rate`; `config` is NULL or readable.
 */
sb_status sb_send_rate_init(struct sb_send_rate *s, const struct sb_send_rate_config *config);

/**
 * Before every attempt, first attempts included (SPEC.md section 17.4): `SB_OK` to send now
 * (`*out_ms` = 0), `SB_SEND_RATE_WAIT` to ask again after `*out_ms` ms, or with `fail_fast`
 * `SB_SEND_RATE_REFUSE` (do not send; `*out_ms` is the wait sending would take, for a
 * `Retry-After` upstream). Nothing is reserved by a wait or a refusal. `now_ms` is any monotonic
 * clock in ms; a reading earlier than a previous one counts as that one.
 *
 * # Safety
 * `s` is NULL or valid for reads and writes of an `sb_send_rate`; `out_ms` is NULL or writable.
 */
sb_status sb_send_rate_ask(struct sb_send_rate *s, uint64_t now_ms, uint32_t *out_ms);

/**
 * Reports the server's answer to an attempt at `now_ms` (SPEC.md section 17.5): `kind` is
 * `SB_ANSWER_ACCEPTED`, `SB_ANSWER_THROTTLED` (with the server's `hint_ms`, 0 for none) or
 * `SB_ANSWER_NO_ANSWER`; any other kind is `SB_ERR_SEND_RATE_ANSWER_KIND`. `sent_ms` points to
 * the reading at which the attempt was sent (its `sb_send_rate_ask` said `SB_OK`), or is NULL
 * for "sent at `now_ms`": a throttle of an attempt sent before the rate's last cut answers the
 * old rate and cuts nothing (one cut per flight of attempts).
 *
 * ```c
 * uint64_t sent = clock_ms();
 * uint32_t wait_ms, kind, hint_ms;
 * if (sb_send_rate_ask(&rate, sent, &wait_ms) == SB_OK) {
 *     sb_answer_from_http(http_call(), 0u, 0u, &kind, &hint_ms);
 *     sb_send_rate_answer(&rate, clock_ms(), &sent, kind, hint_ms);
 * }
 * ```
 *
 * # Safety
 * `s` is NULL or valid for reads and writes of an `sb_send_rate`; `sent_ms` is NULL or readable.
 */
sb_status sb_send_rate_answer(struct sb_send_rate *s,
                              uint64_t now_ms,
                              const uint64_t *sent_ms,
                              uint32_t kind,
                              uint32_t hint_ms);

/**
 * The answer an HTTP response denotes (SPEC.md section 17.3), for `sb_send_rate_answer` or
 * `sb_run_outcome_paced`: a 429 is `SB_ANSWER_THROTTLED`, a 503 with a Retry-After or rate-limit
 * hint too (`*out_hint_ms` the hint, else 0); anything else is `SB_ANSWER_ACCEPTED`. `hint_flag`
 * and `hint_ms` are the response's hint as `sb_outcome` holds it: 0, `SB_INPUT_RETRY_AFTER`,
 * `SB_INPUT_RATE_LIMIT` or `SB_INPUT_DO_NOT_RETRY`; any other flag is `SB_ERR_TWO_HINTS`.
 * Nothing is written on an error.
 *
 * ```c
 * uint32_t kind, hint_ms;
 * sb_answer_from_http(429, 0, 0, &kind, &hint_ms); // SB_ANSWER_THROTTLED, 0
 * ```
 *
 * # Safety
 * `kind` and `out_hint_ms` are NULL or writable.
 */
sb_status sb_answer_from_http(uint16_t status,
                              uint32_t hint_flag,
                              uint32_t hint_ms,
                              uint32_t *kind,
                              uint32_t *out_hint_ms);

/**
 * Stores the allowed rate, in thousandths of a request per second (0 while off: no throttle
 * yet), in `*out`.
 *
 * # Safety
 * `s` is NULL or readable; `out` is NULL or writable.
 */
sb_status sb_send_rate_rate_milli(const struct sb_send_rate *s, uint32_t *out);

/**
 * Writes the state's snapshot (`SB_SNAPSHOT_SIZE` bytes, versioned and CRC-protected) to `out`.
 * Both snapshot functions return `SB_ERR_UNSUPPORTED` in a build without the `snapshot` feature.
 *
 * ```c
 * static uint8_t rtc_memory[SB_SNAPSHOT_SIZE];
 * sb_backoff_snapshot(&b, rtc_memory); // before deep sleep
 * ```
 *
 * # Safety
 * `b` is NULL or readable; `out` is NULL or valid for writes of `SB_SNAPSHOT_SIZE` bytes.
 */
sb_status sb_backoff_snapshot(const struct sb_backoff *b, uint8_t *out);

/**
 * Rebuilds a state in `*b` from `len` snapshot bytes taken under `policy`. Returns `SB_OK`,
 * `SB_ERR_NULL`, the policy's `SB_ERR_POLICY_*` code, or the `SB_ERR_SNAPSHOT_*` code of the first
 * failed check (length, version, checksum, policy fingerprint, random state, reachability).
 * `*b` is written only on `SB_OK`; the restored state continues exactly where the snapshot left
 * off.
 *
 * ```c
 * sb_backoff b;
 * if (sb_backoff_restore(&b, &policy, rtc_memory, SB_SNAPSHOT_SIZE) != SB_OK)
 *     sb_backoff_init(&b, &policy, seed); // nothing valid saved: start over
 * ```
 *
 * # Safety
 * `b` is NULL or writable; `policy` is NULL or readable; `bytes` is NULL or valid for reads of
 * `len` bytes.
 */
sb_status sb_backoff_restore(struct sb_backoff *b,
                             const struct sb_policy *policy,
                             const uint8_t *bytes,
                             uintptr_t len);

/**
 * The message for a status code: a static, NUL-terminated string that must not be freed.
 * Unknown codes give "unknown status code"; the result is never NULL. The default build says what
 * happened and names the field and its range; a build without the `long-messages` feature returns
 * the status's name (e.g. "SB_ERR_POLICY_INITIAL_MS"), which the header documents. A build
 * without a part holds no text for the statuses only that part returns: they give "a status of a
 * part this build of the library leaves out".
 *
 * ```c
 * int rc = sb_backoff_init(&b, &policy, seed);
 * if (rc != SB_OK) fprintf(stderr, "backoff: %s\n", sb_strerror(rc));
 * ```
 */
const char *sb_strerror(int32_t code);

/**
 * Writes the budget's stored value (`SB_BUDGET_VALUE_SIZE` bytes: SPEC.md section 19.2) to `out`.
 * Every `sb_*_encode` and `sb_*_decode` function returns `SB_ERR_UNSUPPORTED` in a build without
 * the `store` feature.
 *
 * # Safety
 * `b` is NULL or readable; `out` is NULL or valid for writes of `SB_BUDGET_VALUE_SIZE` bytes.
 */
sb_status sb_budget_encode(const struct sb_budget *b, uint8_t *out);

/**
 * Replaces the budget's tokens with those of a stored value (`len` bytes at `value`), which must
 * be a budget's of the same configuration as `*b`: else `SB_ERR_STORE_*` and `*b` is unchanged.
 *
 * ```c
 * sb_budget b;
 * sb_budget_init_aws_default(&b);
 * if (got_value && sb_budget_decode(&b, value, value_len) != SB_OK) decide_alone(&b);
 * ```
 *
 * # Safety
 * `b` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
 */
sb_status sb_budget_decode(struct sb_budget *b, const uint8_t *value, uintptr_t len);

/**
 * Writes the pacer's stored value (`SB_PACER_VALUE_SIZE` bytes) to `out`.
 *
 * # Safety
 * `p` is NULL or readable; `out` is NULL or valid for writes of `SB_PACER_VALUE_SIZE` bytes.
 */
sb_status sb_pacer_encode(const struct sb_pacer *p, uint8_t *out);

/**
 * Replaces the pacer's state with a stored value's (`len` bytes at `value`), which must be a
 * pacer's of the same capacity, reserve and longest wait as `*p`: else `SB_ERR_STORE_*` and `*p`
 * is unchanged.
 *
 * # Safety
 * `p` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
 */
sb_status sb_pacer_decode(struct sb_pacer *p, const uint8_t *value, uintptr_t len);

/**
 * Writes the send rate's stored value (`SB_SEND_RATE_VALUE_SIZE` bytes) to `out`.
 *
 * # Safety
 * `s` is NULL or readable; `out` is NULL or valid for writes of `SB_SEND_RATE_VALUE_SIZE` bytes.
 */
sb_status sb_send_rate_encode(const struct sb_send_rate *s, uint8_t *out);

/**
 * Replaces the send rate's state with a stored value's (`len` bytes at `value`), which must be a
 * send rate's of the same configuration as `*s`: else `SB_ERR_STORE_*` and `*s` is unchanged.
 *
 * # Safety
 * `s` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
 */
sb_status sb_send_rate_decode(struct sb_send_rate *s, const uint8_t *value, uintptr_t len);

/**
 * The compare-and-set script (Lua, NUL-terminated) every binding runs on a part's key (SPEC.md
 * section 19.4): with the expected value (empty for absent) and the new one it sets the key if
 * it still holds the expected value; with no argument it reads. It answers `{1, nil, ms}` when
 * it set the value and `{0, value or nil, ms}` otherwise, `ms` being the store's `TIME` in ms.
 * The same text in every build, the `store` feature or not.
 *
 * ```c
 * const char *script = sb_store_script(); // EVAL it on 1 key: with expected and new, or none
 * ```
 */
const char *sb_store_script(void);

/**
 * Sets up `*link` for a part of `kind` (`SB_STORE_BUDGET`, `SB_STORE_PACER` or
 * `SB_STORE_SEND_RATE`) whose cold start is that member of `*fresh` (a full budget, an empty
 * pacer, a send rate that is off: SPEC.md section 19.4), its decisions reading `clock`
 * (`SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`). The link starts joining: its first
 * decision reads the store. `SB_ERR_STORE_PART_KIND`, `SB_ERR_STORE_CLOCK`, or
 * `SB_ERR_BAD_STATE` for a part no init function made. Every `sb_store_*` function returns
 * `SB_ERR_UNSUPPORTED` in a build without the `store` feature.
 *
 * ```c
 * sb_store_part fresh = {0};
 * sb_store_link link;
 * sb_send_rate_init(&fresh.send_rate, &config);
 * sb_store_link_init(&link, SB_STORE_SEND_RATE, &fresh, SB_STORE_CLOCK_STORE);
 * ```
 *
 * # Safety
 * `link` is NULL or valid for writes of an `sb_store_link`; `fresh` is NULL or readable.
 */
sb_status sb_store_link_init(struct sb_store_link *link,
                             uint32_t kind,
                             const struct sb_store_part *fresh,
                             uint32_t clock);

/**
 * Begins a decision at the caller's clock reading `caller_ms` (ms, any origin): sets every field
 * of `*ex` and writes the first step to `*step` (`SB_STORE_READ` when the link is joining or its
 * rejoin is due, else `SB_STORE_DECIDE`). Then perform each step and report it until
 * `SB_STORE_DONE`, giving up on the store at the bound (`sb_store_timed_out`):
 *
 * ```c
 * sb_store_begin(&link, &ex, now_ms, &step);
 * while (step.action != SB_STORE_DONE) {
 *     if (step.action == SB_STORE_DECIDE) {
 *         answer = sb_send_rate_ask(&ex.part.send_rate, step.now_ms, &wait_ms);
 *         sb_store_decided(&link, &ex, &step);
 *     } else if (eval_script(key, &step, &ex, &set, value, &len, &present, &time_ms) != 0) {
 *         sb_store_failed(&link, &ex, &step);  // or sb_store_timed_out past the bound
 *     } else {
 *         uint32_t reply = step.action == SB_STORE_READ ? SB_STORE_REPLY_VALUE
 *                          : set ? SB_STORE_REPLY_SET : SB_STORE_REPLY_CONFLICT;
 *         sb_store_replied(&link, &ex, reply, value, len, present, time_ms, &step);
 *     }
 * }
 * ```
 *
 * # Safety
 * `link` is NULL or valid for reads and writes; `ex` and `step` are NULL or valid for writes.
 */
sb_status sb_store_begin(struct sb_store_link *link,
                         struct sb_store_exchange *ex,
                         uint64_t caller_ms,
                         struct sb_store_step *step);

/**
 * Begins a decision made from the process's own state at once, the link left as it stands: for
 * a decision that did not get its turn at the store within the bound (one decision per part and
 * process goes to the store at a time). The step is `SB_STORE_DECIDE`.
 *
 * # Safety
 * As `sb_store_begin`.
 */
sb_status sb_store_begin_alone(struct sb_store_link *link,
                               struct sb_store_exchange *ex,
                               uint64_t caller_ms,
                               struct sb_store_step *step);

/**
 * Reports that the part's operation was applied to `ex->part` (as `SB_STORE_DECIDE` asked), and
 * writes the next step: `SB_STORE_COMPARE_AND_SET` with `ex->expected` and `ex->value`, or
 * `SB_STORE_DONE`. `SB_ERR_BAD_STATE` if `ex->part` was corrupted.
 *
 * # Safety
 * `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
 */
sb_status sb_store_decided(struct sb_store_link *link,
                           struct sb_store_exchange *ex,
                           struct sb_store_step *step);

/**
 * Reports the script's answer to the last `SB_STORE_READ` (`SB_STORE_REPLY_VALUE`) or
 * `SB_STORE_COMPARE_AND_SET` (`SB_STORE_REPLY_SET` or `SB_STORE_REPLY_CONFLICT`): the value
 * (`len` bytes at `value`, read only when `present`; `present` false: the key is absent) and
 * the store's time in ms. Writes the next step. A reply that answers no question of the
 * exchange makes the decision alone, as a failure does. `SB_ERR_STORE_REPLY` for another code.
 *
 * # Safety
 * `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun); with `present`,
 * `value` is NULL or valid for reads of `len` bytes.
 */
sb_status sb_store_replied(struct sb_store_link *link,
                           struct sb_store_exchange *ex,
                           uint32_t reply,
                           const uint8_t *value,
                           uintptr_t len,
                           bool present,
                           uint64_t time_ms,
                           struct sb_store_step *step);

/**
 * Reports that the store failed (an error, a lost connection): the decision is made at once
 * from the process's own state (`SB_STORE_DECIDE`), and the link decides alone until it rejoins
 * `SB_STORE_REJOIN_MS` later (SPEC.md section 19.5).
 *
 * # Safety
 * `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
 */
sb_status sb_store_failed(struct sb_store_link *link,
                          struct sb_store_exchange *ex,
                          struct sb_store_step *step);

/**
 * Reports that the store did not answer within `SB_STORE_BOUND_MS`: the decision is made at
 * once from the process's own state; after `SB_STORE_LATE_LIMIT` such decisions in a row the
 * link decides alone until it rejoins, as after a failure.
 *
 * # Safety
 * `link`, `ex` and `step` are NULL or valid for reads and writes (`ex` begun).
 */
sb_status sb_store_timed_out(struct sb_store_link *link,
                             struct sb_store_exchange *ex,
                             struct sb_store_step *step);

/**
 * Writes where the link stands at the caller's reading `caller_ms`: its state
 * (`SB_STORE_JOINING`, `SB_STORE_JOINED` or `SB_STORE_LOCAL`) to `*state`, whether a decision
 * then goes to the store to `*needs_store` (not while the link is local and its rejoin is not
 * due: such a decision needs no turn at the store), and the reading on the fleet's clock
 * (SPEC.md section 19.3, as a send time is moved) to `*fleet_ms`.
 *
 * # Safety
 * `link` is NULL or readable; `state`, `needs_store` and `fleet_ms` are NULL or valid for writes.
 */
sb_status sb_store_link_state(const struct sb_store_link *link,
                              uint64_t caller_ms,
                              uint32_t *state,
                              bool *needs_store,
                              uint64_t *fleet_ms);

/**
 * Writes the process's own state (the fleet's as last seen, with the decisions made alone
 * since) to the link's kind's member of `*part`, and the link's counts to `*stats`.
 *
 * # Safety
 * `link` is NULL or readable; `part` and `stats` are NULL or valid for reads and writes.
 */
sb_status sb_store_link_local(const struct sb_store_link *link,
                              struct sb_store_part *part,
                              struct sb_store_stats *stats);

/**
 * The library's version as a static string, e.g. "0.1.0". Compare with `SB_VERSION_*` to detect
 * a header that does not match the linked library.
 */
const char *sb_version(void);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* SEEDED_BACKOFF_H */
