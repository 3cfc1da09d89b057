//! The named starting points of a policy, with their stable codes and names.

use crate::coded_enum::coded_enum;
use crate::policy::{Jitter, Policy, PolicyBuilder};

coded_enum! {
    /// A named starting point for a policy: each is one of [`Policy`]'s presets.
    pub enum Preset {
        /// [`Policy::google`]: Google Cloud's reference, 32 s cap.
        Google = 0, "google";
        /// [`Policy::google_64s`]: the same with a 64 s cap.
        Google64s = 1, "google_64s";
        /// [`Policy::aws_standard`]: the AWS SDKs' standard mode.
        AwsStandard = 2, "aws_standard";
        /// [`Policy::grpc`]: gRPC connection backoff.
        Grpc = 3, "grpc";
        /// [`Policy::mobile`]: Google's advice for mobile clients, more retries and longer
        /// intervals, with jitter kept at the cap.
        Mobile = 4, "mobile";
    }
}

impl Preset {
    /// The preset's policy.
    pub const fn policy(self) -> Policy {
        match self {
            Preset::Google => Policy::google(),
            Preset::Google64s => Policy::google_64s(),
            Preset::AwsStandard => Policy::aws_standard(),
            Preset::Grpc => Policy::grpc(),
            Preset::Mobile => Policy::mobile(),
        }
    }
}

/// Unwraps a preset known to be valid; `const` evaluation turns a mistake into a compile error.
const fn preset(b: PolicyBuilder) -> Policy {
    match b.build() {
        Ok(p) => p,
        Err(_) => panic!("preset policy is invalid"),
    }
}

const GOOGLE: Policy = preset(
    Policy::builder()
        .initial_ms(1000)
        .multiplier(2, 1)
        .max_backoff_ms(32_000)
        .max_retries(10)
        .jitter(Jitter::Google { jitter_ms: 1000 }),
);

// Presets are `const` items, not `preset(...)` calls in the functions: a call at run time keeps
// `preset`'s panic branch in builds that do not inline it (opt-level "s"/"z" firmware).
const GOOGLE_64S: Policy = preset(GOOGLE.to_builder().max_backoff_ms(64_000));

const AWS_STANDARD: Policy = preset(
    Policy::builder()
        .initial_ms(100)
        .multiplier(2, 1)
        .max_backoff_ms(20_000)
        .max_retries(2)
        .jitter(Jitter::Full),
);

const GRPC: Policy = preset(
    Policy::builder()
        .initial_ms(1000)
        .multiplier(8, 5)
        .max_backoff_ms(120_000)
        .max_retries(10)
        .jitter(Jitter::Proportional {
            spread_per_mille: 200,
        }),
);

// Google's advice for mobile clients, "more retries and longer intervals" (SPEC.md §2, Presets):
// equal jitter on a 2 s base draws retry n from [2^n s, 2^(n+1) s], never sooner than Google's
// un-jittered base and at most twice it; the 64 s cap keeps the draw over [32 s, 64 s], so a fleet
// that lost coverage together does not come back together, and no retry follows the last within
// half the cap (the radio sleeps between them). 16 retries ride out 6.4 to 12.8 minutes.
const MOBILE: Policy = preset(
    Policy::builder()
        .initial_ms(2000)
        .multiplier(2, 1)
        .max_backoff_ms(64_000)
        .max_retries(16)
        .jitter(Jitter::Equal),
);

/// The presets of SPEC.md §2, one constructor each.
impl Policy {
    /// Google Cloud's reference: `min(2^n s + U[0, 1000] ms, 32 s)`, 10 retries.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy, Step};
    /// let policy = Policy::google();
    /// let mut backoff = Backoff::new(&policy, 42);
    /// match backoff.next_delay(&policy) {
    ///     Step::Retry { delay_ms, retry } => {
    ///         assert_eq!(retry, 0);
    ///         assert!((1000..=2000).contains(&delay_ms));
    ///     }
    ///     Step::GiveUp(_) => unreachable!(),
    /// }
    /// ```
    pub const fn google() -> Policy {
        GOOGLE
    }

    /// [`Policy::google`] with the other cap Google suggests, 64 s.
    pub const fn google_64s() -> Policy {
        GOOGLE_64S
    }

    /// The AWS SDKs' "standard" mode: full jitter, base 100 ms, cap 20 s, 2 retries (3 attempts).
    pub const fn aws_standard() -> Policy {
        AWS_STANDARD
    }

    /// gRPC connection backoff: 1 s, ×1.6, ±20 % proportional jitter, cap 120 s, 10 retries.
    pub const fn grpc() -> Policy {
        GRPC
    }

    /// Google's advice for mobile clients, more retries and longer intervals: equal jitter on a
    /// 2 s base, ×2, cap 64 s, 16 retries. Retry n waits between Google's base for it and twice
    /// that, and at the cap anywhere in [32 s, 64 s]: the jitter does not vanish there, so phones
    /// coming back from a dead zone together do not return in step.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy};
    /// let policy = Policy::mobile();
    /// let mut backoff = Backoff::new(&policy, 7);
    /// let delays: Vec<u32> = (0..17).filter_map(|_| backoff.next_delay(&policy).delay_ms()).collect();
    /// assert_eq!(delays.len(), 16);
    /// assert!((1000..=2000).contains(&delays[0]));
    /// assert!(delays[6..].iter().all(|d| (32_000..=64_000).contains(d)));
    /// ```
    pub const fn mobile() -> Policy {
        MOBILE
    }
}
