//! The fault server (tests/faults/fault_server.py) as a child process, and a small HTTP/1.1 GET
//! client on Tokio's sockets that reports each fault as a typed failure: enough HTTP to tell a
//! reset from a stall from a truncated body, which is what the retry loops are tested on.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream as StdStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use seeded_backoff::http::RateLimitHeader;
use seeded_backoff::ServerHint;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The server process; dropping it closes its stdin, which stops it.
pub struct FaultServer {
    child: Child,
    stdin: Option<ChildStdin>,
    pub port: u16,
    pub refused_port: u16,
}

impl FaultServer {
    pub fn start() -> FaultServer {
        let mut child = Command::new("python3")
            .arg(format!("{REPO}/tests/faults/fault_server.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs tests/faults/fault_server.py");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let info: serde_json::Value = serde_json::from_str(&line).expect("the server's JSON line");
        FaultServer {
            stdin: child.stdin.take(),
            child,
            port: info["port"].as_u64().unwrap() as u16,
            refused_port: info["refused_port"].as_u64().unwrap() as u16,
        }
    }

    /// Connections the server holds besides the stats request, once the client's FINs have had
    /// up to a second to arrive.
    pub fn open_connections(&self) -> u64 {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let mut s = StdStream::connect(("127.0.0.1", self.port)).unwrap();
            s.write_all(b"GET /_stats HTTP/1.1\r\nHost: x\r\n\r\n")
                .unwrap();
            let mut text = String::new();
            s.read_to_string(&mut text).unwrap();
            let body = text.split("\r\n\r\n").nth(1).unwrap();
            let stats: serde_json::Value = serde_json::from_str(body).unwrap();
            let open = stats["open"].as_u64().unwrap() - 1;
            if open == 0 || Instant::now() > deadline {
                return open;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for FaultServer {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// Why an attempt failed.
#[derive(Debug)]
pub enum Failure {
    Connect(io::ErrorKind),
    Read(io::ErrorKind),
    /// The connection ended before the response did (no head, or a short body).
    Truncated,
    /// The attempt's timeout elapsed.
    Timeout,
    /// A response with a retryable status.
    Status(Response),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Connect(k) => write!(f, "connect: {k}"),
            Failure::Read(k) => write!(f, "read: {k}"),
            Failure::Truncated => write!(f, "truncated response"),
            Failure::Timeout => write!(f, "attempt timed out"),
            Failure::Status(r) => write!(f, "HTTP {}", r.status),
        }
    }
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        let found = self
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, v)| v.as_slice())
    }

    /// The core's reading of the headers (SPEC.md §8.3.1).
    pub fn hint(&self) -> Option<ServerHint> {
        let lookup = |h: RateLimitHeader| self.header(h.name());
        ServerHint::from_http_headers(self.status, self.header("retry-after"), lookup, 0)
    }
}

/// GET `target` on 127.0.0.1:`port`, bounded as a whole by `timeout`.
pub async fn attempt(port: u16, target: &str, timeout: Duration) -> Result<Response, Failure> {
    match tokio::time::timeout(timeout, get(port, target)).await {
        Ok(result) => result,
        Err(_) => Err(Failure::Timeout),
    }
}

async fn get(port: u16, target: &str) -> Result<Response, Failure> {
    let mut s = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| Failure::Connect(e.kind()))?;
    let request = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    s.write_all(request.as_bytes())
        .await
        .map_err(|e| Failure::Read(e.kind()))?;
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        fill(&mut s, &mut buf).await?;
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut body = buf.split_off(head_end + 4);
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok());
    let headers: Vec<(String, Vec<u8>)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().as_bytes().to_vec()))
        .collect();
    let response = Response {
        status: status.ok_or(Failure::Truncated)?,
        headers,
        body: Vec::new(),
    };
    if response.header("transfer-encoding") == Some(b"chunked") {
        let mut out = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = body.windows(2).position(|w| w == b"\r\n") {
                    break i;
                }
                fill(&mut s, &mut body).await?;
            };
            let size = std::str::from_utf8(&body[..line_end]).ok();
            let size = size.and_then(|t| usize::from_str_radix(t.trim(), 16).ok());
            let size = size.ok_or(Failure::Truncated)?;
            while body.len() < line_end + 2 + size + 2 {
                fill(&mut s, &mut body).await?;
            }
            out.extend_from_slice(&body[line_end + 2..line_end + 2 + size]);
            body.drain(..line_end + 2 + size + 2);
            if size == 0 {
                break;
            }
        }
        body = out;
    } else if let Some(len) = response.header("content-length") {
        let len: usize = std::str::from_utf8(len).unwrap().parse().unwrap();
        while body.len() < len {
            fill(&mut s, &mut body).await?;
        }
    }
    let response = Response { body, ..response };
    if seeded_backoff::http::is_retryable_http(response.status) {
        return Err(Failure::Status(response));
    }
    Ok(response)
}

/// Reads more bytes into `buf`; the end of the stream is a truncated response.
async fn fill(s: &mut TcpStream, buf: &mut Vec<u8>) -> Result<(), Failure> {
    let mut chunk = [0u8; 4096];
    match s.read(&mut chunk).await {
        Ok(0) => Err(Failure::Truncated),
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(())
        }
        Err(e) => Err(Failure::Read(e.kind())),
    }
}

/// The independent model's delays (tests/model/spec_model.py) for `retries` failures without
/// hints under Google jitter.
pub fn model_delays(
    initial_ms: u32,
    cap_ms: u32,
    jitter_ms: u32,
    seed: u64,
    retries: u32,
) -> Vec<u64> {
    let script = format!(
        "import spec_model as m\n\
         b = m.Backoff(m.make_policy(initial_ms={initial_ms}, max_backoff_ms={cap_ms}, jitter='google', \
         jitter_ms={jitter_ms}, max_retries={retries}), {seed})\n\
         print(' '.join(str(b.next().delay_ms) for _ in range({retries})))"
    );
    let out = Command::new("python3")
        .args(["-c", &script])
        .env("PYTHONPATH", format!("{REPO}/tests/model"))
        .output()
        .expect("python3 runs the model");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(|d| d.parse().unwrap())
        .collect()
}
