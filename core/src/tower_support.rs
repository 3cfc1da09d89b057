//! What the `tower` feature adds: a `tower::retry::Policy` (tower 0.5) backed by a [`Policy`].

extern crate std;

use core::time::Duration;
use std::sync::Arc;

use crate::{
    Action, AtomicRetryBudget, Backoff, CallSeeds, Outcome, Policy, RetryGate, Run, Verdict,
};

/// A `tower::retry::Policy` for `tower::retry::Retry` (or `ServiceBuilder::retry`): each request
/// gets its own [`Run`] (which decides every retry, as in every other loop), optionally all share an [`AtomicRetryBudget`], and `classify` decides
/// from the whole result, so a `503` response can be retried as well as an error.
///
/// Tower clones the policy for every request, and each clone starts its own run when the request's
/// first attempt ends, seeded from a [`CallSeeds`] the clones share: request `i` to get there runs
/// with [`call_seed`](crate::call_seed)`(seed, i)` (SPEC.md §14), so concurrent requests jitter
/// apart while a test stays reproducible. The clone also starts the request's clock, so time
/// spent in attempts counts against `max_elapsed_ms`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use seeded_backoff::{Jitter, Policy, TowerPolicy, Verdict};
/// use tower::{service_fn, ServiceExt};
/// use std::sync::atomic::{AtomicU32, Ordering};
///
/// let policy = Policy::google().to_builder().initial_ms(5).jitter(Jitter::None).build().unwrap();
/// let calls = AtomicU32::new(0);
/// let service = service_fn(|_req: &'static str| {
///     let n = calls.fetch_add(1, Ordering::SeqCst);
///     async move { Ok::<u16, &str>(if n < 2 { 503 } else { 200 }) }
/// });
/// let retry = TowerPolicy::new(policy, 1, |r: &Result<u16, &str>| match r {
///     Ok(503) | Err(_) => Verdict::RETRY,
///     Ok(_) => Verdict::Stop,
/// });
/// let status = tower::retry::Retry::new(retry, service).oneshot("GET /").await;
/// assert_eq!(status, Ok(200));
/// assert_eq!(calls.load(Ordering::SeqCst), 3);
/// # }
/// ```
#[derive(Debug)]
pub struct TowerPolicy<K> {
    policy: Policy,
    run: Option<Run>,
    seeds: Arc<CallSeeds>,
    budget: Option<Arc<AtomicRetryBudget>>,
    classify: K,
    start: Option<tokio::time::Instant>,
}

impl<K> TowerPolicy<K> {
    /// A policy whose `i`-th failing request is seeded with
    /// [`call_seed`](crate::call_seed)`(seed, i)`: the first with `seed` itself.
    pub fn new(policy: Policy, seed: u64, classify: K) -> Self {
        TowerPolicy {
            policy,
            run: None,
            seeds: Arc::new(CallSeeds::new(seed)),
            budget: None,
            classify,
            start: None,
        }
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

impl<K: Clone> Clone for TowerPolicy<K> {
    /// A policy for a new request: no run until its first attempt ends, its clock started now.
    fn clone(&self) -> Self {
        TowerPolicy {
            policy: self.policy,
            run: None,
            seeds: Arc::clone(&self.seeds),
            budget: self.budget.clone(),
            classify: self.classify.clone(),
            start: Some(tokio::time::Instant::now()),
        }
    }
}

impl<Req, Res, E, K> tower::retry::Policy<Req, Res, E> for TowerPolicy<K>
where
    Req: Clone,
    K: FnMut(&Result<Res, E>) -> Verdict,
{
    type Future = tokio::time::Sleep;

    fn retry(&mut self, _req: &mut Req, result: &mut Result<Res, E>) -> Option<Self::Future> {
        // What tower calls "stop" is a success for an `Ok` result and a permanent error otherwise.
        let outcome = match ((self.classify)(result), &*result) {
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
        match run.outcome(policy, outcome, now, budget) {
            Ok(Action::Retry { delay_ms, .. }) => {
                let _next = run.wake(None);
                Some(tokio::time::sleep(Duration::from_millis(delay_ms.into())))
            }
            _ => None,
        }
    }

    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        Some(req.clone())
    }
}
