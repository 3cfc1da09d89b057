//! The async retry loop against a real HTTP server on 127.0.0.1, which answers 503 twice (the
//! first time with `Retry-After: 3`), then 200. Run with:
//! `cargo run -p seeded-backoff --example async_http --features tokio`

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::time::Duration;

use seeded_backoff::{
    classify_http, parse_retry_after, retry_tokio, Classification, Policy, ServerHint, Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A plain HTTP/1.1 server on a free loopback port, in a thread: it answers the first two requests
/// with 503 and the third with 200, then stops.
fn start_server() -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    std::thread::spawn(move || {
        let answers = [
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\n",
            "HTTP/1.1 503 Service Unavailable\r\n",
            "HTTP/1.1 200 OK\r\n",
        ];
        for head in answers {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let body = if head.contains("200") {
                "hello\n"
            } else {
                "busy\n"
            };
            let _ = write!(
                stream,
                "{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    Ok(addr)
}

/// One HTTP GET: the status and the `Retry-After` value, if any.
async fn get(addr: SocketAddr) -> std::io::Result<(u16, Option<String>)> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let retry_after = response
        .lines()
        .find_map(|l| l.strip_prefix("Retry-After: "))
        .map(str::to_string);
    Ok((status, retry_after))
}

/// An attempt's failure: a retryable status with its `Retry-After`, or a transport error.
#[derive(Debug)]
enum Failure {
    Status(u16, Option<String>),
    Io(std::io::Error),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Status(status, _) => write!(f, "HTTP {status}"),
            Failure::Io(e) => write!(f, "{e}"),
        }
    }
}

/// An error, so the give-up's `RetryError` is one too, with this as its `source()`.
impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failure::Status(..) => None,
            Failure::Io(e) => Some(e),
        }
    }
}

fn classify(failure: &Failure) -> Verdict {
    match failure {
        Failure::Status(_, Some(value)) => match parse_retry_after(value.as_bytes(), 0) {
            Ok(ms) => Verdict::with_hint(ServerHint::RetryAfterMs(ms)),
            Err(_) => Verdict::RETRY,
        },
        Failure::Status(status, None) => (classify_http(*status) == Classification::Retry).into(),
        Failure::Io(_) => Verdict::RETRY,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = start_server()?;
    let policy = Policy::google();
    let started = tokio::time::Instant::now();
    // A fresh seed per call: run it twice and the waits differ (the 3 s hint stays a floor).
    let fetch = retry_tokio(
        &policy,
        |attempt| async move {
            let at = started.elapsed().as_millis();
            let result = match get(addr).await {
                Ok((status, _)) if classify_http(status) == Classification::Success => Ok(status),
                Ok((status, retry_after)) => Err(Failure::Status(status, retry_after)),
                Err(e) => Err(Failure::Io(e)),
            };
            println!("attempt {attempt} at {at} ms: {result:?}");
            result
        },
        classify,
    );
    // Bounded: the whole exchange takes about 5–6 s; a hung server cannot keep it longer.
    let status = tokio::time::timeout(Duration::from_secs(30), fetch).await??;
    assert_eq!(status, 200);
    // The first wait honoured Retry-After (3 s, above Google's 1–2 s); the second is 2–3 s.
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(5), "{took:?}");
    println!("HTTP {status} after {} ms", took.as_millis());
    Ok(())
}

#[test]
#[cfg_attr(miri, ignore = "Miri has no sockets")]
fn runs() {
    main().unwrap();
}
