//! The everyday reqwest path (feature `reqwest`): the crate README's first program
//! (examples/reqwest_retry.rs, the README's first block) run as pasted against a real server on
//! 127.0.0.1 that asks for 3 s with `Retry-After`; `retry_reqwest`'s give-up as a matchable
//! error carrying the last response; its future `Send`; and a fresh seed per call.
#![cfg(all(feature = "reqwest", not(miri)))]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use seeded_backoff::{
    retry_reqwest, GiveUpReason, Jitter, Policy, ReqwestFailure, Retry, RetryError,
};

/// A server on a free loopback port answering `script` in order (then its last answer), each a
/// status and extra header lines; it records when each request arrives, by the real clock.
fn serve(script: &'static [(u16, &'static str)]) -> (String, Arc<Mutex<Vec<Instant>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/items", listener.local_addr().unwrap());
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&arrivals);
    std::thread::spawn(move || {
        for socket in listener.incoming() {
            let Ok(mut socket) = socket else { return };
            let mut request = Vec::new();
            let mut buf = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match socket.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let (status, headers) = {
                let mut seen = seen.lock().unwrap();
                seen.push(Instant::now());
                script[(seen.len() - 1).min(script.len() - 1)]
            };
            let response = format!(
                "HTTP/1.1 {status} X\r\n{headers}content-length: 0\r\nconnection: close\r\n\r\n"
            );
            let _ = socket.write_all(response.as_bytes());
        }
    });
    (url, arrivals)
}

/// The README's first Rust block, whatever its fence: the program a reader copies first.
fn first_rust_block(markdown: &str) -> String {
    let start = markdown.find("```rust").expect("a Rust block");
    let body = &markdown[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

#[test]
fn the_readme_opens_with_the_reqwest_example() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/examples/reqwest_retry.rs")).unwrap();
    assert_eq!(first_rust_block(&readme), example);
}

#[test]
fn the_readme_program_waits_what_retry_after_asks() {
    // 503 with `Retry-After: 3`, then 200: Google's backoff alone would come back within 2 s.
    let (url, arrivals) = serve(&[(503, "retry-after: 3\r\n"), (200, "")]);
    // `cargo test` builds the examples, but not `cargo test --test reqwest_example`: build it.
    let built = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "-q",
            "-p",
            "seeded-backoff",
            "--features",
            "reqwest",
        ])
        .args(["--example", "reqwest_retry"])
        .status()
        .unwrap();
    assert!(built.success());
    let exe = std::env::current_exe().unwrap();
    let program = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/reqwest_retry");
    let out = std::process::Command::new(&program)
        .arg(&url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "HTTP 200 OK\n");
    let at = arrivals.lock().unwrap().clone();
    assert_eq!(at.len(), 2);
    // A lower bound the sleep guarantees, however slow the machine: no upper bound is asserted.
    assert!(
        at[1] - at[0] >= std::time::Duration::from_secs(3),
        "{:?}",
        at[1] - at[0]
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_give_up_is_an_error_with_the_last_response() {
    let (url, arrivals) = serve(&[(503, "")]);
    let policy = Policy::builder()
        .initial_ms(1)
        .max_backoff_ms(2)
        .max_retries(2)
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let client = reqwest::Client::new();
    match retry_reqwest(&policy, client.get(&url)).await {
        Err(RetryError {
            cause: ReqwestFailure::Response(last),
            attempts: 3,
            reason: Some(GiveUpReason::MaxRetries),
        }) => assert_eq!(last.status(), 503),
        other => panic!("expected a give-up with the last 503, got {other:?}"),
    }
    assert_eq!(arrivals.lock().unwrap().len(), 3);
    // Any status but a 429 or 5xx is an answer, not a failure.
    let (url, _) = serve(&[(404, "")]);
    let response = retry_reqwest(&policy, client.get(&url)).await.unwrap();
    assert_eq!(response.status(), 404);
}

#[tokio::test(flavor = "current_thread")]
async fn a_connection_refused_is_retried_then_given_up() {
    // A port nothing listens on: bind one, note it, close it.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let policy = Policy::builder()
        .initial_ms(1)
        .max_backoff_ms(2)
        .max_retries(1)
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let client = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{port}/");
    match Retry::new(&policy, 7).send_reqwest(client.get(url)).await {
        Err(RetryError {
            cause: ReqwestFailure::Error(e),
            attempts: 2,
            reason: Some(GiveUpReason::MaxRetries),
        }) => assert!(e.is_connect(), "{e}"),
        other => panic!("expected a give-up on a connection error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_call_is_send_and_can_be_spawned() {
    const POLICY: Policy = Policy::google();
    let (url, _) = serve(&[(200, "")]);
    let request = reqwest::Client::new().get(url);
    let task = tokio::spawn(async move { retry_reqwest(&POLICY, request).await });
    assert_eq!(task.await.unwrap().unwrap().status(), 200);
}
