use std::{thread, time::Duration};

use seeded_backoff::{classify_http, Backoff, Classification, GiveUpReason, Policy, Step};

const POLICY: Policy = Policy::google(); // shared by every request; on firmware it stays in flash

/// Sends the request and returns its HTTP status. This stand-in answers 503 twice, then 200.
fn send_request(attempt: u32) -> u16 {
    if attempt <= 2 {
        503
    } else {
        200
    }
}

fn fetch(seed: u64) -> Result<u16, GiveUpReason> {
    let mut backoff = Backoff::new(&POLICY, seed); // per request: 32 bytes
    let mut attempt = 1; // attempts count from 1
    loop {
        let status = send_request(attempt);
        match classify_http(status) {
            Classification::Retry => match backoff.next_delay(&POLICY) {
                Step::Retry { delay_ms, .. } => {
                    println!("HTTP {status}: retrying in {delay_ms} ms");
                    thread::sleep(Duration::from_millis(delay_ms.into()));
                }
                // max_retries, deadline, budget or server_stop
                Step::GiveUp(reason) => return Err(reason),
            },
            _ => return Ok(status),
        }
        attempt += 1;
    }
}

fn main() {
    // One seed per client: a device id, or Backoff::from_entropy with the "std" feature.
    let status = fetch(0x5eed).expect("gave up");
    println!("HTTP {status}");
    assert_eq!(status, 200);
}
