//! What the `tower` feature adds: a `tower::retry::Policy` (tower 0.5) backed by a [`Policy`].

extern crate std;

use core::time::Duration;
use std::sync::Arc;

use crate::budget::{AtomicRetryBudget, RetryGate};
use crate::{Action, Backoff, CallSeeds, GiveUpReason, Outcome, Policy, Run, Verdict};

/// How a [`TowerPolicy`] makes the copy of a request that each retry sends.
pub trait CloneRequest<Req> {
    /// A copy to send again, or `None` if this request cannot be sent twice (then tower sends
    /// it once and returns its result).
    fn clone_request(&mut self, req: &Req) -> Option<Req>;
}

/// Copies a `Clone` request: the default of [`TowerPolicy::new`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByClone;

impl<Req: Clone> CloneRequest<Req> for ByClone {
    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        Some(req.clone())
    }
}

/// Any `FnMut(&Req) -> Option<Req>`, such as `reqwest::Request::try_clone` for a request that is
/// not `Clone`.
impl<Req, F: FnMut(&Req) -> Option<Req>> CloneRequest<Req> for F {
    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        self(req)
    }
}

/// What a [`TowerPolicy`] tells its give-up hook when a request's retries run out (the result
/// tower returns is the last attempt's, which the classifier still called retryable): `Clone`,
/// `Send`, `Sync` and `'static`, so a hook can put it in an `http::Response`'s extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RetriesExhausted {
    /// Attempts made, the first one included.
    pub attempts: u32,
    /// Why the run gave up.
    pub reason: GiveUpReason,
}

/// Told, with the result tower is about to return, that a request's retries ran out.
pub trait OnGiveUp<Res, E> {
    /// The request's last result (mutable: a hook may mark a response) and why it stopped.
    fn on_give_up(&mut self, result: &mut Result<Res, E>, exhausted: RetriesExhausted);
}

/// No give-up hook: the default of [`TowerPolicy::new`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoGiveUpHook;

impl<Res, E> OnGiveUp<Res, E> for NoGiveUpHook {
    fn on_give_up(&mut self, _result: &mut Result<Res, E>, _exhausted: RetriesExhausted) {}
}

/// A request whose retries ran out on a response, as the error [`TowerPolicy::give_up_as_error`]
/// turns it into: the caller matches on it rather than reading an `Ok(503)` as a success.
#[derive(Debug)]
pub struct GaveUp<Res> {
    /// The last response, which the classifier still called a retry. Always `Some` in the error
    /// the caller gets: the policy takes the response out of tower's result in two steps, and
    /// the first `From` conversion it makes (with `None`) is dropped.
    pub response: Option<Res>,
    /// Attempts made and why the run gave up.
    pub exhausted: RetriesExhausted,
}

/// The give-up hook of [`TowerPolicy::give_up_as_error`]: an `Ok` result whose retries ran out
/// becomes `Err(E::from(GaveUp { .. }))`; an `Err` result stays as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GiveUpAsError;

impl<Res, E: From<GaveUp<Res>>> OnGiveUp<Res, E> for GiveUpAsError {
    fn on_give_up(&mut self, result: &mut Result<Res, E>, exhausted: RetriesExhausted) {
        if result.is_err() {
            return;
        }
        let placeholder = Err(E::from(GaveUp {
            response: None,
            exhausted,
        }));
        if let Ok(response) = core::mem::replace(result, placeholder) {
            *result = Err(E::from(GaveUp {
                response: Some(response),
                exhausted,
            }));
        }
    }
}

impl<Res, E, F: FnMut(&mut Result<Res, E>, RetriesExhausted)> OnGiveUp<Res, E> for F {
    fn on_give_up(&mut self, result: &mut Result<Res, E>, exhausted: RetriesExhausted) {
        self(result, exhausted)
    }
}

/// A `tower::retry::Policy` for `tower::retry::Retry` (or `ServiceBuilder::retry`): each request
/// gets its own [`Run`] (which decides every retry, as in every other loop), optionally all share an [`AtomicRetryBudget`], and `classify` decides
/// from the whole result, so a `503` response can be retried as well as an error.
///
/// Tower clones the policy for every request, and each clone starts its own run when the request's
/// first attempt ends, seeded from a [`CallSeeds`] the clones share: request `i` to get there runs
/// with [`call_seed`](crate::call_seed)`(seed, i)` (SPEC.md §14), the loop's seed drawn from the
/// operating system unless [`TowerPolicy::seed`] gives it, so concurrent requests jitter apart
/// while a test stays reproducible. A request whose retries ran out on a response returns it as
/// `Ok` (as tower does), unless [`TowerPolicy::give_up_as_error`] makes it an error to match on. The clone also starts the request's clock, so time
/// spent in attempts counts against `max_elapsed_ms`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use seeded_backoff::tower::TowerPolicy;
/// use seeded_backoff::{Jitter, Policy, Verdict};
/// use tower::{service_fn, ServiceExt};
/// use std::sync::atomic::{AtomicU32, Ordering};
///
/// let policy = Policy::google().to_builder().initial_ms(5).jitter(Jitter::None).build().unwrap();
/// let calls = AtomicU32::new(0);
/// let service = service_fn(|_req: &'static str| {
///     let n = calls.fetch_add(1, Ordering::SeqCst);
///     async move { Ok::<u16, &str>(if n < 2 { 503 } else { 200 }) }
/// });
/// let retry = TowerPolicy::new(policy, |r: &Result<u16, &str>| match r {
///     Ok(503) | Err(_) => Verdict::RETRY,
///     Ok(_) => Verdict::Stop,
/// }).seed(1);
/// let status = tower::retry::Retry::new(retry, service).oneshot("GET /").await;
/// assert_eq!(status, Ok(200));
/// assert_eq!(calls.load(Ordering::SeqCst), 3);
/// # }
/// ```
#[derive(Debug)]
pub struct TowerPolicy<K, C = ByClone, H = NoGiveUpHook> {
    policy: Policy,
    run: Option<Run>,
    seeds: Arc<CallSeeds>,
    budget: Option<Arc<AtomicRetryBudget>>,
    classify: K,
    clone_request: C,
    on_give_up: H,
    start: Option<tokio::time::Instant>,
    behind_rate: bool,
}

impl<K> TowerPolicy<K> {
    /// A policy whose loop seed is drawn from the operating system once, so services started
    /// together retry apart; its `i`-th failing request is seeded with
    /// [`call_seed`](crate::call_seed)`(seed, i)` (SPEC.md §14). [`TowerPolicy::seed`] gives the
    /// seed, to replay every request's schedule.
    pub fn new(policy: Policy, classify: K) -> Self {
        TowerPolicy {
            policy,
            run: None,
            seeds: Arc::new(CallSeeds::new(crate::std_support::fresh_seed())),
            budget: None,
            classify,
            clone_request: ByClone,
            on_give_up: NoGiveUpHook,
            start: None,
            behind_rate: false,
        }
    }
}

impl<K, C, H> TowerPolicy<K, C, H> {
    /// Copies each request for its retries with `clone_request` instead of `Clone`: for a request
    /// that is not `Clone`, such as a `reqwest::Request` (`|r: &reqwest::Request| r.try_clone()`,
    /// `None` for a streaming body, which is then sent once).
    pub fn clone_request_with<C2>(self, clone_request: C2) -> TowerPolicy<K, C2, H> {
        TowerPolicy {
            policy: self.policy,
            run: self.run,
            seeds: self.seeds,
            budget: self.budget,
            classify: self.classify,
            clone_request,
            on_give_up: self.on_give_up,
            start: self.start,
            behind_rate: self.behind_rate,
        }
    }

    /// Tells `hook` when a request's retries run out, with the result tower then returns (for a
    /// response, the last one, which the classifier still called retryable) and a
    /// [`RetriesExhausted`]: so a caller can tell "the server said 503 and retries ran out" from
    /// "the server said 503 once" (put it in the response's extensions, count it, log it).
    pub fn on_give_up<H2>(self, hook: H2) -> TowerPolicy<K, C, H2> {
        TowerPolicy {
            policy: self.policy,
            run: self.run,
            seeds: self.seeds,
            budget: self.budget,
            classify: self.classify,
            clone_request: self.clone_request,
            on_give_up: hook,
            start: self.start,
            behind_rate: self.behind_rate,
        }
    }

    /// Seeds the loop with `seed`: its `i`-th failing request runs with
    /// [`call_seed`](crate::call_seed)`(seed, i)`, the first with `seed` itself, so a test
    /// replays every request's schedule.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seeds = Arc::new(CallSeeds::new(seed));
        self
    }

    /// Makes a request whose retries ran out on a response an error the caller can match on:
    /// the result tower returns is then `Err(E::from(GaveUp { response, exhausted }))` in place
    /// of `Ok(response)` (an `Err` result stays as it is). The service's error type says how:
    /// `impl From<GaveUp<Response>> for MyError`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// use seeded_backoff::tower::{GaveUp, TowerPolicy};
    /// use seeded_backoff::{GiveUpReason, Policy, Verdict};
    /// use tower::{service_fn, ServiceExt};
    ///
    /// #[derive(Debug)]
    /// enum Error { Busy(u16, u32), Io }
    /// impl From<GaveUp<u16>> for Error {
    ///     fn from(g: GaveUp<u16>) -> Self { Error::Busy(g.response.unwrap_or(0), g.exhausted.attempts) }
    /// }
    /// let always_busy = service_fn(|_req: ()| async { Ok::<u16, Error>(503) });
    /// let policy = Policy::google().to_builder().max_retries(2).build().unwrap();
    /// let retry = TowerPolicy::new(policy, |r: &Result<u16, Error>| match r {
    ///     Ok(503) | Err(_) => Verdict::RETRY,
    ///     Ok(_) => Verdict::Stop,
    /// }).give_up_as_error();
    /// let result = tower::retry::Retry::new(retry, always_busy).oneshot(()).await;
    /// assert!(matches!(result, Err(Error::Busy(503, 3))));
    /// # }
    /// ```
    pub fn give_up_as_error(self) -> TowerPolicy<K, C, GiveUpAsError> {
        self.on_give_up(GiveUpAsError)
    }

    /// Says a [`SendRateLayer`](crate::tower::SendRateLayer) under this policy paces every attempt: a
    /// throttled retry (the classifier's [`Verdict::throttled`], a 429) then waits only the
    /// server's hint, not its backoff, since the rate paces it (SPEC.md §15.2).
    pub fn behind_send_rate(mut self) -> Self {
        self.behind_rate = true;
        self
    }

    /// Shares a retry budget between every request of the service.
    pub fn with_budget(mut self, budget: Arc<AtomicRetryBudget>) -> Self {
        self.budget = Some(budget);
        self
    }

    /// This request's state, once its first attempt has ended.
    pub fn backoff(&self) -> Option<&Backoff> {
        self.run.as_ref().map(Run::backoff)
    }

    fn now_ms(&self) -> Option<u64> {
        self.start
            .map(|start| u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX))
    }
}

impl<K: Clone, C: Clone, H: Clone> Clone for TowerPolicy<K, C, H> {
    /// A policy for a new request: no run until its first attempt ends, its clock started now.
    fn clone(&self) -> Self {
        TowerPolicy {
            policy: self.policy,
            run: None,
            seeds: Arc::clone(&self.seeds),
            budget: self.budget.clone(),
            classify: self.classify.clone(),
            clone_request: self.clone_request.clone(),
            on_give_up: self.on_give_up.clone(),
            start: Some(tokio::time::Instant::now()),
            behind_rate: self.behind_rate,
        }
    }
}

impl<Req, Res, E, K, C, H> tower::retry::Policy<Req, Res, E> for TowerPolicy<K, C, H>
where
    K: FnMut(&Result<Res, E>) -> Verdict,
    C: CloneRequest<Req>,
    H: OnGiveUp<Res, E>,
{
    type Future = tokio::time::Sleep;

    fn retry(&mut self, _req: &mut Req, result: &mut Result<Res, E>) -> Option<Self::Future> {
        // What tower calls "stop" is a success for an `Ok` result and a permanent error otherwise.
        let verdict = (self.classify)(result);
        let outcome = match (verdict, &*result) {
            (Verdict::Stop, Ok(_)) => Outcome::Success,
            (verdict, _) => verdict.into(),
        };
        let now = self.now_ms();
        let policy = &self.policy;
        let run = match &mut self.run {
            Some(run) => run,
            none => {
                let mut run = Run::new(policy, self.seeds.next_seed());
                let _first = run.start(now.map(|_| 0));
                none.insert(run)
            }
        };
        let budget = self.budget.as_deref().map(|b| b as &dyn RetryGate);
        let action = if self.behind_rate {
            run.outcome_behind_rate(policy, outcome, verdict.answer(), now, budget)
        } else {
            run.outcome(policy, outcome, now, budget)
        };
        match action {
            Ok(Action::Retry { delay_ms, .. }) => {
                let _next = run.wake(None);
                Some(tokio::time::sleep(Duration::from_millis(delay_ms.into())))
            }
            Ok(Action::GiveUp {
                attempts,
                reason: Some(reason),
            }) => {
                let exhausted = RetriesExhausted { attempts, reason };
                self.on_give_up.on_give_up(result, exhausted);
                None
            }
            _ => None,
        }
    }

    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        self.clone_request.clone_request(req)
    }
}
