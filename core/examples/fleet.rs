//! One send rate and one retry budget for a whole fleet, kept in Valkey or Redis (SPEC.md §19):
//! start it in several terminals against one server, and every process paces and retries out of
//! the same state. With the server down, each decides from its own state, within 50 ms.
//!
//! `cargo run -p seeded-backoff --features valkey --example fleet -- redis://127.0.0.1:6379/`

use seeded_backoff::shared::{SharedBudget, SharedSendRate, Store};
use seeded_backoff::{
    budget::BudgetConfig,
    send_rate::{NotSent, SendRateConfig},
    Policy, Retry,
};

/// The loop's error: the server's, or the send rate's refusal before a first attempt.
#[derive(Debug)]
enum Error {
    Busy,
    NotSent,
}

impl From<NotSent> for Error {
    fn from(_: NotSent) -> Self {
        Error::NotSent
    }
}

#[tokio::main]
async fn main() {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "redis://127.0.0.1:6379/".into());
    // One connection for every shared part of the process; each part is one key, and every
    // process of the fleet gives it the same configuration.
    let store = Store::open(&url).expect("a redis:// URL");
    let rate = SharedSendRate::new(&store, "sb:send-rate:api", SendRateConfig::DEFAULT).unwrap();
    let budget = SharedBudget::new(&store, "sb:budget:api", BudgetConfig::AWS_DEFAULT);

    let policy = Policy::google()
        .to_builder()
        .initial_ms(100)
        .build()
        .unwrap();
    let out = Retry::new(&policy, u64::from(std::process::id()))
        .budget(&budget)
        .send_rate(&rate)
        .run_tokio(
            |attempt| async move {
                if attempt < 2 {
                    Err(Error::Busy)
                } else {
                    Ok("200")
                }
            },
            |_e: &Error| true,
        )
        .await;
    println!(
        "{out:?}; the fleet's budget holds {} tokens ({:?})",
        budget.tokens_milli() / 1000,
        budget.link_state()
    );
}
