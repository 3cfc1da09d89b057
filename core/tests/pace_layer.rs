//! The `tower` and `http` features on the server: `PaceLayer` around a real tower service that
//! answers 429, 503 or 200, on Tokio's paused clock. Every expected header is worked out by hand
//! from SPEC.md §16.2 and §16.4.
#![cfg(all(feature = "tower", feature = "http"))]

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use seeded_backoff::pacer::Pacer;
use seeded_backoff::tower::PaceLayer;
use tower::{service_fn, Layer, Service, ServiceExt};

type Response = http::Response<&'static str>;

/// A service answering each request with the status its URI path names (`/429`), setting a
/// constant `retry-after: 30` of its own on a refusal, as many servers do.
fn server(
) -> impl Service<http::Request<()>, Response = Response, Error = Infallible, Future: Send> + Clone
{
    service_fn(|req: http::Request<()>| async move {
        let status: u16 = req.uri().path().trim_start_matches('/').parse().unwrap();
        let mut response = http::Response::builder().status(status);
        if status != 200 {
            response = response.header("retry-after", "30");
        }
        Ok::<_, Infallible>(response.body("body").unwrap())
    })
}

async fn send<S>(service: &mut S, status: u16) -> Response
where
    S: Service<http::Request<()>, Response = Response, Error = Infallible>,
{
    let req = http::Request::get(format!("/{status}")).body(()).unwrap();
    service.ready().await.unwrap().call(req).await.unwrap()
}

/// The three headers of a response, `None` for each one it lacks.
fn headers(response: &Response) -> [Option<&str>; 3] {
    ["retry-after", "ratelimit-reset", "ratelimit"]
        .map(|name| response.headers().get(name).map(|v| v.to_str().unwrap()))
}

// capacity 1000, reserve 0: rate = 1000 returns a second, w = 1000 / 1000 = 1, so every draw is
// uniform(0) = 0 and `at = s · 1000 + i`: each slot is known exactly.
#[tokio::test(start_paused = true)]
async fn refusals_get_the_slots_spec_gives_them() {
    let layer = PaceLayer::new(Pacer::new(1000, 0, 1, 42).unwrap());
    let mut service = layer.layer(server());

    // now = 0: s = max(0, 0 + 1) = 1, i = 0: Retry-After 1, reset 1000 ms. The service's own
    // `retry-after: 30` is replaced.
    let first = send(&mut service, 429).await;
    assert_eq!(first.status(), 429);
    assert_eq!(
        headers(&first),
        [Some("1"), Some("1.000"), Some("\"pacer\";r=0;t=1")]
    );
    assert_eq!(first.headers().get_all("retry-after").iter().count(), 1);
    assert_eq!(*first.body(), "body");

    // A 503 is paced too: i = 1, at = 1001.
    let second = send(&mut service, 503).await;
    assert_eq!(headers(&second)[..2], [Some("1"), Some("1.001")]);

    // A success passes unchanged and takes no slot.
    let ok = send(&mut service, 200).await;
    assert_eq!(headers(&ok), [None, None, None]);

    // i = 2..=999 fill second 1; the next is past max_wait_s = 1: full, s = 1, i = 999.
    for i in 2..1000u32 {
        let r = send(&mut service, 429).await;
        assert_eq!(headers(&r)[1], Some(format!("1.{i:03}").as_str()));
    }
    let full = send(&mut service, 429).await;
    assert_eq!(headers(&full)[..2], [Some("1"), Some("1.999")]);

    // now = 2500: now_s = 2, s = max(tail_s = 2, 3) = 3, i = 0: Retry-After 3 − 2 = 1,
    // reset 3000 − 2500 = 500 ms.
    tokio::time::advance(Duration::from_millis(2500)).await;
    assert_eq!(layer.now_ms(), 2500);
    let later = send(&mut service, 429).await;
    assert_eq!(
        headers(&later),
        [Some("1"), Some("0.500"), Some("\"pacer\";r=0;t=1")]
    );
}

// capacity 4, reserve 500‰: the schedule's first second holds rate = 4 − 4 · 500 / 1000 = 2
// (w = 500), every later one 4 (w = 250), so the i-th return of second s lies in
// [s · 1000 + i · w, s · 1000 + i · w + w − 1].
#[tokio::test(start_paused = true)]
async fn clones_share_one_schedule_reserve_first() {
    let pacer = Arc::new(Mutex::new(Pacer::new(4, 500, 60, 9).unwrap()));
    let layer = PaceLayer::shared(Arc::clone(&pacer));
    let mut a = layer.layer(server());
    let mut b = a.clone();
    let mut seen = Vec::new();
    for k in 0..5u32 {
        let service = if k % 2 == 0 { &mut a } else { &mut b };
        let r = send(service, 429).await;
        let [after, reset, limit] = headers(&r).map(Option::unwrap);
        let (whole, frac) = reset.split_once('.').unwrap();
        assert_eq!(frac.len(), 3);
        seen.push((
            after.to_owned(),
            whole.parse::<u32>().unwrap() * 1000 + frac.parse::<u32>().unwrap(),
        ));
        assert_eq!(limit, format!("\"pacer\";r=0;t={after}"));
    }
    // Seconds 1, 1, 2, 2, 2; index 0, 1, 0, 1, 2.
    let expect = [
        ("1", 1000, 500),
        ("1", 1500, 500),
        ("2", 2000, 250),
        ("2", 2250, 250),
        ("2", 2500, 250),
    ];
    for ((after, reset), (want_after, low, w)) in seen.iter().zip(expect) {
        assert_eq!(after, want_after);
        assert!(
            (low..low + w).contains(reset),
            "{reset} outside {low}..{}",
            low + w
        );
    }
    // tail_s = 2, tail_count = 3, the reserve second 1 holds 2: pending(0) = 2 + 3.
    assert_eq!(pacer.lock().unwrap().pending(0), 5);
}
