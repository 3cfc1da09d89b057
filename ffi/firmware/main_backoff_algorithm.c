/* FreeRTOS backoffAlgorithm's reconnect loop, the comparison of lab/firmware.sh: the same
 * schedule's shape (1 s base, 64 s cap, retry forever), its two functions and 16-byte context.
 * Its source is not in this repository: the lab compiles source/backoff_algorithm.c from
 * $BACKOFF_ALGORITHM_DIR. It takes each random number from the caller, so this program brings a
 * xorshift32 of its own, which is not counted as the library's. */
#include <stdint.h>

#include "backoff_algorithm.h"
#include "semihosting.h"

static uint32_t random_state = 0x1b638445u;

static uint32_t xorshift32(void) {
    random_state ^= random_state << 13;
    random_state ^= random_state >> 17;
    random_state ^= random_state << 5;
    return random_state;
}

int main(void) {
    BackoffAlgorithmContext_t ctx;
    uint16_t delay_ms;
    int i;
    BackoffAlgorithm_InitializeParams(&ctx, 1000, 64000, BACKOFF_ALGORITHM_RETRY_FOREVER);
    sh_puts("state ");
    sh_put_u32(sizeof ctx);
    sh_puts("\n");
    for (i = 0; i < 12; i++) {
        if (BackoffAlgorithm_GetNextBackoff(&ctx, xorshift32(), &delay_ms) != BackoffAlgorithmSuccess) {
            return 1;
        }
        sh_put_u32(delay_ms);
        sh_puts(" ");
    }
    sh_puts("\n");
    return 0;
}
