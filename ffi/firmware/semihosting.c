#include "semihosting.h"

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
enum { ADP_STOPPED_APPLICATION_EXIT = 0x20026, ADP_STOPPED_RUN_TIME_ERROR = 0x20023 };

#if defined(__riscv)
/* RISC-V: the operation in a0, its argument in a1, and the trap is an ebreak between two no-op
 * shifts that mark it as a semihosting call (uncompressed, so the three stay adjacent). */
static int sh_call(int op, const void *arg) {
    register int a0 __asm__("a0") = op;
    register const void *a1 __asm__("a1") = arg;
    __asm__ volatile(".option push\n.option norvc\n.balign 16\n"
                     "slli x0, x0, 0x1f\nebreak\nsrai x0, x0, 7\n.option pop"
                     : "+r"(a0) : "r"(a1) : "memory");
    return a0;
}
#else
static int sh_call(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
#endif

void sh_puts(const char *s) { sh_call(SYS_WRITE0, s); }

void sh_put_u32(uint32_t n) {
    char buf[11];
    int i = 10;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(n % 10u));
        n /= 10u;
    } while (n != 0u);
    sh_puts(&buf[i]);
}

void sh_put_hex64(uint64_t n) {
    static const char digits[] = "0123456789abcdef";
    char buf[19];
    int i;
    buf[0] = '0';
    buf[1] = 'x';
    for (i = 0; i < 16; i++) {
        buf[2 + i] = digits[(n >> (60 - 4 * i)) & 0xFu];
    }
    buf[18] = '\0';
    sh_puts(buf);
}

void sh_exit(int ok) {
    /* On 32-bit ARM and RISC-V, SYS_EXIT takes the reason itself in r1, not a pointer to it. */
    sh_call(SYS_EXIT, (const void *)(uintptr_t)(ok ? ADP_STOPPED_APPLICATION_EXIT
                                                    : ADP_STOPPED_RUN_TIME_ERROR));
    for (;;) {
    }
}
