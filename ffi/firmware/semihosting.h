/* ARM semihosting: output and exit through the debugger (here QEMU's -semihosting). */
#ifndef SEMIHOSTING_H
#define SEMIHOSTING_H

#include <stdint.h>

/* Writes a NUL-terminated string to the host's stdout. */
void sh_puts(const char *s);
/* Writes a number in decimal. */
void sh_put_u32(uint32_t n);
/* Writes a 64-bit number in hex: no 64-bit division, so the firmware's own code pulls in no
 * division helper and the size report charges those to the library alone. */
void sh_put_hex64(uint64_t n);
/* Ends the emulation: QEMU exits with status 0 if ok, else 1. */
void sh_exit(int ok) __attribute__((noreturn));

#endif
