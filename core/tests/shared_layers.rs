//! The shared parts where the local ones go (SPEC.md §19): a retry loop takes a shared budget and
//! send rate, `SendRateLayer` a shared send rate, `PaceLayer` a shared pacer; against a
//! redis-server started by the test, a second client on the same key sees what the first did.
#![cfg(all(feature = "valkey", feature = "tower", feature = "http"))]

mod store_support;

use std::sync::Arc;

use seeded_backoff::shared::{FleetClock, SharedBudget, SharedPacer, SharedSendRate};
use seeded_backoff::{
    budget::{BudgetConfig, RetryGate},
    pacer::Pacer,
    send_rate::{Answer, NotSent, SendRateConfig},
    tower::{PaceLayer, SendRateLayer},
    Jitter, Policy, Retry,
};
use store_support::Server;
use tower::{service_fn, BoxError, Layer, ServiceExt};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_loop_spends_the_fleets_budget_and_paces_by_its_send_rate() {
    let server = Server::start();
    let store = server.store().clock(FleetClock::Store);
    let budget = SharedBudget::new(&store, "budget", BudgetConfig::AWS_DEFAULT);
    let rate = SharedSendRate::new(&store, "rate", SendRateConfig::DEFAULT).unwrap();
    let policy = Policy::google()
        .to_builder()
        .initial_ms(1)
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let out = Retry::new(&policy, 7)
        .budget(&budget)
        .send_rate(&rate)
        .run_tokio(
            |attempt| async move {
                if attempt < 3 {
                    Err(Error::Busy)
                } else {
                    Ok(attempt)
                }
            },
            |_e: &Error| true,
        )
        .await;
    assert_eq!(out.unwrap(), 3);
    // Two retries of an error at 5 tokens each, then the success refunds one retry's cost: 495.
    assert_eq!(budget.tokens_milli(), 495_000);
    // Another process on the key starts from there: a first-try success adds 1.
    let other = SharedBudget::new(&server.store(), "budget", BudgetConfig::AWS_DEFAULT);
    other.record_success(None);
    assert_eq!(other.tokens_milli(), 496_000);
    assert_eq!(rate.stats().alone, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_rate_layer_over_a_shared_rate_turns_the_fleets_rate_on() {
    let server = Server::start();
    let store = server.store().clock(FleetClock::Store);
    let rate = Arc::new(SharedSendRate::new(&store, "rate", SendRateConfig::DEFAULT).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), |r: &Result<u16, BoxError>| match r {
        Ok(status) => Answer::from_http(*status, None),
        Err(_) => Answer::NoAnswer,
    });
    let busy = layer.layer(service_fn(|_req: ()| async { Ok::<u16, BoxError>(429) }));
    assert_eq!(busy.oneshot(()).await.unwrap(), 429);
    // The throttle turned the rate on in the store: another process reads it on its next answer.
    let other = SharedSendRate::new(
        &server.store().clock(FleetClock::Store),
        "rate",
        SendRateConfig::DEFAULT,
    )
    .unwrap();
    other.on_answer(layer.now_ms(), Answer::NoAnswer);
    assert!(other.load().rate_milli() > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pace_layers_of_two_replicas_hand_out_one_schedule() {
    let server = Server::start();
    // One return a second, none kept: the first refusal returns in second 1, the next in 2.
    let pacer = Pacer::new(1, 0, 60, 5).unwrap();
    let replicas: Vec<_> = (0..2)
        .map(|_| {
            PaceLayer::over(Arc::new(SharedPacer::new(
                &server.store(),
                "pacer",
                pacer.clone(),
            )))
        })
        .collect();
    let mut retry_after = Vec::new();
    for layer in &replicas {
        let busy = layer.layer(service_fn(|_req: http::Request<()>| async {
            Ok::<_, std::convert::Infallible>(
                http::Response::builder().status(429).body(()).unwrap(),
            )
        }));
        let response = busy.oneshot(http::Request::new(())).await.unwrap();
        retry_after.push(
            response.headers()["retry-after"]
                .to_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(retry_after, ["1", "2"]);
}
