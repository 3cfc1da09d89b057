/* Painted stack, for lab/firmware.sh: linked with -Wl,--wrap=NAME for each function it measures.
 * Each wrapper fills the 512 bytes below its stack pointer with a pattern, calls the function and
 * prints how deep the pattern was overwritten (the stack that call took, its callees included)
 * whenever that is a new maximum: what this program's calls used, beside stack_report.py's
 * static bound. The wrappers forward four argument words and one result word, which is how the
 * measured functions pass theirs on Cortex-M and rv32 (at most four words of arguments, a result
 * in one register); -DPAINT_SB wraps the library's, -DPAINT_BOA backoffAlgorithm's. */
#include <stdint.h>

#include "semihosting.h"

#if defined(__riscv)
#define STACK_POINTER(p) __asm__ volatile("mv %0, sp" : "=r"(p))
#else
#define STACK_POINTER(p) __asm__ volatile("mov %0, sp" : "=r"(p))
#endif

#define WORDS 128
#define PATTERN 0xA5A5A5A5u

typedef uint32_t word;

/* Prints the first depth and every deeper one (*max starts at UINT32_MAX: none yet). */
static void report(const char *name, uint32_t *max, uint32_t used) {
    if (*max == UINT32_MAX || used > *max) {
        *max = used;
        sh_puts("painted ");
        sh_puts(name);
        sh_puts(" ");
        sh_put_u32(used);
        sh_puts("\n");
    }
}

#define WRAP(name)                                                                               \
    word __real_##name(word, word, word, word);                                                  \
    word __wrap_##name(word a, word b, word c, word d);                                          \
    word __wrap_##name(word a, word b, word c, word d) {                                         \
        static uint32_t max = UINT32_MAX;                                                        \
        uint32_t *sp;                                                                            \
        volatile uint32_t *p;                                                                    \
        word result;                                                                             \
        STACK_POINTER(sp);                                                                       \
        for (p = sp - WORDS; p < sp; p++) {                                                      \
            *p = PATTERN;                                                                        \
        }                                                                                        \
        result = __real_##name(a, b, c, d);                                                      \
        for (p = sp - WORDS; p < sp && *p == PATTERN; p++) {                                     \
        }                                                                                        \
        report(#name, &max, (uint32_t)(sp - (uint32_t *)p) * 4);                                 \
        return result;                                                                           \
    }

#ifdef PAINT_SB
WRAP(sb_seed_from_device)
WRAP(sb_reconnect_init)
WRAP(sb_reconnect_next)
#endif
#ifdef PAINT_BOA
WRAP(BackoffAlgorithm_InitializeParams)
WRAP(BackoffAlgorithm_GetNextBackoff)
#endif
