//! The two enums a policy is made of: the jitter strategy and the deadline mode, with their stable
//! codes and names (the tables every binding's lists come from).

use crate::coded_enum::coded_enum;

coded_enum! {
    /// How each delay is randomised around the exponential base `base_n = min(initial · mult^n, cap)`.
    ///
    /// SPEC.md §4.2 gives every formula and how many random draws it takes; the codes are SPEC.md
    /// §2's.
    ///
    /// ```
    /// use seeded_backoff::Jitter;
    /// assert_eq!(Jitter::from_name("full", 0), Some(Jitter::Full));
    /// assert_eq!(Jitter::from_code(1, 250), Some(Jitter::Google { jitter_ms: 250 }));
    /// assert_eq!(Jitter::from_name("bogus", 0), None);
    /// ```
    pub enum Jitter(param) {
        /// No randomness: `base_n`. Clients that fail together retry together.
        None = 0, "none";
        /// Google Cloud's reference: `min(base_n + U[0, jitter_ms], cap)`. The jitter vanishes at the cap.
        Google {
            /// The upper bound of the added random milliseconds (Google uses 1000).
            jitter_ms
        } = 1, "google";
        /// AWS "full jitter": `U[0, base_n]`.
        Full = 2, "full";
        /// "Equal jitter": `base_n/2 + U[0, base_n − base_n/2]`.
        Equal = 3, "equal";
        /// "Decorrelated jitter": `min(cap, U[initial, max(initial, 3 · prev)])`.
        Decorrelated = 4, "decorrelated";
        /// gRPC-style proportional jitter: `min(cap, base_n ± base_n · spread_per_mille / 1000)`.
        Proportional {
            /// Half-width of the band, in thousandths of `base_n` (gRPC uses 200, i.e. ±20 %).
            spread_per_mille
        } = 5, "proportional";
    }
}

impl Jitter {
    /// The strategy's one parameter (`jitter_ms` or `spread_per_mille`), 0 for the others.
    pub const fn param(self) -> u32 {
        match self {
            Jitter::Google { jitter_ms } => jitter_ms,
            Jitter::Proportional { spread_per_mille } => spread_per_mille,
            _ => 0,
        }
    }
}

coded_enum! {
    /// What a time budget does with the delay that would cross it (SPEC.md §5 step 7).
    #[derive(Default)]
    pub enum DeadlineMode {
        /// Give up with [`GiveUpReason::Deadline`](crate::GiveUpReason::Deadline) instead of retrying late.
        #[default]
        GiveUp = 0, "give_up";
        /// Shorten the last delay to what is left of the budget, then give up at the next step.
        Clamp = 1, "clamp";
    }
}
