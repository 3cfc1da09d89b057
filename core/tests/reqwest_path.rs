//! The reqwest path (features `tower` and `reqwest`): `reqwest::Client` as a tower service under
//! `TowerPolicy`, whose requests are not `Clone` (`clone_request_with(Request::try_clone)`), the
//! verdict and hint read from each `reqwest::Response` by `Verdict::from_reqwest`, and a give-up
//! hook marking the response whose retries ran out, against a real HTTP server on 127.0.0.1 (an
//! ephemeral port, stopped with the test's runtime), on Tokio's paused clock, so the gaps between
//! the requests the server sees are exactly what the client waited.
#![cfg(all(feature = "tower", feature = "reqwest", not(miri)))]

use std::sync::{Arc, Mutex};

use seeded_backoff::{
    tower::{RetriesExhausted, TowerPolicy},
    Backoff, GiveUpReason, Jitter, Policy, Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tower::ServiceExt;

/// A server answering `script` in order (then its last answer), each a status and its extra
/// header lines; it records when each request arrives, in virtual ms since it started.
async fn serve(script: &'static [(u16, &'static str)]) -> (String, Arc<Mutex<Vec<u64>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/items", listener.local_addr().unwrap());
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&arrivals);
    let start = tokio::time::Instant::now();
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = Vec::new();
            let mut buf = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = socket.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
            }
            let (status, headers) = {
                let mut seen = seen.lock().unwrap();
                seen.push(start.elapsed().as_millis() as u64);
                script[(seen.len() - 1).min(script.len() - 1)]
            };
            let response = format!(
                "HTTP/1.1 {status} X\r\n{headers}content-length: 0\r\nconnection: close\r\n\r\n"
            );
            socket.write_all(response.as_bytes()).await.unwrap();
            socket.shutdown().await.unwrap();
        }
    });
    (url, arrivals)
}

fn client() -> reqwest::Client {
    // No pooled connections: an idle pool's timers would let the paused clock jump.
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .pool_idle_timeout(None)
        .build()
        .unwrap()
}

type Outcome = Result<reqwest::Response, reqwest::Error>;

fn classify(result: &Outcome) -> Verdict {
    match result {
        Ok(response) => Verdict::from_reqwest(response),
        Err(_) => Verdict::RETRY,
    }
}

fn mark(result: &mut Outcome, exhausted: RetriesExhausted) {
    if let Ok(response) = result {
        response.extensions_mut().insert(exhausted);
    }
}

fn gaps(arrivals: &Mutex<Vec<u64>>) -> Vec<u64> {
    let at = arrivals.lock().unwrap().clone();
    at.windows(2).map(|w| w[1] - w[0]).collect()
}

#[tokio::test(start_paused = true)]
async fn a_retry_after_beyond_the_cap_is_waited_in_full() {
    // A 1 s cap, and the server says 503, 503, then 429 with Retry-After: 2: the client comes
    // back after 2 s, not after its 1 s cap (the hint limit is 300 s, whatever the cap).
    let policy = Policy::builder()
        .max_backoff_ms(1_000)
        .jitter(Jitter::Google { jitter_ms: 1000 })
        .build()
        .unwrap();
    let (url, arrivals) =
        serve(&[(503, ""), (503, ""), (429, "Retry-After: 2\r\n"), (200, "")]).await;
    let retry = TowerPolicy::new(policy, classify)
        .seed(5)
        .clone_request_with(|r: &reqwest::Request| r.try_clone())
        .on_give_up(mark);
    let request = client().get(&url).build().unwrap();
    let response = tower::retry::Retry::new(retry, client())
        .oneshot(request)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.extensions().get::<RetriesExhausted>(), None);
    let mut b = Backoff::new(&policy, 5);
    let plain: Vec<u64> = (0..2)
        .map(|_| u64::from(b.next_delay(&policy).delay_ms().unwrap()))
        .collect();
    assert_eq!(gaps(&arrivals), [plain[0], plain[1], 2_000]);
}

#[tokio::test(start_paused = true)]
async fn the_response_whose_retries_ran_out_says_so() {
    let (url, arrivals) = serve(&[(503, "")]).await;
    let retry = TowerPolicy::new(Policy::aws_standard(), classify)
        .seed(0)
        .clone_request_with(|r: &reqwest::Request| r.try_clone())
        .on_give_up(mark);
    let request = client().get(&url).build().unwrap();
    let response = tower::retry::Retry::new(retry, client())
        .oneshot(request)
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    let exhausted = response.extensions().get::<RetriesExhausted>().copied();
    assert_eq!(
        exhausted,
        Some(RetriesExhausted {
            attempts: 3,
            reason: GiveUpReason::MaxRetries
        })
    );
    // schedule-preset-aws.json, seed 0: 27, 90 ms.
    assert_eq!(gaps(&arrivals), [27, 90]);
}

#[tokio::test(start_paused = true)]
async fn a_wait_beyond_max_hint_gives_up_at_once_instead_of_returning_early() {
    let (url, arrivals) = serve(&[(503, "Retry-After: 3600\r\n"), (200, "")]).await;
    let retry = TowerPolicy::new(Policy::google(), classify)
        .seed(0)
        .clone_request_with(|r: &reqwest::Request| r.try_clone())
        .on_give_up(mark);
    let request = client().get(&url).build().unwrap();
    let response = tower::retry::Retry::new(retry, client())
        .oneshot(request)
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(
        response.extensions().get::<RetriesExhausted>().copied(),
        Some(RetriesExhausted {
            attempts: 1,
            reason: GiveUpReason::HintExceedsMax
        })
    );
    assert_eq!(arrivals.lock().unwrap().len(), 1, "never sent again early");
}
