//! Firmware-style use, with only what a `no_std` build has: a policy in flash, a seed derived from
//! the device id, the board's millisecond tick as the clock, and the state kept in 40 bytes of RTC
//! memory across a deep sleep. The `Board` stands in for the hardware; everything else is as on a
//! microcontroller (the same calls build for thumbv6m-none-eabi).

use seeded_backoff::{
    const_policy, fleet::seed_from_device, snapshot::SNAPSHOT_SIZE, Backoff, GiveUpReason, Policy,
    Step,
};

/// In flash: validated at compile time, so a bad edit is a build error that names the field.
const POLICY: Policy = const_policy!(Policy::builder()
    .initial_ms(500)
    .max_backoff_ms(60_000)
    .max_retries(8)
    .max_elapsed_ms(120_000));

/// What the hardware provides: a tick counter, RTC memory that survives deep sleep, a radio, and a
/// boot counter kept in flash.
struct Board {
    tick_ms: u64,
    rtc: [u8; SNAPSHOT_SIZE],
    uplinks: u32,
    boot_count: u32,
}

impl Board {
    fn device_id(&self) -> [u8; 8] {
        *b"dev-0042"
    }
    /// The first three uplinks fail (the gateway is down), the fourth succeeds.
    fn send_uplink(&mut self) -> bool {
        self.tick_ms += 40; // the radio takes 40 ms
        self.uplinks += 1;
        self.uplinks > 3
    }
    fn sleep_ms(&mut self, ms: u32) {
        self.tick_ms += u64::from(ms);
    }
}

/// The device's seed (SPEC.md §12.1) from its id and boot counter: devices of a fleet draw apart,
/// and a reboot does not replay the last boot's delays.
fn seed(board: &Board) -> u64 {
    seed_from_device(&board.device_id(), board.boot_count)
}

/// One wake period: resume the saved state (or start one), try the uplink, and either finish or
/// save the state and deep-sleep for the delay. Returns `Some(delay)` to sleep, `None` when done.
fn wake(board: &mut Board, first_boot: bool) -> Result<Option<u32>, GiveUpReason> {
    let mut backoff = if first_boot {
        Backoff::new(&POLICY, seed(board))
    } else {
        // A damaged or foreign snapshot (after a firmware update changed the policy) starts over.
        Backoff::restore(&POLICY, &board.rtc).unwrap_or_else(|_| Backoff::new(&POLICY, seed(board)))
    };
    if board.send_uplink() {
        return Ok(None);
    }
    match backoff.next_delay(&POLICY) {
        Step::Retry { delay_ms, retry } => {
            println!("uplink failed; retry {retry} after {delay_ms} ms of deep sleep");
            board.rtc = backoff.snapshot(&POLICY);
            Ok(Some(delay_ms))
        }
        Step::GiveUp(reason) => Err(reason),
    }
}

fn main() {
    let mut board = Board {
        tick_ms: 0,
        rtc: [0; SNAPSHOT_SIZE],
        uplinks: 0,
        boot_count: 1,
    };
    let mut first_boot = true;
    loop {
        match wake(&mut board, first_boot) {
            Ok(Some(delay)) => board.sleep_ms(delay), // deep sleep: RAM is lost, RTC memory kept
            Ok(None) => break,
            Err(reason) => panic!("gave up: {reason}"),
        }
        first_boot = false;
    }
    println!("uplink sent at tick {} ms", board.tick_ms);
    assert_eq!(board.uplinks, 4);
    // Three delays of at least 500, 1000 and 2000 ms, plus four 40 ms uplinks.
    assert!(board.tick_ms >= 3_500 + 160);
}

#[test]
fn runs() {
    main();
}
