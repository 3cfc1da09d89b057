//! What the `tower` feature adds: a `tower::retry::Policy` (tower 0.5) backed by a [`Policy`].

extern crate std;

use core::time::Duration;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::{AtomicRetryBudget, Backoff, FailureKind, Policy, RetryGate, Step, StepInput, Verdict};

/// A `tower::retry::Policy` for `tower::retry::Retry` (or `ServiceBuilder::retry`): each request
/// gets its own [`Backoff`], optionally all share an [`AtomicRetryBudget`], and `classify` decides
/// from the whole result, so a `503` response can be retried as well as an error.
///
/// Tower clones the policy for every request, and each clone starts its own backoff at the
/// request's first failure, seeded from a counter the clones share: the first request that fails
/// uses `seed`, the next `seed + 1`, and so on, so concurrent requests jitter apart while a test
/// stays reproducible. The clone also starts the request's clock, so time spent in attempts
/// counts against `max_elapsed_ms`.
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
    backoff: Option<Backoff>,
    seeds: Arc<AtomicU64>,
    budget: Option<Arc<AtomicRetryBudget>>,
    classify: K,
    retried: Option<FailureKind>,
    start: Option<tokio::time::Instant>,
}

impl<K> TowerPolicy<K> {
    /// A policy whose first failing request is seeded with `seed`, the next with `seed + 1`, and
    /// so on.
    pub fn new(policy: Policy, seed: u64, classify: K) -> Self {
        TowerPolicy {
            policy,
            backoff: None,
            seeds: Arc::new(AtomicU64::new(seed)),
            budget: None,
            classify,
            retried: None,
            start: None,
        }
    }

    /// Shares a retry budget between every request of the service.
    pub fn with_budget(mut self, budget: Arc<AtomicRetryBudget>) -> Self {
        self.budget = Some(budget);
        self
    }

    /// This request's state, once it has failed.
    pub fn backoff(&self) -> Option<&Backoff> {
        self.backoff.as_ref()
    }
}

impl<K: Clone> Clone for TowerPolicy<K> {
    /// A policy for a new request: no backoff until it fails, its clock started now.
    fn clone(&self) -> Self {
        TowerPolicy {
            policy: self.policy,
            backoff: None,
            seeds: Arc::clone(&self.seeds),
            budget: self.budget.clone(),
            classify: self.classify.clone(),
            retried: None,
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
        let (hint, kind) = match (self.classify)(result) {
            Verdict::Retry { hint, kind } => (hint, kind),
            Verdict::Stop => {
                if let (Some(budget), Ok(_)) = (&self.budget, &*result) {
                    budget.record_success(self.retried);
                }
                return None;
            }
        };
        let elapsed_ms = self
            .start
            .map(|start| u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX));
        let input = StepInput {
            hint,
            elapsed_ms,
            budget: self.budget.as_deref().map(|b| (b as &dyn RetryGate, kind)),
        };
        let policy = &self.policy;
        let seeds = &self.seeds;
        let backoff = self
            .backoff
            .get_or_insert_with(|| Backoff::new(policy, seeds.fetch_add(1, Ordering::Relaxed)));
        match backoff.next_delay_with(policy, input) {
            Step::Retry { delay_ms, .. } => {
                self.retried = Some(kind);
                Some(tokio::time::sleep(Duration::from_millis(delay_ms.into())))
            }
            Step::GiveUp(_) => None,
        }
    }

    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        Some(req.clone())
    }
}
