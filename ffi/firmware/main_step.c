/* The smallest useful firmware: the Google preset stepped by hand (sb_backoff_next), one
 * request's schedule. The size report measures the library code this pulls in, the floor below
 * main_google.c's run. */
#include "seeded_backoff.h"
#include "semihosting.h"

int main(void) {
    sb_policy policy = sb_policy_google();
    sb_backoff backoff;
    uint32_t delay_ms;
    if (sb_backoff_init(&backoff, &policy, 42) != SB_OK) {
        return 1;
    }
    while (sb_backoff_next(&backoff, &delay_ms) == SB_RETRY) {
        sh_put_u32(delay_ms);
        sh_puts(" ");
    }
    sh_puts("\n");
    return 0;
}
