/* Minimal Cortex-M3 startup: the vector table, .data/.bss set-up, main, then a semihosting exit.
 * Faults print a line and fail, so a crash never looks like a hang. */
#include <stdint.h>
#include <string.h>

#include "semihosting.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
int main(void);

void reset_handler(void) {
    memcpy(&_sdata, &_sidata, (uintptr_t)&_edata - (uintptr_t)&_sdata);
    memset(&_sbss, 0, (uintptr_t)&_ebss - (uintptr_t)&_sbss);
    sh_exit(main() == 0);
}

static void fault_handler(void) {
    sh_puts("FAIL: CPU fault\n");
    sh_exit(0);
}

/* Initial stack pointer, then reset, NMI, HardFault, MemManage, BusFault, UsageFault. */
__attribute__((section(".vectors"), used)) static const uintptr_t vectors[16] = {
    (uintptr_t)&_estack,      (uintptr_t)reset_handler, (uintptr_t)fault_handler,
    (uintptr_t)fault_handler, (uintptr_t)fault_handler, (uintptr_t)fault_handler,
    (uintptr_t)fault_handler,
};
