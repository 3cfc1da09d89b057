/* The floor of main_reconnect.c: its delays (SPEC.md sections 3, 4 and 12 for its one policy: 1 s,
 * x2, a 64 s cap, full jitter, forever) hand-written in C with the policy folded into constants
 * and nothing validated, the least code that prints the same numbers. The lab measures the
 * library against it (lab/firmware.sh), and the gate checks that it prints the model's delays
 * (scripts/test.d/31-reconnect.sh), so the comparison is with the same work. */
#include <stddef.h>
#include <stdint.h>

#include "semihosting.h"

#ifndef DEVICE_UID
#define DEVICE_UID 0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6
#endif
#ifndef BOOT_COUNT
#define BOOT_COUNT 1
#endif

#define INITIAL_MS 1000u
#define CAP_MS 64000u
#define GAMMA 0x9E3779B97F4A7C15ull

typedef struct floor_state {
    uint32_t s[4];
    uint32_t level;
} floor_state;

static uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__attribute__((noinline)) uint64_t floor_seed_from_device(const uint8_t *id, size_t len,
                                                          uint32_t boot_counter) {
    uint64_t hash = 0xCBF29CE484222325ull;
    while (len--) {
        hash = (hash ^ *id++) * 0x100000001B3ull;
    }
    return splitmix64(hash ^ splitmix64(boot_counter));
}

__attribute__((noinline)) void floor_init(floor_state *st, uint64_t seed) {
    uint64_t a = splitmix64(seed), b = splitmix64(seed + GAMMA);
    st->s[0] = (uint32_t)a;
    st->s[1] = (uint32_t)(a >> 32);
    st->s[2] = (uint32_t)b;
    st->s[3] = (uint32_t)(b >> 32);
    st->level = INITIAL_MS;
}

static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static uint32_t next_u32(uint32_t *s) {
    uint32_t result = rotl(s[0] + s[3], 7) + s[0], t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
}

/* Uniform in [0, n] without bias (Lemire), n <= CAP_MS here, so n + 1 fits 32 bits. */
static uint32_t uniform(uint32_t *s, uint32_t n) {
    uint32_t range = n + 1;
    uint64_t m = (uint64_t)next_u32(s) * range;
    if ((uint32_t)m < range) {
        uint32_t threshold = (0u - range) % range;
        while ((uint32_t)m < threshold) {
            m = (uint64_t)next_u32(s) * range;
        }
    }
    return (uint32_t)(m >> 32);
}

__attribute__((noinline)) uint32_t floor_next(floor_state *st) {
    uint32_t level = st->level, delay = uniform(st->s, level);
    st->level = level > CAP_MS / 2 ? CAP_MS : level * 2;
    return delay;
}

static const uint8_t uid[] = {DEVICE_UID};

int main(void) {
    floor_state st;
    int i;
    floor_init(&st, floor_seed_from_device(uid, sizeof uid, BOOT_COUNT));
    sh_puts("state ");
    sh_put_u32(sizeof st);
    sh_puts("\n");
    for (i = 0; i < 12; i++) {
        sh_put_u32(floor_next(&st));
        sh_puts(" ");
    }
    sh_puts("\n");
    return 0;
}
