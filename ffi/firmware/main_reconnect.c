/* A device's MQTT-style reconnect loop on the reconnect variant (lib/variants/reconnect): the
 * seed from the device's id and boot counter, then init and step. The policy is a static const, so
 * it stays in flash and the 28-byte state points to it. The broker stays down here, so it prints
 * the first 12 delays; DEVICE_UID and BOOT_COUNT (compile-time here, a chip register and a flash
 * counter on a real device) let a test build two devices and compare their schedules. */
#include "seeded_backoff.h"
#include "semihosting.h"

#ifndef DEVICE_UID
#define DEVICE_UID 0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6
#endif
#ifndef BOOT_COUNT
#define BOOT_COUNT 1
#endif

/* 1 s, x2, a 64 s cap, full jitter (uniform in [0, base], so it stays at the cap), forever. */
static const sb_policy RECONNECT = {
    .initial_ms = 1000, .multiplier_num = 2, .multiplier_den = 1, .max_backoff_ms = 64000,
    .max_retries = SB_RETRY_FOREVER, .jitter = SB_JITTER_FULL, .max_hint_ms = SB_DEFAULT_MAX_HINT_MS,
};
static const uint8_t uid[] = {DEVICE_UID};

int main(void) {
    uint64_t seed;
    sb_reconnect r;
    uint32_t delay_ms;
    int i;
    if (sb_seed_from_device(uid, sizeof uid, BOOT_COUNT, &seed) != SB_OK ||
        sb_reconnect_init(&r, &RECONNECT, seed) != SB_OK) {
        return 1;
    }
    sh_puts("state ");
    sh_put_u32(sizeof r);
    sh_puts("\n");
    for (i = 0; i < 12; i++) { /* the connect is made here, and fails */
        if (sb_reconnect_next(&r, &delay_ms) != SB_RETRY) {
            return 1;
        }
        sh_put_u32(delay_ms); /* a real device sleeps here */
        sh_puts(" ");
    }
    sh_puts("\n");
#ifdef WITH_STRERROR /* lab/firmware.sh: what naming one status adds */
    sh_puts(sb_strerror(sb_reconnect_next(&r, NULL)));
    sh_puts("\n");
#endif
    return 0;
}
