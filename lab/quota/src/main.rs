//! 50 Tokio tasks against nginx's limit_req (429 past its rate), one mode after the other, each on
//! its own path so that nginx's access log tells them apart (lab/quota-nginx.sh
//! reads it):
//!   /rs-none      each task loops `retry_tokio` (per-request backoff, no shared limiter);
//!   /rs-sendrate  the tasks share one `AtomicSendRate` through `Retry::send_rate(..).run_tokio`:
//!                 the run asks it before every attempt and tells it every answer;
//!   /rs-sendrate-b1  the same with a burst of 1: a wait that ends late (Tokio's timer rounds up
//!                 to whole ms) moves the schedule back, where the default burst of 2 lets it go
//!                 on the schedule (§17.4).
//! Each task keeps one HTTP/1.1 keep-alive connection (a GET and its Content-Length body is all
//! nginx needs). Env: PORT, SECONDS (a mode's length), MODE=change (the one mode /rs-change: the
//! default send rate for SECONDS while the script changes nginx's rate), MODE=fleet (one process
//! of lab/fleet-quota.sh's fleet: WORKERS tasks on PATH for SECONDS, sharing the default send rate
//! kept in the Valkey at STORE, or an own one where STORE is empty; lab/fleet-quota-mixed.sh adds
//! KEY, the stored rate's key, START_AT, the Unix time in ms to begin at, so that every process of
//! the fleet begins together, and FIXED_MILLI, a rate pinned by min = max), MODE=prime (one
//! throttle told to the shared rate at STORE, KEY, FIXED_MILLI: the rate, off until a throttle,
//! set to the pinned one before the fleet begins). Prints the rate the send rate learnt.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use seeded_backoff::shared::{SharedSendRate, Store};
use seeded_backoff::{
    run::SendGate,
    send_rate::{Answer, AtomicSendRate, NotSent, SendRateConfig},
    CallSeeds, Policy, Retry, Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio::time::Instant;

const WORKERS: usize = 50;

/// Requests the send rate refused to let go within the policy's time (lab/fleet-quota-mixed.sh
/// prints them).
static NOT_SENT: AtomicU64 = AtomicU64::new(0);

#[derive(Debug)]
enum Error {
    Status(u16),
    Io(io::Error),
    NotSent(NotSent),
}

impl From<NotSent> for Error {
    fn from(n: NotSent) -> Self {
        Error::NotSent(n)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Status(s) => write!(f, "HTTP {s}"),
            Error::Io(e) => write!(f, "connection: {e}"),
            Error::NotSent(n) => write!(f, "{n}"),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// A status is read as SPEC.md §17.3 reads it: nginx's 429, which carries no `Retry-After`, is a
/// throttle for the send rate, a 5xx a retry the server answered; a connection error is a retry
/// with no answer.
fn classify(e: &Error) -> Verdict {
    match e {
        Error::Status(s) => Verdict::from_status(*s, None),
        Error::Io(_) => Verdict::RETRY,
        Error::NotSent(_) => Verdict::Stop,
    }
}

/// One GET on the task's connection (opened again after an error): its status. A kept-alive
/// connection that the server closed before answering (nginx's old worker after a reload) is
/// opened again and the request sent on the new one, as HTTP clients do.
async fn get(conn: &Mutex<Option<TcpStream>>, port: u16, path: &str) -> Result<(), Error> {
    let mut slot = conn.lock().await;
    let mut reused = slot.is_some();
    let status = loop {
        if slot.is_none() {
            *slot = Some(TcpStream::connect(("127.0.0.1", port)).await?);
        }
        let Some(stream) = slot.as_mut() else {
            return Err(Error::Io(io::ErrorKind::NotConnected.into()));
        };
        match exchange(stream, path).await {
            Ok(status) => break status,
            Err(e) => {
                *slot = None;
                if !std::mem::replace(&mut reused, false) {
                    return Err(e.into());
                }
            }
        }
    };
    match status {
        200 => Ok(()),
        status => Err(Error::Status(status)),
    }
}

async fn exchange(stream: &mut TcpStream, path: &str) -> io::Result<u16> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: quota\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "bad response head");
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(bad)?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(bad)?;
    let mut have = buf.len() - head_end;
    while have < length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        have += n;
    }
    Ok(status)
}

async fn mode<G: SendGate + Send + Sync + 'static>(
    port: u16,
    seconds: u64,
    path: &'static str,
    workers: usize,
    rate: Option<Arc<G>>,
) {
    // As the Node loop's: many retries within 30 s, so a request is retried rather than dropped.
    let policy = Policy::google()
        .to_builder()
        .max_retries(100)
        .max_elapsed_ms(30_000)
        .build()
        .expect("a valid policy");
    let seeds = Arc::new(CallSeeds::new(1));
    let end = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..workers)
        .map(|_| {
            let (rate, seeds) = (rate.clone(), Arc::clone(&seeds));
            tokio::spawn(async move {
                let conn = Mutex::new(None);
                let op = |_| get(&conn, port, path);
                while Instant::now() < end {
                    let seed = seeds.next_seed();
                    let served = match &rate {
                        None => Retry::new(&policy, seed).run_tokio(op, classify).await,
                        Some(rate) => {
                            Retry::new(&policy, seed)
                                .send_rate(&**rate)
                                .run_tokio(op, classify)
                                .await
                        }
                    };
                    // A request that ran out of retries on 429s is counted in nginx's log. One
                    // the send rate would not let go within the policy's 30 s (a rate cut to a
                    // few a minute) is counted here, and its task pauses 100 ms before the next,
                    // as a caller whose request was refused at once does, rather than asking
                    // again in a loop that holds a core. Any other end is the client's fault,
                    // and says so.
                    match served.map_err(|e| e.cause) {
                        Ok(_) | Err(Error::Status(_)) => {}
                        Err(Error::NotSent(_)) => {
                            NOT_SENT.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        Err(e) => eprintln!("{path}: {e}"),
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("a task ended");
    }
}

/// The fleet's send rate: the defaults, or with FIXED_MILLI a rate pinned at it (min = max), which
/// a throttle sets and no throttle or probe moves: a fixed shared limiter's.
fn fleet_config(fixed: &str) -> SendRateConfig {
    match fixed.parse() {
        Ok(milli) => SendRateConfig {
            min_rate_milli: milli,
            max_rate_milli: milli,
            ..SendRateConfig::DEFAULT
        },
        Err(_) => SendRateConfig::DEFAULT,
    }
}

/// Sleeps until the Unix time START_AT (ms), if given: the fleet's processes begin together.
async fn wait_for_start(start_at: &str) {
    let Ok(at) = start_at.parse::<u64>() else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    tokio::time::sleep(Duration::from_millis(at.saturating_sub(now))).await;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if std::env::var("MODE").as_deref() == Ok("prime") {
        let env = |name: &str| std::env::var(name).unwrap_or_default();
        let store = Store::open(&env("STORE")).expect("a redis:// URL");
        let config = fleet_config(&env("FIXED_MILLI"));
        let rate = SharedSendRate::new(&store, env("KEY"), config).expect("a valid rate");
        rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
        println!(
            "primed {} at {} link {:?}",
            env("KEY"),
            rate.load().rate_milli(),
            rate.link_state()
        );
        return;
    }
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .expect("PORT");
    let seconds: u64 = std::env::var("SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    if std::env::var("MODE").as_deref() == Ok("change") {
        let rate = Arc::new(AtomicSendRate::new(SendRateConfig::DEFAULT).expect("the defaults"));
        mode(
            port,
            seconds,
            "/rs-change",
            WORKERS,
            Some(Arc::clone(&rate)),
        )
        .await;
        println!("learnt /rs-change {}", rate.rate_milli());
        return;
    }
    if std::env::var("MODE").as_deref() == Ok("fleet") {
        let env = |name: &str| std::env::var(name).unwrap_or_default();
        let workers = env("WORKERS").parse().expect("WORKERS");
        let path: &'static str = env("PATH_NAME").leak();
        let config = fleet_config(&env("FIXED_MILLI"));
        let key = Some(env("KEY")).filter(|k| !k.is_empty());
        let key = key.unwrap_or_else(|| "sb:lab:fleet-quota".into());
        wait_for_start(&env("START_AT")).await;
        match env("STORE").as_str() {
            "" => {
                let rate = Arc::new(AtomicSendRate::new(config).expect("the defaults"));
                mode(port, seconds, path, workers, Some(Arc::clone(&rate))).await;
                let not_sent = NOT_SENT.load(Ordering::Relaxed);
                println!("learnt {path} {} not-sent {not_sent}", rate.rate_milli());
            }
            url => {
                let mut store = Store::open(url).expect("a redis:// URL");
                // BOUND_MS: the link's bound, SPEC.md's 50 ms unless the lab sets another.
                if let Ok(ms) = env("BOUND_MS").parse() {
                    store = store.bound(Duration::from_millis(ms));
                }
                let rate = SharedSendRate::new(&store, key, config);
                let rate = Arc::new(rate.expect("the defaults"));
                mode(port, seconds, path, workers, Some(Arc::clone(&rate))).await;
                let stats = rate.stats();
                println!(
                    "learnt {path} {} not-sent {} decisions {} alone {} conflicts {} late {} failed {} link {:?} {:?}",
                    rate.load().rate_milli(),
                    NOT_SENT.load(Ordering::Relaxed),
                    stats.decisions,
                    stats.alone,
                    stats.conflicts,
                    stats.late,
                    stats.failed,
                    rate.link_state(),
                    rate.link_error()
                );
            }
        }
        return;
    }
    // Each mode after a pause: nginx's bucket refilled.
    mode::<AtomicSendRate>(port, seconds, "/rs-none", WORKERS, None).await;
    for (path, burst) in [("/rs-sendrate", 2), ("/rs-sendrate-b1", 1)] {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let config = SendRateConfig {
            burst,
            ..SendRateConfig::DEFAULT
        };
        let rate = Arc::new(AtomicSendRate::new(config).expect("a valid burst"));
        mode(port, seconds, path, WORKERS, Some(Arc::clone(&rate))).await;
        println!("learnt {path} {}", rate.rate_milli());
    }
}
