/* Replays every test vector (embedded at build time) through the C API on the emulated
 * Cortex-M3 and prints one PASS/FAIL line: the device gets the schedule the server and the browser
 * get. */
#include "vectors_data.h"
#include "semihosting.h"

static void on_fail(const char *what, const char *name, uint32_t a, uint32_t b, uint64_t got,
                    uint64_t want) {
    sh_puts("mismatch: ");
    sh_puts(what);
    sh_puts(" in ");
    sh_puts(name);
    sh_puts(" #");
    sh_put_u32(a);
    sh_puts("/");
    sh_put_u32(b);
    sh_puts(": got ");
    sh_put_hex64(got);
    sh_puts(", want ");
    sh_put_hex64(want);
    sh_puts("\n");
}

int main(void) {
    vec_stats st = vec_replay_all(on_fail);
    uint32_t i, linked = 0;
    /* Every function of the header is linked in, so the no-panic link proof covers the whole
     * API, not only what the replay calls. */
    for (i = 0; i < VEC_ALL_FUNCTIONS_COUNT; i++) {
        vec_any_fn volatile f = vec_all_functions[i];
        linked += f != 0;
    }
    sh_puts("API functions linked: ");
    sh_put_u32(linked);
    sh_puts("\n");
    sh_puts(st.failed == 0 && st.checked > 0 ? "PASS: " : "FAIL: ");
    sh_put_u32(st.checked - st.failed);
    sh_puts(" of ");
    sh_put_u32(st.checked);
    sh_puts(" vector checks matched (");
    sh_put_u32(VEC_FILE_COUNT);
#if defined(__riscv)
    sh_puts(" vector files) on RISC-V, ");
#else
    sh_puts(" vector files) on Cortex-M3, ");
#endif
    sh_put_u32(st.skipped);
    sh_puts(" cases skipped as not compiled in\n");
    return st.failed == 0 && st.checked > 0 ? 0 : 1;
}
