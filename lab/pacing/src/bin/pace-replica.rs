//! A replica of the fleet pacing test (lab/fleet-pacing.sh): a server on 127.0.0.1 in front of
//! one database of fixed capacity (lab/pacing's server with `--answer bare` at `--db`, which
//! serves 100 requests in each second and answers 429 above). Every request is passed on to the
//! database over a connection of its own client's (opened at `/__warm`), its status answered,
//! and every 429 paced by the core's `PaceLayer`: over one `SharedPacer` that all replicas keep
//! in the Valkey at `--store` under `--key` (one schedule for the fleet), or over a pacer of the
//! replica's own when `--store` is absent. The pacer's capacity is `--capacity`.
//!
//! As lab/pacing's server: it prints `listening PORT` once bound (and, sharing, once joined to the
//! store), `GET /__start/MS` (Unix ms) starts its clock, and `GET /__end` prints
//! `stats decisions=N alone=N conflicts=N` (the shared pacer's, zero for an own one) and exits. It
//! exits by itself after `--max-s` seconds.
//!
//! ```text
//! pace-replica --db 4100 --capacity 100 --seed 1 --store redis://127.0.0.1:6379/ --key sb:pacer:lab
//! ```

use std::convert::Infallible;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use seeded_backoff::shared::{PaceSource, SharedPacer, Store};
use seeded_backoff::{
    pacer::{Pacer, PacerSlot},
    tower::PaceLayer,
};
use tower::{Layer, ServiceExt};

#[path = "../link.rs"]
mod link;
use link::{unix_ms, Link};

const USAGE: &str = "pace-replica --db PORT [--capacity 100] [--reserve-per-mille 60] [--seed 1] \
 [--store redis://HOST:PORT/ --key KEY] [--port 0] [--max-s 300]";

/// What the replica's refusals are paced by.
enum Source {
    /// A pacer of its own, as a replica that knows nothing of the others.
    Own(Mutex<Pacer>),
    /// The fleet's one schedule (boxed: the link is some 350 bytes).
    Fleet(Box<SharedPacer>),
}

impl PaceSource for Source {
    fn assign(&self, now_ms: u64) -> PacerSlot {
        match self {
            Source::Own(pacer) => pacer.assign(now_ms),
            Source::Fleet(pacer) => pacer.assign(now_ms),
        }
    }
}

type Body = Full<Bytes>;

#[derive(Clone)]
struct Replica {
    db: u16,
    source: Arc<Source>,
    /// The pace layer, made (its clock started) at `/__start/`'s time or the first request.
    clock: Arc<OnceLock<PaceLayer<Source>>>,
}

impl Replica {
    fn clock_now(&self) -> &PaceLayer<Source> {
        self.clock
            .get_or_init(|| PaceLayer::over(Arc::clone(&self.source)))
    }

    fn start(&self, at_ms: u64) -> Response<Body> {
        let replica = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(at_ms.saturating_sub(unix_ms()))).await;
            replica.clock_now();
        });
        text(200, "starting\n")
    }

    fn end(&self) -> Response<Body> {
        let stats = match &*self.source {
            Source::Fleet(pacer) => pacer.stats(),
            Source::Own(_) => Default::default(),
        };
        println!(
            "stats decisions={} alone={} conflicts={}",
            stats.decisions, stats.alone, stats.conflicts
        );
        let _ = std::io::stdout().flush();
        tokio::spawn(async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            std::process::exit(0);
        });
        text(200, "ending\n")
    }
}

fn text(status: u16, body: &'static str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
    *r.status_mut() = http::StatusCode::from_u16(status).unwrap_or_default();
    r
}

/// The database's answer to `path` on this connection's link, as this replica's.
async fn forward(db: &tokio::sync::Mutex<Link>, path: &str) -> Response<Body> {
    match db.lock().await.get(path).await {
        Ok(head) if head.status == http::StatusCode::OK => text(200, "ok\n"),
        Ok(head) => {
            let mut r = text(429, "busy\n");
            *r.status_mut() = head.status;
            r
        }
        Err(e) => {
            eprintln!("pace-replica: the database: {e}");
            text(502, "no database\n")
        }
    }
}

/// Serves one client connection, with a database connection of its own.
fn serve(stream: tokio::net::TcpStream, replica: Replica) {
    let _ = stream.set_nodelay(true);
    let db = Arc::new(tokio::sync::Mutex::new(Link::new(replica.db)));
    let inner = tower::service_fn(move |path: String| {
        let db = Arc::clone(&db);
        async move { Ok::<_, Infallible>(forward(&db, &path).await) }
    });
    let hyper_service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let path = req.uri().path().to_owned();
        let (replica, inner) = (replica.clone(), inner.clone());
        async move {
            if let Some(at) = path.strip_prefix("/__start/") {
                return Ok(match at.parse() {
                    Ok(at_ms) => replica.start(at_ms),
                    Err(_) => text(400, "/__start/ takes Unix ms\n"),
                });
            }
            match path.as_str() {
                "/__end" => Ok(replica.end()),
                // The database's connection opens with the client's.
                "/__warm" => inner.oneshot(path).await,
                _ => replica.clock_now().layer(inner).oneshot(path).await,
            }
        }
    });
    tokio::spawn(async move {
        let _ = http1::Builder::new()
            .serve_connection(TokioIo::new(stream), hyper_service)
            .await;
    });
}

/// The replica's pace source from its flags.
fn source(flags: &std::collections::HashMap<String, String>) -> Result<Source, String> {
    let capacity = link::number(flags, "--capacity", Some(100))?;
    let reserve = link::number(flags, "--reserve-per-mille", Some(60))?;
    let seed = link::number(flags, "--seed", Some(1))?;
    let pacer = Pacer::new(capacity, reserve, 600, seed).map_err(|e| e.to_string())?;
    match (flags.get("--store"), flags.get("--key")) {
        (None, None) => Ok(Source::Own(Mutex::new(pacer))),
        (Some(url), Some(key)) => {
            let store = Store::open(url).map_err(|e| format!("--store: {e}"))?;
            Ok(Source::Fleet(Box::new(SharedPacer::new(
                &store,
                key.as_str(),
                pacer,
            ))))
        }
        _ => Err(String::from("--store and --key go together")),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let known = [
        "--db",
        "--capacity",
        "--reserve-per-mille",
        "--seed",
        "--store",
        "--key",
        "--port",
        "--max-s",
    ];
    let parsed = link::flags(std::env::args().skip(1), &known).and_then(|flags| {
        let db: u16 = link::number(&flags, "--db", None)?;
        let port: u16 = link::number(&flags, "--port", Some(0))?;
        let max_s: u64 = link::number(&flags, "--max-s", Some(300))?;
        Ok((db, port, max_s, source(&flags)?))
    });
    let (db, port, max_s, source) = parsed.unwrap_or_else(|e| {
        eprintln!("pace-replica: {e}\nusage: {USAGE}");
        std::process::exit(2);
    });
    if let Source::Fleet(pacer) = &source {
        // Joined before the clients come, as a replica that has been running is.
        pacer.pending(0);
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap_or_else(|e| {
            eprintln!("pace-replica: cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        });
    println!(
        "listening {}",
        listener.local_addr().map_or(0, |a| a.port())
    );
    let _ = std::io::stdout().flush();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(max_s)).await;
        eprintln!("pace-replica: no /__end after {max_s} s; exiting");
        std::process::exit(3);
    });
    let replica = Replica {
        db,
        source: Arc::new(source),
        clock: Arc::new(OnceLock::new()),
    };
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        serve(stream, replica.clone());
    }
}
