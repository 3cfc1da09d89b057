/* Runs the README example against a fake server: two 503s, then 200. */
#include <stdint.h>
#include <stdio.h>

int fetch_with_retries(uint64_t device_id);

static int calls;
static uint32_t slept;

int send_request(void) { return ++calls < 3 ? 503 : 200; }
void sleep_ms(uint32_t ms) { slept += ms; }

int main(void) {
    int status = fetch_with_retries(42);
    printf("README example: status %d after %d requests, %u ms of backoff\n", status, calls,
           (unsigned)slept);
    /* Google preset: 1000..2000 ms, then 2000..3000 ms. */
    return status == 200 && calls == 3 && slept >= 3000u && slept <= 5000u ? 0 : 1;
}
