//! What the fleet pacing test's replica and clients share: one kept-alive HTTP/1.1 connection to
//! a server on 127.0.0.1, opened again after an error, `--flag value` pairs read into a map, and
//! the Unix clock the start is given in.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;

/// A response's status and headers (its body read to the end and dropped).
pub type Head = http::response::Parts;

/// One connection to `127.0.0.1:port`, as a client of a fleet keeps it: requests go one after the
/// other, and a connection that failed is opened again for the next.
pub struct Link {
    port: u16,
    sender: Option<SendRequest<Empty<Bytes>>>,
}

impl Link {
    pub fn new(port: u16) -> Self {
        Link { port, sender: None }
    }

    /// `GET path`: the response's head, or why there is none. A kept-alive connection the server
    /// closed is opened again and the request sent once more on the new one.
    pub async fn get(&mut self, path: &str) -> Result<Head, String> {
        let reused = self.sender.is_some();
        match self.try_get(path).await {
            Err(_) if reused => {
                self.sender = None;
                self.try_get(path).await
            }
            other => other,
        }
    }

    async fn try_get(&mut self, path: &str) -> Result<Head, String> {
        let sender = match &mut self.sender {
            Some(s) => s,
            None => {
                let stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                    .await
                    .map_err(|e| format!("connect to 127.0.0.1:{}: {e}", self.port))?;
                let _ = stream.set_nodelay(true);
                let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .map_err(|e| format!("handshake: {e}"))?;
                tokio::spawn(conn);
                self.sender.insert(sender)
            }
        };
        let request = http::Request::get(path)
            .header("host", "127.0.0.1")
            .body(Empty::new())
            .map_err(|e| format!("request {path}: {e}"))?;
        let result = async {
            let response = sender.send_request(request).await?;
            let (head, body) = response.into_parts();
            body.collect().await?;
            Ok::<_, hyper::Error>(head)
        }
        .await;
        result.map_err(|e| {
            self.sender = None;
            format!("GET {path}: {e}")
        })
    }
}

/// `--flag value` pairs, each flag once and among `known`: the map, or the error to print.
pub fn flags(
    args: impl Iterator<Item = String>,
    known: &[&str],
) -> Result<HashMap<String, String>, String> {
    let mut out = HashMap::new();
    let mut args = args;
    while let Some(flag) = args.next() {
        if !known.contains(&flag.as_str()) {
            return Err(format!("unknown flag {flag:?}"));
        }
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        if out.insert(flag.clone(), value).is_some() {
            return Err(format!("{flag} is given twice"));
        }
    }
    Ok(out)
}

/// The number under `flag`, `default` when absent; the error names the flag.
pub fn number<T: std::str::FromStr>(
    flags: &HashMap<String, String>,
    flag: &str,
    default: Option<T>,
) -> Result<T, String> {
    match flags.get(flag) {
        None => default.ok_or(format!("{flag} is required")),
        Some(v) => v
            .parse()
            .map_err(|_| format!("{flag}: {v:?} is no number in its range")),
    }
}

/// Milliseconds of Unix time: the start every process of the test is told.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
