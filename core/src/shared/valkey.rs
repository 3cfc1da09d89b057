//! What the `valkey` feature adds: the I/O of [`StoreLink`](super::StoreLink) over the `redis`
//! crate, and the three shared parts built on it.
//!
//! The traits the loops take a budget and a send rate by ([`RetryGate`](crate::budget::RetryGate),
//! [`SendGate`](crate::run::SendGate)) are synchronous, since the core's run asks them in the middle of
//! a transition. So a shared part asks the store synchronously and waits at most the bound
//! ([`STORE_BOUND_MS`](super::STORE_BOUND_MS)) for it, then decides from its own state: the
//! store's I/O runs on a thread of its own (one current-thread Tokio runtime and one
//! `ConnectionManager` per [`Store`]), so a caller on any runtime, or none, never waits on a task
//! its own wait would starve, and one stuck store never holds a caller past the bound.

extern crate std;

use core::time::Duration;
use std::string::String;
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;
use std::vec::Vec;

use super::{Exchange, FleetClock, Reply, SharedPart, Step, StoreLink, CAS_SCRIPT, STORE_BOUND_MS};

mod parts;
pub use parts::{SharedBudget, SharedPacer, SharedSendRate};

/// The spread of the wait after a conflict, per conflict of the decision: about a round trip
/// to a store on the same network.
const CONFLICT_SPREAD: Duration = Duration::from_micros(200);

/// How long the I/O thread waits for a connection or a reply before it calls the store failed.
const IO_LIMIT: Duration = Duration::from_secs(2);

/// Why a round trip gave no answer: the store did not answer within the bound, or it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    Late,
    Error,
}

/// What the script answered.
struct Answer {
    set: bool,
    value: Option<Vec<u8>>,
    time_ms: u64,
}

/// One script call for the I/O thread: the key, the expected and new values (none to read), and
/// where to send the answer (`None`: the store failed).
struct Job {
    key: String,
    swap: Option<(Vec<u8>, Vec<u8>)>,
    reply: mpsc::SyncSender<Option<Answer>>,
}

/// A connection to a Valkey or Redis server shared by any number of parts and clones: an I/O
/// thread, with the bound a decision waits for it and the clock decisions read.
///
/// ```no_run
/// use seeded_backoff::shared::{SharedSendRate, Store};
/// use seeded_backoff::send_rate::SendRateConfig;
/// let store = Store::open("redis://127.0.0.1:6379/").unwrap();
/// let rate = SharedSendRate::new(&store, "sb:send-rate:api.example.com", SendRateConfig::DEFAULT).unwrap();
/// # let _ = rate;
/// ```
#[derive(Clone, Debug)]
pub struct Store {
    jobs: tokio::sync::mpsc::UnboundedSender<Job>,
    bound: Duration,
    clock: FleetClock,
    origin: Instant,
}

impl core::fmt::Debug for Job {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Job").field("key", &self.key).finish()
    }
}

impl Store {
    /// A store at `url` (`redis://host:port/db`), read with the store's clock and waited for at
    /// most [`STORE_BOUND_MS`]. Nothing is sent yet: the connection is made by the first
    /// decision, and remade after a failure; the URL's error, if it is no URL of the crate.
    pub fn open(url: &str) -> Result<Store, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let (jobs, mut queue) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let bound = Duration::from_millis(STORE_BOUND_MS.into());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(redis::RedisError::from)?;
        std::thread::Builder::new()
            .name(String::from("seeded-backoff-store"))
            .spawn(move || {
                runtime.block_on(async move {
                    // A caller stops waiting at the bound and tells a late reply from a failure
                    // (SPEC.md §19.5), so the connection's own limits are far beyond it: a reply
                    // that comes at 60 ms is late, not an error that would make the process
                    // local for a second.
                    let config = redis::aio::ConnectionManagerConfig::new()
                        .set_connection_timeout(Some(IO_LIMIT))
                        .set_response_timeout(Some(IO_LIMIT))
                        .set_number_of_retries(1)
                        .set_max_delay(Duration::from_millis(100));
                    let Ok(manager) =
                        redis::aio::ConnectionManager::new_lazy_with_config(client, config)
                    else {
                        return;
                    };
                    let script = redis::Script::new(CAS_SCRIPT);
                    while let Some(job) = queue.recv().await {
                        let (mut con, script) = (manager.clone(), script.clone());
                        tokio::spawn(async move {
                            let mut call = script.key(&job.key);
                            if let Some((expected, new)) = &job.swap {
                                call.arg(expected.as_slice()).arg(new.as_slice());
                            }
                            let answer = call
                                .invoke_async::<(i64, Option<Vec<u8>>, u64)>(&mut con)
                                .await
                                .ok()
                                .map(|(set, value, time_ms)| Answer {
                                    set: set == 1,
                                    value,
                                    time_ms,
                                });
                            // The caller may have stopped waiting: its decision is made.
                            let _ = job.reply.try_send(answer);
                        });
                    }
                });
            })
            .map_err(redis::RedisError::from)?;
        Ok(Store {
            jobs,
            bound,
            clock: FleetClock::Store,
            origin: Instant::now(),
        })
    }

    /// The same store, with decisions reading `clock` ([`FleetClock::Caller`]: the readings the
    /// caller gives, as a test's virtual clock).
    pub fn clock(mut self, clock: FleetClock) -> Store {
        self.clock = clock;
        self
    }

    /// The same store, with decisions waiting at most `bound` for it (all round trips included).
    pub fn bound(mut self, bound: Duration) -> Store {
        self.bound = bound;
        self
    }

    /// Milliseconds since the store was opened: the caller's clock of a part that is given none
    /// (a budget).
    fn now_ms(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Runs the script until `deadline`: its answer, or why there is none.
    fn call(
        &self,
        key: &str,
        swap: Option<(Vec<u8>, Vec<u8>)>,
        deadline: Instant,
    ) -> Result<Answer, Failure> {
        let (reply, answer) = mpsc::sync_channel(1);
        let job = Job {
            key: String::from(key),
            swap,
            reply,
        };
        self.jobs.send(job).map_err(|_| Failure::Error)?;
        match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Some(answer)) => Ok(answer),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(Failure::Late),
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => Err(Failure::Error),
        }
    }
}

/// What a shared part's decisions cost so far: a part's figures for a dashboard or a test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StoreStats {
    /// Decisions made.
    pub decisions: u64,
    /// Of those, decisions made from the process's own state (the store failed, was slow, held a
    /// value of another configuration, or conflicted [`MAX_TRIES`](super::MAX_TRIES) times).
    pub alone: u64,
    /// Conflicts met, each one decision made again.
    pub conflicts: u64,
    /// Round trips the store did not answer within the bound.
    pub late: u64,
    /// Round trips the store failed (an error, a lost connection).
    pub failed: u64,
}

/// A part kept under one key: its link, behind a lock held only between round trips, and the
/// turn at the store. One decision of the process goes to the store at a time: decisions of one
/// process taken together would only conflict with each other, each costing the others a round
/// trip; in turn, each finds the value the one before wrote.
#[derive(Debug)]
struct Shared<P: SharedPart> {
    store: Store,
    key: String,
    link: Mutex<StoreLink<P>>,
    stats: Mutex<StoreStats>,
    busy: Mutex<bool>,
    free: Condvar,
    /// The state of the draws that spread retries after a conflict.
    jitter: Mutex<u64>,
}

/// A seed for the conflict spread that differs per process and part: the key, the process id
/// and the time, hashed by the standard library's randomly keyed hasher.
fn seed_of(key: &str) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one((
        key,
        std::process::id(),
        Instant::now(),
    )) | 1
}

/// A decision's turn at the store, given back when dropped.
struct Turn<'a>(&'a Mutex<bool>, &'a Condvar);

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = false;
        self.1.notify_one();
    }
}

impl<P: SharedPart> Shared<P> {
    fn new(store: &Store, key: String, fresh: P) -> Self {
        Shared {
            link: Mutex::new(StoreLink::new(fresh, store.clock)),
            stats: Mutex::new(StoreStats::default()),
            busy: Mutex::new(false),
            free: Condvar::new(),
            jitter: Mutex::new(seed_of(&key)),
            store: store.clone(),
            key,
        }
    }

    /// The link. A poisoned lock is taken all the same: no step of the link can panic.
    fn lock(&self) -> MutexGuard<'_, StoreLink<P>> {
        self.link.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for the turn at the store until `deadline`; `None` if it did not come.
    fn turn(&self, deadline: Instant) -> Option<Turn<'_>> {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        while *busy {
            let left = deadline.checked_duration_since(Instant::now())?;
            busy = self
                .free
                .wait_timeout(busy, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *busy = true;
        Some(Turn(&self.busy, &self.free))
    }

    fn stats(&self) -> StoreStats {
        *self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The answer of `op` (the part's own method, at the fleet clock's reading it is given),
    /// decided through the store when it answers within the bound, else from the process's own
    /// state.
    fn decide<T>(&self, caller_ms: u64, mut op: impl FnMut(&mut P, u64) -> T) -> T {
        let deadline = Instant::now() + self.store.bound;
        let mut ex = Exchange::default();
        let needs_store = Exchange::needs_store(&self.lock(), caller_ms);
        let turn = if needs_store {
            self.turn(deadline)
        } else {
            None
        };
        let mut step = if needs_store && turn.is_none() {
            ex.begin_alone(&mut self.lock(), caller_ms)
        } else {
            ex.begin(&mut self.lock(), caller_ms)
        };
        let mut out = None;
        loop {
            step = match step {
                Step::Done { stored } => {
                    let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
                    stats.decisions += 1;
                    stats.alone += u64::from(!stored);
                    stats.conflicts += u64::from(ex.conflicts());
                    break;
                }
                Step::Decide { mut state, now_ms } => {
                    out = Some(op(&mut state, now_ms));
                    ex.decided(&mut self.lock(), state)
                }
                Step::Read => {
                    let answer = self.store.call(&self.key, None, deadline);
                    self.reply(&mut ex, answer, true)
                }
                Step::CompareAndSet { expected, new } => {
                    if ex.conflicts() > 0 {
                        self.back_off(ex.conflicts(), deadline);
                    }
                    let expected = expected.map_or(Vec::new(), |v| v.as_ref().to_vec());
                    let swap = Some((expected, new.as_ref().to_vec()));
                    let answer = self.store.call(&self.key, swap, deadline);
                    self.reply(&mut ex, answer, false)
                }
            };
        }
        match out {
            Some(out) => out,
            // Every exchange decides before it is done; this only keeps the path panic-free.
            None => {
                let link = self.lock();
                op(&mut link.local().clone(), link.fleet_ms(caller_ms))
            }
        }
    }

    /// After the `conflicts`-th conflict of a decision, waits a random time up to `conflicts`
    /// times [`CONFLICT_SPREAD`] (at most 8 times, and never past `deadline`): processes that
    /// conflicted together would otherwise write again together and conflict again, each try a
    /// round trip that all but one of them lose.
    fn back_off(&self, conflicts: u32, deadline: Instant) {
        let mut x = self.jitter.lock().unwrap_or_else(PoisonError::into_inner);
        // xorshift64: the spread needs no quality, only a different draw per process and call.
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let span = CONFLICT_SPREAD.as_micros() as u64 * u64::from(conflicts.min(8));
        let wait = Duration::from_micros(*x % span.max(1));
        drop(x);
        let left = deadline.saturating_duration_since(Instant::now());
        std::thread::sleep(wait.min(left));
    }

    /// Feeds the script's answer to a read (`read`) or a compare-and-set to the exchange.
    fn reply(&self, ex: &mut Exchange<P>, answer: Result<Answer, Failure>, read: bool) -> Step<P> {
        if let Err(why) = answer {
            let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
            stats.late += u64::from(why == Failure::Late);
            stats.failed += u64::from(why == Failure::Error);
        }
        let mut link = self.lock();
        match answer {
            Err(Failure::Late) => ex.timed_out(&mut link),
            Err(Failure::Error) => ex.failed(&mut link),
            Ok(Answer {
                set: true, time_ms, ..
            }) => ex.replied(&mut link, Reply::Set { time_ms }),
            Ok(Answer { value, time_ms, .. }) => {
                let value = value.as_deref();
                let reply = if read {
                    Reply::Value { value, time_ms }
                } else {
                    Reply::Conflict { value, time_ms }
                };
                ex.replied(&mut link, reply)
            }
        }
    }
}
