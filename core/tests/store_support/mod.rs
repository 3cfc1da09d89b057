//! A redis-server on 127.0.0.1 for one test: on a free port, without persistence, started and
//! stopped (killed on drop) by the test itself, every wait bounded.

#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use seeded_backoff::shared::{FleetClock, Store};

pub const REDIS_SERVER: &str = "/usr/bin/redis-server";

pub struct Server {
    pub port: u16,
    child: Option<Child>,
}

impl Server {
    /// A server on a port the system has free.
    pub fn start() -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = Server { port, child: None };
        server.restart();
        server
    }

    /// Starts the server again on the same port (after [`Server::kill`]): empty, as after a
    /// failover that lost the data.
    pub fn restart(&mut self) {
        let child = Command::new(REDIS_SERVER)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            // DEBUG SLEEP: a store that stops answering for a while, from 127.0.0.1 only.
            .args(["--enable-debug-command", "local"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < until,
                "redis-server did not listen in 10 s"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Kills the server at once (SIGKILL) and waits for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// A store on this server reading the caller's clock, with a wide bound: a loaded test
    /// machine must not turn a slow reply into a decision made alone where a test counts on the
    /// store.
    pub fn store(&self) -> Store {
        Store::open(&self.url())
            .unwrap()
            .clock(FleetClock::Caller)
            .bound(Duration::from_secs(5))
    }

    /// Runs a command with redis-cli (FLUSHALL, DEL) and returns its output.
    pub fn command(&self, args: &[&str]) -> String {
        let out = Command::new("/usr/bin/redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(args)
            .output()
            .expect("redis-cli runs");
        assert!(out.status.success(), "redis-cli {args:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
