//! One process of the fleet pacing test's clients (lab/fleet-pacing.sh): clients FIRST..FIRST+COUNT-1
//! against the replica at 127.0.0.1:PORT, each a Tokio task with its own kept-alive connection,
//! looping the core's retry with the policy of lab/pacing's `paced` clients (Google's, 1 s × 2,
//! cap 32 s, full jitter, 50 retries, `paced`: a `Retry-After` is the wait itself). Once every
//! connection is open it prints `ready` and reads the start (Unix ms) from stdin; client `id`
//! starts then plus `(id · 617) mod 1000` ms, as lab/pacing's clients do. Prints one line per
//! client: `done ID MS CALLS` (ms from the start to its 200, `-` if it gave up).
//!
//! usage: pace-clients --port PORT --first FIRST --count COUNT

use std::cell::Cell;
use std::io::{BufRead, Write};
use std::time::Duration;

use seeded_backoff::{Jitter, Policy, Retry, Verdict};

#[path = "../link.rs"]
mod link;
use link::{unix_ms, Link};

/// One client: its 200's ms from `start_ms`, if it got one, and its calls.
async fn client(id: u64, mut link: Link, policy: &Policy, start_ms: u64) -> (Option<u64>, u32) {
    let at = start_ms + (id * 617) % 1000;
    tokio::time::sleep(Duration::from_millis(at.saturating_sub(unix_ms()))).await;
    let calls = Cell::new(0u32);
    let path = format!("/fleet/{id}");
    let link = tokio::sync::Mutex::new(&mut link);
    let op = |_| async {
        calls.set(calls.get() + 1);
        let head = link.lock().await.get(&path).await;
        match head {
            Ok(head) if head.status == http::StatusCode::OK => Ok(()),
            Ok(head) => Err(Verdict::from_http_parts(
                head.status,
                &head.headers,
                unix_ms() / 1000,
            )),
            Err(e) => {
                eprintln!("pace-clients: client {id}: {e}");
                Err(Verdict::RETRY)
            }
        }
    };
    let served = Retry::new(policy, id + 1)
        .run_tokio(op, |v: &Verdict| *v)
        .await;
    let done = served.ok().map(|()| unix_ms().saturating_sub(start_ms));
    (done, calls.get())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let parsed =
        link::flags(std::env::args().skip(1), &["--port", "--first", "--count"]).and_then(|f| {
            Ok((
                link::number::<u16>(&f, "--port", None)?,
                link::number::<u64>(&f, "--first", None)?,
                link::number::<u64>(&f, "--count", None)?,
            ))
        });
    let (port, first, count) = parsed.unwrap_or_else(|e| {
        eprintln!("pace-clients: {e}\nusage: pace-clients --port PORT --first FIRST --count COUNT");
        std::process::exit(2);
    });
    let policy = Policy::google()
        .to_builder()
        .initial_ms(1000)
        .max_backoff_ms(32_000)
        .max_hint_ms(32_000)
        .jitter(Jitter::Full)
        .max_retries(50)
        .paced(true)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("pace-clients: the policy: {e}");
            std::process::exit(2);
        });
    // Every client's connection open before the start, as a fleet that has been running.
    let mut links = Vec::new();
    for _ in 0..count {
        let mut link = Link::new(port);
        if let Err(e) = link.get("/__warm").await {
            eprintln!("pace-clients: warming up: {e}");
            std::process::exit(1);
        }
        links.push(link);
    }
    println!("ready");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    let Ok(start_ms) = line.trim().parse::<u64>() else {
        eprintln!("pace-clients: no start on stdin ({line:?})");
        std::process::exit(2);
    };
    let policy = &policy;
    let results = join_all(
        links
            .into_iter()
            .enumerate()
            .map(|(i, link)| client(first + i as u64, link, policy, start_ms)),
    )
    .await;
    let mut out = std::io::stdout().lock();
    for (i, (done, calls)) in results.into_iter().enumerate() {
        let done = done.map_or(String::from("-"), |ms| ms.to_string());
        let _ = writeln!(out, "done {} {done} {calls}", first + i as u64);
    }
}

/// Every future of `futures` polled together on this thread, their outputs in order.
async fn join_all<F: std::future::Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut pending: Vec<_> = futures.map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut left = false;
        for (slot, out) in pending.iter_mut().zip(outputs.iter_mut()) {
            if let Some(f) = slot {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => {
                        *out = Some(v);
                        *slot = None;
                    }
                    std::task::Poll::Pending => left = true,
                }
            }
        }
        if left {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}
