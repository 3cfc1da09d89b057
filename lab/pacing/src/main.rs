//! The server of the pacing test (lab/pacing.sh): on 127.0.0.1 it serves `capacity`
//! requests in each second of its clock and answers the rest 429, as the simulator's `shed` server
//! does, and logs every request. What a 429 carries is the `--answer`:
//! - `paced`: the service sits behind the core's `PaceLayer`, which gives each 429 its own return
//!   second from a `Pacer` of the same capacity (SPEC.md §16);
//! - `constant`: `Retry-After: 1` on every 429;
//! - `bare`: no `Retry-After`.
//!
//! The clients open their connections first (`GET /__warm`), then the test starts the clock with
//! `GET /__start/MS` (Unix ms, the moment the clients are told to start), so that the server's
//! seconds are the simulator's. The server prints `listening PORT` once bound, and on `GET /__end`
//! writes its log (`ms status path`, one line per request, ms on its clock) and exits. It exits by
//! itself after `--max-s` seconds, so a test that dies leaves no server behind.
//!
//! ```text
//! seeded-backoff-pace-server --answer paced --capacity 100 --reserve-per-mille 60 --seed 1 \
//!     --log /tmp/paced.log --max-s 120
//! ```

use std::convert::Infallible;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use seeded_backoff::pacer::Pacer;
use seeded_backoff::tower::PaceLayer;
use tower::{Layer, Service, ServiceExt};

mod args;
use args::{Answer, Args};

/// The admission window and the log, shared by every connection.
struct State {
    /// The second of the server's clock the count is for, and requests served in it.
    second: u64,
    served: u32,
    log: Vec<u8>,
    requests: u64,
}

/// What every request sees: the window, the clock (the pace layer's, so that the pacer's seconds
/// and the window's are one, set when the clock starts), the capacity and the answer.
#[derive(Clone)]
struct Shed {
    state: Arc<Mutex<State>>,
    clock: Arc<OnceLock<PaceLayer>>,
    /// The pacer the clock starts with.
    pacer: Pacer,
    capacity: u32,
    answer: Answer,
    log_path: Arc<str>,
}

type Body = Full<Bytes>;

impl Shed {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Serves the request if its second has room, else a 429 with this server's answer (the pace
    /// layer, when there is one, then sets its own headers on it).
    fn admit(&self, clock: &PaceLayer, path: &str) -> Response<Body> {
        let now_ms = clock.now_ms();
        let second = now_ms / 1000;
        let served = {
            let mut s = self.lock();
            if s.second != second {
                s.second = second;
                s.served = 0;
            }
            let served = s.served < self.capacity;
            if served {
                s.served += 1;
            }
            s.requests += 1;
            let status = if served { 200 } else { 429 };
            let _ = writeln!(s.log, "{now_ms} {status} {path}");
            served
        };
        let mut response = Response::builder();
        if !served {
            response = response.status(429);
            if self.answer == Answer::Constant {
                response = response.header("retry-after", "1");
            }
        }
        response
            .body(Full::new(Bytes::from_static(if served {
                b"ok\n"
            } else {
                b"busy\n"
            })))
            .unwrap_or_default()
    }

    /// Starts the clock (and the pace layer's pacer with it) at `at_ms`, Unix ms: once.
    fn start(&self, at_ms: u64) -> Response<Body> {
        let shed = self.clone();
        tokio::spawn(async move {
            let wait = at_ms.saturating_sub(unix_ms());
            tokio::time::sleep(Duration::from_millis(wait)).await;
            shed.clock_now();
        });
        Response::new(Full::new(Bytes::from_static(b"starting\n")))
    }

    /// The clock, started now if it has not been: by `/__start/`'s time, or by a request that
    /// arrives before it (a client whose clock runs a little ahead of the server's timer).
    fn clock_now(&self) -> &PaceLayer {
        self.clock
            .get_or_init(|| PaceLayer::new(self.pacer.clone()))
    }

    /// Writes the log and ends the process shortly after this response has gone out.
    fn end(&self) -> Response<Body> {
        let requests = self.write_log();
        tokio::spawn(async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            std::process::exit(0);
        });
        Response::new(Full::new(Bytes::from(format!("{requests}\n"))))
    }

    fn write_log(&self) -> u64 {
        let s = self.lock();
        if let Err(e) = std::fs::write(&*self.log_path, &s.log) {
            eprintln!("pace-server: cannot write {}: {e}", self.log_path);
            std::process::exit(1);
        }
        s.requests
    }
}

/// The service behind the layer: `/__warm` opens a connection before the clock starts and
/// `/__start/MS` starts it (neither is logged), `/__end` ends the run, anything else is admitted or
/// refused.
fn handle(shed: &Shed, req: &Request<Incoming>) -> Response<Body> {
    let text = |status: u16, body: &'static str| {
        let mut r = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
        *r.status_mut() = http::StatusCode::from_u16(status).unwrap_or_default();
        r
    };
    let path = req.uri().path();
    if let Some(at) = path.strip_prefix("/__start/") {
        return match at.parse() {
            Ok(at_ms) => shed.start(at_ms),
            Err(_) => text(400, "/__start/ takes Unix ms\n"),
        };
    }
    match path {
        "/__warm" => text(200, "warm\n"),
        "/__end" => shed.end(),
        path => shed.admit(shed.clock_now(), path),
    }
}

/// Serves one connection (kept alive, as a fleet's are): each request through `inner`, behind the
/// pace layer once the clock has started if the answer is `paced`.
fn serve<S>(stream: tokio::net::TcpStream, shed: Shed, inner: S)
where
    S: Service<Request<Incoming>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let _ = stream.set_nodelay(true);
    let hyper_service = hyper::service::service_fn(move |req| {
        let inner = inner.clone();
        let paced_path = !req.uri().path().starts_with("/__");
        let layer = (shed.answer == Answer::Paced && paced_path).then(|| shed.clock_now());
        let paced = layer.map(|l| l.layer(inner.clone()));
        async move {
            match paced {
                Some(service) => service.oneshot(req).await,
                None => inner.oneshot(req).await,
            }
        }
    });
    tokio::spawn(async move {
        // A client that hangs up mid-request ends its connection only.
        let _ = http1::Builder::new()
            .serve_connection(TokioIo::new(stream), hyper_service)
            .await;
    });
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("pace-server: {e}\nusage: {}", args::USAGE);
            std::process::exit(2);
        }
    };
    let pacer = match Pacer::new(args.capacity, args.reserve_per_mille, 600, args.seed) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pace-server: {e}");
            std::process::exit(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("pace-server: cannot listen on 127.0.0.1:{}: {e}", args.port);
            std::process::exit(1);
        }
    };
    let port = listener.local_addr().map_or(0, |a| a.port());
    println!("listening {port}");
    let _ = std::io::stdout().flush();
    let shed = Shed {
        state: Arc::new(Mutex::new(State {
            second: 0,
            served: 0,
            log: Vec::with_capacity(1 << 20),
            requests: 0,
        })),
        clock: Arc::new(OnceLock::new()),
        pacer,
        capacity: args.capacity,
        answer: args.answer,
        log_path: args.log.into(),
    };
    let limit = shed.clone();
    let max_s = args.max_s;
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(max_s)).await;
        limit.write_log();
        eprintln!("pace-server: no /__end after {max_s} s; log written, exiting");
        std::process::exit(3);
    });
    let inner = {
        let shed = shed.clone();
        tower::service_fn(move |req: Request<Incoming>| {
            let response = handle(&shed, &req);
            async move { Ok::<_, Infallible>(response) }
        })
    };
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of descriptors, say: the clients retry their connection.
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        serve(stream, shed.clone(), inner.clone());
    }
}
