/* A firmware that uses its C runtime beside the library: memcpy (newlib), sqrtf (newlib's libm)
 * and a 64-bit division (libgcc's __aeabi_uldivmod, __udivdi3 on RISC-V). The SDK test links it with
 * -Wl,--trace-symbol to check that these come from newlib and libgcc, not from the library, and
 * that the firmware is no larger than with the library's own code alone. */
#include <math.h>
#include <string.h>

#include "seeded_backoff.h"
#include "semihosting.h"

/* volatile: the compiler cannot fold the calls away. */
static volatile uint64_t dividend = 1000000u;
static volatile uint64_t divisor = 7u;
static volatile float square = 2.25f;

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_policy copy;
    sb_backoff backoff;
    uint32_t delay_ms;
    memcpy(&copy, &policy, sizeof copy);
    if (sb_backoff_init(&backoff, &copy, 42) != SB_OK) {
        return 1;
    }
    while (sb_backoff_next(&backoff, &delay_ms) == SB_RETRY) {
        sh_put_u32(delay_ms);
        sh_puts(" ");
    }
    sh_puts("\n");
    sh_put_u32((uint32_t)(dividend / divisor));
    sh_puts(" ");
    sh_put_u32((uint32_t)(sqrtf(square) * 100.0f));
    sh_puts("\n");
    return 0;
}
