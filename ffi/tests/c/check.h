/* The host tests' check macros: each counts into the including file's `checks` and `failures`
 * and prints a failed check with its file and line. C99 and C++11. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

#include "seeded_backoff.h"

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
