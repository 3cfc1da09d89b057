/* ARM semihosting: output and exit through the debugger (here QEMU's -semihosting). */
#ifndef SEMIHOSTING_H
#define SEMIHOSTING_H

#include <stdint.h>

/* Writes a NUL-terminated string to the host's stdout. */
void sh_puts(const char *s);
/* Writes an unsigned number in decimal. */
void sh_put_u64(uint64_t n);
/* Ends the emulation: QEMU exits with status 0 if ok, else 1. */
void sh_exit(int ok) __attribute__((noreturn));

#endif
