//! A retry loop for any runtime, or none: the caller brings the sleep (any future), the clock and
//! the budget; the loop brings the policy's decisions (SPEC.md §5). `no_std`, no allocation.

use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use core::time::Duration;

use crate::backoff::{Backoff, GiveUpReason};
use crate::budget::{FailureKind, RetryGate};
use crate::policy::Policy;
use crate::retry_event::RetryEvent;
use crate::retry_rate::{LoopSendRate, NoSendRate, NotSent};
use crate::run::{Action, Outcome, Run, RunError, SendGate};
use crate::send_rate::Answer;

mod verdict;
pub use verdict::{RetryError, Verdict};

pub use crate::retry_event::{NoCallback, OnRetry};

/// The budget of a [`Retry`] without one: it never refuses. A zero-sized, `Sync` stand-in, so a
/// loop without a budget stays `Send`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoBudget;

impl RetryGate for NoBudget {
    fn record_failure(&self, _kind: FailureKind) {}
    fn try_acquire(&self, _kind: FailureKind) -> bool {
        true
    }
    fn record_success(&self, _retried: Option<FailureKind>) {}
}

/// One request's retry loop: a policy, its [`Run`] (the core's state machine of the run, which
/// decides everything; this loop only calls, sleeps and reads the clock), and optionally a monotonic
/// clock (so time spent in attempts counts against `max_elapsed_ms`), a shared retry budget and a
/// callback told of each retry ([`Retry::on_retry`]).
///
/// Attempts are numbered from 1: `op(1)` is the first attempt.
///
/// Run it with [`Retry::run`] (async, any runtime: pass its sleep) or [`Retry::run_blocking`].
/// Dropping the future of `run` stops the loop: no further attempt is made.
///
/// ```
/// use std::cell::Cell;
/// use core::time::Duration;
/// use seeded_backoff::budget::RetryBudget;
/// use seeded_backoff::{Jitter, Policy, Retry};
///
/// let policy = Policy::google().to_builder().jitter(Jitter::None).build().unwrap();
/// let budget = RetryBudget::grpc(10, 100).unwrap();
/// let now = Cell::new(0u64); // a virtual clock in ms: the sleeps advance it
/// let result = Retry::new(&policy, 7)
///     .budget(&budget)
///     .clock(|| now.get())
///     .run_blocking(
///         |d: Duration| now.set(now.get() + d.as_millis() as u64),
///         |attempt| if attempt < 3 { Err("busy") } else { Ok(attempt) },
///         |_e| true,
///     );
/// assert_eq!(result, Ok(3));
/// assert_eq!(now.get(), 1000 + 2000);
/// ```
#[derive(Clone, Debug)]
pub struct Retry<'a, G = NoBudget, C = fn() -> u64, H = NoCallback, R = NoSendRate> {
    policy: &'a Policy,
    run: Run,
    budget: Option<&'a G>,
    clock: Option<C>,
    on_retry: H,
    send_rate: R,
}

impl<'a> Retry<'a> {
    /// A loop with a fresh [`Backoff`] seeded from `seed`, no clock and no budget.
    ///
    /// One `Retry` is one call, and `seed` is that call's seed: call 0 of a loop seeded `seed`
    /// (SPEC.md §14). Code that makes many calls from one seed takes each call's seed from a
    /// shared [`CallSeeds`](crate::CallSeeds) (`Retry::new(&policy, seeds.next_seed())`), so that
    /// calls made together retry apart and a run replays call for call.
    pub fn new(policy: &'a Policy, seed: u64) -> Self {
        Retry::from_run(policy, Run::new(policy, seed))
    }

    /// A loop continuing an existing state (e.g. one restored from a snapshot).
    pub fn from_backoff(policy: &'a Policy, backoff: Backoff) -> Self {
        Retry::from_run(policy, Run::from_backoff(backoff, 0))
    }

    /// A loop over a run not yet started.
    pub fn from_run(policy: &'a Policy, run: Run) -> Self {
        Retry {
            policy,
            run,
            budget: None,
            clock: None,
            on_retry: NoCallback,
            send_rate: NoSendRate,
        }
    }
}

impl<'a, G: RetryGate, C: FnMut() -> u64, H, R> Retry<'a, G, C, H, R> {
    /// Shares a retry budget ([`RetryBudget`](crate::budget::RetryBudget),
    /// [`AtomicRetryBudget`](crate::budget::AtomicRetryBudget) or your own [`RetryGate`]): each failure
    /// is recorded, each retry asks it, and the success is recorded.
    pub fn budget<G2: RetryGate>(self, budget: &'a G2) -> Retry<'a, G2, C, H, R> {
        Retry {
            policy: self.policy,
            run: self.run,
            budget: Some(budget),
            clock: self.clock,
            on_retry: self.on_retry,
            send_rate: self.send_rate,
        }
    }

    /// Shares a send rate ([`AtomicSendRate`](crate::send_rate::AtomicSendRate), a `Cell<SendRate>`, or
    /// your own [`SendGate`]): every attempt, the first included, waits for it (a wait spends no
    /// retry), and every answer is told to it (SPEC.md §15.2): the one the classifier's
    /// [`Verdict`] carries ([`Verdict::from_status`], [`Verdict::throttled`]), else the outcome's
    /// ([`answer_of`](crate::run::answer_of)). It needs [`Retry::clock`]. A loop
    /// stopped before its first attempt (a fail-fast refusal, a wait past `max_elapsed_ms`, no
    /// clock) has no error of its own, so its cause is made from [`NotSent`].
    ///
    /// ```
    /// use core::time::Duration;
    /// use std::cell::Cell;
    /// use seeded_backoff::send_rate::{Answer, NotSent, SendRate, SendRateConfig};
    /// use seeded_backoff::{GiveUpReason, Policy, Retry};
    ///
    /// #[derive(Debug, PartialEq)]
    /// enum Error { Busy, NotSent(NotSent) }
    /// impl From<NotSent> for Error { fn from(n: NotSent) -> Self { Error::NotSent(n) } }
    ///
    /// let config = SendRateConfig { fail_fast: true, ..SendRateConfig::DEFAULT };
    /// let rate = Cell::new(SendRate::new(config).unwrap());
    /// rate.set({ let mut r = rate.get(); r.on_answer(0, Answer::Throttled { hint_ms: 5_000 }); r });
    /// let policy = Policy::google();
    /// let result = Retry::new(&policy, 7)
    ///     .clock(|| 100)
    ///     .send_rate(&rate)
    ///     .run_blocking(|_: Duration| {}, |_| Err::<(), _>(Error::Busy), |_| true);
    /// let e = result.unwrap_err();
    /// assert_eq!((e.attempts, e.reason), (0, Some(GiveUpReason::Throttled)));
    /// assert_eq!(e.cause, Error::NotSent(NotSent::GaveUp(GiveUpReason::Throttled)));
    /// ```
    pub fn send_rate<S: SendGate>(self, rate: &'a S) -> Retry<'a, G, C, H, &'a S> {
        Retry {
            policy: self.policy,
            run: self.run,
            budget: self.budget,
            clock: self.clock,
            on_retry: self.on_retry,
            send_rate: rate,
        }
    }

    /// A monotonic clock in milliseconds (any origin): the time since the first attempt, attempts
    /// included, counts against the policy's `max_elapsed_ms`. Without it the sum of the delays
    /// stands in.
    pub fn clock<C2: FnMut() -> u64>(self, clock: C2) -> Retry<'a, G, C2, H, R> {
        Retry {
            policy: self.policy,
            run: self.run,
            budget: self.budget,
            clock: Some(clock),
            on_retry: self.on_retry,
            send_rate: self.send_rate,
        }
    }

    /// A callback told of each retry, before its sleep, with one [`RetryEvent`]: the number of
    /// the attempt that failed, the delay and the error.
    ///
    /// ```
    /// use core::time::Duration;
    /// use seeded_backoff::{Jitter, Policy, Retry, RetryEvent};
    ///
    /// let policy = Policy::google().to_builder().jitter(Jitter::None).build().unwrap();
    /// let mut told = Vec::new();
    /// let result = Retry::new(&policy, 7)
    ///     .on_retry(|e: RetryEvent<'_, &'static str>| told.push((e.attempt, e.delay_ms, *e.error)))
    ///     .run_blocking(
    ///         |_: Duration| {},
    ///         |attempt| if attempt < 3 { Err("busy") } else { Ok(attempt) },
    ///         |_e| true,
    ///     );
    /// assert_eq!(result, Ok(3));
    /// assert_eq!(told, [(1, 1000, "busy"), (2, 2000, "busy")]);
    /// ```
    ///
    /// [`RetryEvent`]: crate::RetryEvent
    pub fn on_retry<H2>(self, on_retry: H2) -> Retry<'a, G, C, H2, R> {
        Retry {
            policy: self.policy,
            run: self.run,
            budget: self.budget,
            clock: self.clock,
            on_retry,
            send_rate: self.send_rate,
        }
    }

    /// The per-request state as it is now.
    pub fn backoff(&self) -> &Backoff {
        self.run.backoff()
    }

    fn now(&mut self) -> Option<u64> {
        self.clock.as_mut().map(|clock| clock())
    }

    /// `wake`, behind the send rate if the loop has one.
    fn wake<E>(&mut self, now: Option<u64>) -> Result<Action, RunError>
    where
        R: LoopSendRate<E>,
    {
        match self.send_rate.gate() {
            Some(rate) => self.run.wake_paced(self.policy, now, rate),
            None => self.run.wake(now),
        }
    }

    /// `outcome`, its answer told to the send rate if the loop has one: the classifier's
    /// (`answer`, from its [`Verdict`]), else the outcome's own. The budget is borrowed here, not
    /// held by `run` across its awaits, so that the loop's future is `Send` (a `&dyn RetryGate` is
    /// not) and can be spawned on a multi-threaded runtime.
    fn outcome<E>(
        &mut self,
        outcome: Outcome,
        answer: Option<Answer>,
        now: Option<u64>,
    ) -> Result<Action, RunError>
    where
        R: LoopSendRate<E>,
    {
        let budget = self.budget.map(|b| b as &dyn RetryGate);
        match self.send_rate.gate() {
            Some(rate) => self
                .run
                .outcome_paced(self.policy, outcome, answer, now, budget, rate),
            None => self.run.outcome(self.policy, outcome, now, budget),
        }
    }

    /// Runs `op(attempt)` (attempt 1, 2, …) until it succeeds, awaiting `sleep(delay)` between
    /// attempts. `classify`
    /// turns each error into a [`Verdict`] (or a `bool`). Works with any executor: pass
    /// `tokio::time::sleep`, `async_io::Timer::after`, `embassy_time::Timer::after`, or a virtual
    /// clock's sleep in tests. Cancellation-safe: dropping the future stops the loop.
    pub async fn run<T, E, F, Fut, S, SFut, K, V>(
        mut self,
        mut sleep: S,
        mut op: F,
        mut classify: K,
    ) -> Result<T, RetryError<E>>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        S: FnMut(Duration) -> SFut,
        SFut: Future<Output = ()>,
        K: FnMut(&E) -> V,
        V: Into<Verdict>,
        H: OnRetry<E>,
        R: LoopSendRate<E>,
    {
        let now = self.now();
        let mut next = match self.send_rate.gate() {
            Some(rate) => self.run.start_paced(self.policy, now, rate),
            None => self.run.start(now),
        };
        // The last attempt's error: the cause of a give-up the send rate decides after it.
        let mut last: Option<E> = None;
        loop {
            // `start` and `wake` answer an attempt, a send rate's wait or its give-up; the
            // fallback keeps the loop free of a panicking path.
            let attempt = match next {
                Ok(Action::Attempt { attempt }) => attempt,
                Ok(Action::Wait { delay_ms }) => {
                    sleep(Duration::from_millis(delay_ms.into())).await;
                    let now = self.now();
                    next = self.wake(now);
                    continue;
                }
                Ok(Action::GiveUp { attempts, reason }) => {
                    let why = NotSent::GaveUp(reason.unwrap_or(GiveUpReason::Throttled));
                    match last.take().or_else(|| self.send_rate.not_sent(why)) {
                        Some(cause) => {
                            return Err(RetryError {
                                cause,
                                attempts,
                                reason,
                            })
                        }
                        None => self.run.attempts(),
                    }
                }
                Err(RunError::NoClock) => match self.send_rate.not_sent(NotSent::NoClock) {
                    Some(cause) => {
                        return Err(RetryError {
                            cause,
                            attempts: 0,
                            reason: None,
                        })
                    }
                    None => self.run.attempts(),
                },
                _ => self.run.attempts(),
            };
            let error = match op(attempt).await {
                Ok(value) => {
                    let now = self.now();
                    let _done = self.outcome(Outcome::Success, None, now);
                    return Ok(value);
                }
                Err(error) => error,
            };
            let verdict: Verdict = classify(&error).into();
            let now = self.now();
            match self.outcome(verdict.into(), verdict.answer(), now) {
                Ok(Action::Retry { attempt, delay_ms }) => {
                    self.on_retry.on_retry(RetryEvent {
                        attempt,
                        delay_ms,
                        error: &error,
                    });
                    sleep(Duration::from_millis(delay_ms.into())).await;
                    let now = self.now();
                    next = self.wake(now);
                    last = Some(error);
                }
                Ok(Action::GiveUp { attempts, reason }) => {
                    return Err(RetryError {
                        cause: error,
                        attempts,
                        reason,
                    })
                }
                _ => {
                    return Err(RetryError {
                        cause: error,
                        attempts: self.run.attempts(),
                        reason: None,
                    })
                }
            }
        }
    }

    /// [`Retry::run`] for synchronous code: `sleep` blocks (e.g. `std::thread::sleep`, or a
    /// firmware's delay loop) and `op` returns its result directly.
    pub fn run_blocking<T, E, F, S, K, V>(
        self,
        mut sleep: S,
        mut op: F,
        classify: K,
    ) -> Result<T, RetryError<E>>
    where
        F: FnMut(u32) -> Result<T, E>,
        S: FnMut(Duration),
        K: FnMut(&E) -> V,
        V: Into<Verdict>,
        H: OnRetry<E>,
        R: LoopSendRate<E>,
    {
        let future = self.run(
            |delay| {
                sleep(delay);
                core::future::ready(())
            },
            |attempt| core::future::ready(op(attempt)),
            classify,
        );
        // Every future inside is ready at once, so the first poll completes; the loop only keeps
        // the code free of a panicking path.
        let mut future = pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(result) = future.as_mut().poll(&mut cx) {
                return result;
            }
        }
    }
}

/// [`Retry::run`] with a fresh backoff, no clock and no budget: the loop most callers need. `seed`
/// is this call's (see [`Retry::new`]; for many calls, [`CallSeeds`](crate::CallSeeds)).
///
/// ```
/// # async fn demo() {
/// use seeded_backoff::{retry_async, Policy};
/// let policy = Policy::google();
/// let body = retry_async(
///     &policy,
///     0x5eed,
///     |d| async move { /* tokio::time::sleep(d).await */ let _ = d; },
///     |_attempt| async { Ok::<_, &str>("ok") },
///     |_e| true,
/// )
/// .await;
/// assert_eq!(body, Ok("ok"));
/// # }
/// ```
pub async fn retry_async<T, E, F, Fut, S, SFut, K, V>(
    policy: &Policy,
    seed: u64,
    sleep: S,
    op: F,
    classify: K,
) -> Result<T, RetryError<E>>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, E>>,
    S: FnMut(Duration) -> SFut,
    SFut: Future<Output = ()>,
    K: FnMut(&E) -> V,
    V: Into<Verdict>,
{
    Retry::new(policy, seed).run(sleep, op, classify).await
}
