//! The strategies a run compares: the core's six jitter strategies, each on the scenario's
//! exponential schedule, and the default retry of Google's own client libraries, which is what a
//! Memorystore client gets when it writes no retry code.
//!
//! `api-core-default` is google-api-core's `Retry` as the Python GAPIC clients configure it for
//! reads (and google-gax's for Node, the same numbers): full jitter on 1 s × 1.3 up to 10 s, a 60 s
//! deadline, and only 503 (UNAVAILABLE) retried: a 429 is final. It runs on the core's `Backoff`
//! like every other strategy (full jitter draws uniformly below the current level, as api-core's
//! sleeps do); the deadline is the sum of the delays (the simulated requests' own time is not
//! counted, which changes it by a few network round trips).

use seeded_backoff::policy::DeadlineMode;
use seeded_backoff::{Jitter, Policy};

/// A strategy: one of the core's jitter strategies (its parameter is the scenario's, set by
/// [`Strategy::policy`]), or the client libraries' default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Jitter(Jitter),
    /// Google's client libraries' default: full jitter, 1 s × 1.3, cap 10 s, 60 s, 503 only.
    ApiCoreDefault,
}

/// Every strategy, in the order of the tables and the chart's styles: the core's jitter
/// strategies in code order, then the library default.
pub const ALL_STRATEGIES: [Strategy; Jitter::NAMES.len() + 1] = {
    let mut all = [Strategy::ApiCoreDefault; Jitter::NAMES.len() + 1];
    let mut code = 0;
    while code < Jitter::NAMES.len() {
        all[code] = match Jitter::from_code(code as u8, 0) {
            Some(j) => Strategy::Jitter(j),
            None => panic!("the core's jitter codes are 0..NAMES.len()"),
        };
        code += 1;
    }
    all
};

/// The six jitter strategies on the scenario's own schedule: every strategy but the last.
#[cfg(test)]
pub const JITTER_STRATEGIES: &[Strategy] = match ALL_STRATEGIES.split_last() {
    Some((_, jitters)) => jitters,
    None => &[],
};

/// The name of the client libraries' default, beside the core's jitter names.
pub const API_CORE_DEFAULT: &str = "api-core-default";

/// api-core's multiplier, 1.3.
const API_CORE_MULTIPLIER: (u32, u32) = (13, 10);

/// Proportional jitter's spread in a scenario: gRPC's ±20 %.
const SPREAD_PER_MILLE: u32 = 200;

impl Strategy {
    /// The name in tables, JSON and CSV: the core's jitter name, or the library default's.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Jitter(j) => j.name(),
            Strategy::ApiCoreDefault => API_CORE_DEFAULT,
        }
    }

    /// The strategy of a name: the core's jitter names, or [`API_CORE_DEFAULT`].
    pub fn from_name(name: &str) -> Option<Strategy> {
        ALL_STRATEGIES.into_iter().find(|s| s.name() == name)
    }

    /// The strategy of a name the caller knows to be one (the tests').
    #[cfg(test)]
    pub fn named(name: &str) -> Strategy {
        Strategy::from_name(name).expect("a strategy's name")
    }

    /// Whether a 429 is retried: the guidance retries 5xx and 429; api-core's default only 503.
    pub fn retries_429(self) -> bool {
        self != Strategy::ApiCoreDefault
    }

    /// The strategy's policy on a schedule of `initial_ms` × `multiplier` up to `cap_ms`. The
    /// library default keeps its own multiplier and full jitter, and with `deadline_ms` its time
    /// budget.
    pub fn policy(
        self,
        initial_ms: u32,
        multiplier: (u32, u32),
        cap_ms: u32,
        max_hint_ms: u32,
        deadline_ms: u32,
    ) -> Policy {
        let builder = Policy::builder()
            .initial_ms(initial_ms)
            .max_backoff_ms(cap_ms)
            .max_hint_ms(max_hint_ms)
            .max_retries(u32::MAX);
        let builder = match self {
            Strategy::Jitter(j) => builder
                .multiplier(multiplier.0, multiplier.1)
                .jitter(scenario_jitter(j, initial_ms)),
            Strategy::ApiCoreDefault => builder
                .multiplier(API_CORE_MULTIPLIER.0, API_CORE_MULTIPLIER.1)
                .jitter(Jitter::Full)
                .max_elapsed_ms(deadline_ms)
                .deadline(DeadlineMode::GiveUp),
        };
        builder.build().expect("simulation policy is valid")
    }
}

/// The jitter in a scenario whose first delay is `initial_ms`: Google's additive jitter keeps its
/// ratio to the first delay (1000 ms on 1 s); proportional is gRPC's ±20 %.
fn scenario_jitter(j: Jitter, initial_ms: u32) -> Jitter {
    match j {
        Jitter::Google { .. } => Jitter::Google {
            jitter_ms: initial_ms,
        },
        Jitter::Proportional { .. } => Jitter::Proportional {
            spread_per_mille: SPREAD_PER_MILLE,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The library default at Google's 1 s scale is api-core's Retry(initial=1.0, multiplier=1.3,
    // maximum=10.0, deadline=60) with full jitter.
    #[test]
    fn api_core_default_is_the_library_retry() {
        let p = Strategy::ApiCoreDefault.policy(1000, (2, 1), 10_000, 10_000, 60_000);
        assert_eq!(
            (p.initial_ms(), p.max_backoff_ms(), p.max_elapsed_ms()),
            (1000, 10_000, 60_000)
        );
        assert_eq!(p.jitter(), Jitter::Full);
        assert_eq!(Strategy::ApiCoreDefault.name(), "api-core-default");
        assert!(!Strategy::ApiCoreDefault.retries_429());
        assert!(Strategy::named("google").retries_429());
    }

    #[test]
    fn names_are_the_cores_jitter_names_and_api_core_default() {
        for s in ALL_STRATEGIES {
            assert_eq!(Strategy::from_name(s.name()), Some(s), "{}", s.name());
        }
        let names: Vec<&str> = ALL_STRATEGIES.iter().map(|s| s.name()).collect();
        let mut expected = seeded_backoff::Jitter::NAMES.to_vec();
        expected.push(API_CORE_DEFAULT);
        assert_eq!(names, expected);
        assert_eq!(Strategy::from_name("fulll"), None);
    }
}
