/* The reconnect variant's contract on the device (scripts/test.d/31-reconnect.sh runs it in QEMU
 * on Cortex-M3 and rv32imc): an invalid policy is named by its field, what the variant leaves out
 * is SB_ERR_UNSUPPORTED, NULL and corrupted state are refused, a finite count gives up, the
 * forever count never does, and the fleet functions work. Prints one PASS line, or a FAIL line per
 * check that failed, then the startup delay for the test to compare with the model. */
#include "seeded_backoff.h"
#include "semihosting.h"

static int failures;

static void expect(const char *what, int got, int want) {
    if (got != want) {
        sh_puts("FAIL: ");
        sh_puts(what);
        sh_puts(": got ");
        sh_put_u32((uint32_t)got);
        sh_puts("\n");
        failures++;
    }
}

static const sb_policy GOOD = {
    .initial_ms = 1000, .multiplier_num = 2, .multiplier_den = 1, .max_backoff_ms = 64000,
    .max_retries = SB_RETRY_FOREVER, .jitter = SB_JITTER_FULL, .max_hint_ms = SB_DEFAULT_MAX_HINT_MS,
};
static const uint8_t uid[] = {0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6};

int main(void) {
    sb_policy p;
    sb_reconnect r, copy;
    uint32_t d = 0, startup = 0;
    uint64_t seed = 0;
    p = GOOD, p.max_backoff_ms = 10;
    expect("cap below initial_ms", sb_reconnect_init(&r, &p, 1), SB_ERR_POLICY_MAX_BACKOFF_MS);
    p = GOOD, p.jitter = 9;
    expect("unknown jitter", sb_reconnect_init(&r, &p, 1), SB_ERR_POLICY_JITTER);
    p = GOOD, p.multiplier_den = 0;
    expect("multiplier_den 0", sb_reconnect_init(&r, &p, 1), SB_ERR_POLICY_MULTIPLIER_DEN);
    p = GOOD, p.initial_ms = 0;
    expect("initial_ms 0", sb_reconnect_init(&r, &p, 1), SB_ERR_POLICY_INITIAL_MS);
    p = GOOD, p.max_elapsed_ms = 60000;
    expect("time budget", sb_reconnect_init(&r, &p, 1), SB_ERR_UNSUPPORTED);
    p = GOOD, p.jitter = SB_JITTER_GOOGLE, p.jitter_ms = 1000;
    expect("a strategy left out", sb_reconnect_init(&r, &p, 1), SB_ERR_UNSUPPORTED);
    expect("NULL state", sb_reconnect_init(NULL, &GOOD, 1), SB_ERR_NULL);
    expect("NULL policy", sb_reconnect_init(&r, NULL, 1), SB_ERR_NULL);

    expect("seed", sb_seed_from_device(uid, sizeof uid, 1, &seed), SB_OK);
    expect("startup delay", sb_startup_delay(seed, 60000, &startup), SB_OK);
    expect("startup window", sb_startup_delay(seed, 0x80000000u, &d), SB_ERR_FLEET_WINDOW_MS);
    expect("init", sb_reconnect_init(&r, &GOOD, seed), SB_OK);
    expect("NULL delay", sb_reconnect_next(&r, NULL), SB_ERR_NULL);
    copy = r, copy.rng[0] = copy.rng[1] = copy.rng[2] = copy.rng[3] = 0;
    expect("zero generator", sb_reconnect_next(&copy, &d), SB_ERR_BAD_STATE);
    copy = r, copy.level = 64001;
    expect("level above the cap", sb_reconnect_next(&copy, &d), SB_ERR_BAD_STATE);
    copy = r, copy.policy = NULL;
    expect("no policy", sb_reconnect_next(&copy, &d), SB_ERR_BAD_STATE);

    r.retries = 0xFFFFFFFEu;
    expect("forever, last count", sb_reconnect_next(&r, &d), SB_RETRY);
    expect("forever, past it", sb_reconnect_next(&r, &d), SB_RETRY);
    expect("forever, the count stays", r.retries == 0xFFFFFFFFu, 1);
    expect("reset", sb_reconnect_reset(&r), SB_OK);
    expect("reset: count and level", r.retries == 0 && r.level == 1000, 1);

    p = GOOD, p.max_retries = 2;
    expect("finite init", sb_reconnect_init(&r, &p, seed), SB_OK);
    expect("finite, 1", sb_reconnect_next(&r, &d), SB_RETRY);
    expect("finite, 2", sb_reconnect_next(&r, &d), SB_RETRY);
    expect("finite, gives up", sb_reconnect_next(&r, &d), SB_GIVE_UP_MAX_RETRIES);

    sh_puts(failures == 0 ? "PASS: reconnect statuses\n" : "FAIL: reconnect statuses\n");
    sh_puts("startup ");
    sh_put_u32(startup);
    sh_puts("\n");
    return failures != 0;
}
