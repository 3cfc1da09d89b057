/* CHECK and CHECK_RC for the C tests: each counts a check, and a failed one is printed and
 * counted. The counters are defined in test_ffi.c. */
#ifndef SB_TEST_CHECK_H
#define SB_TEST_CHECK_H

#include <stdio.h>

#include "seeded_backoff.h"

extern unsigned checks, failures;

void test_names_and_options(void); /* test_names.c */
void test_rate_limit(void);        /* test_rate_limit.c */
void test_pacer(void);             /* test_pacer.c */
void test_send_rate(void);         /* test_send_rate.c */
void test_store(void);             /* test_store.c */

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(cond)) {                                                                    \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
        }                                                                                 \
    } while (0)

#define CHECK_RC(expr, want)                                                              \
    do {                                                                                  \
        int32_t rc_ = (int32_t)(expr);                                                    \
        checks++;                                                                         \
        if (rc_ != (int32_t)(want)) {                                                     \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: %s returned %d (%s), want %d\n", __FILE__, __LINE__,  \
                    #expr, (int)rc_, sb_strerror(rc_), (int)(want));                      \
        }                                                                                 \
    } while (0)

#endif
