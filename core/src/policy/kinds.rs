//! The two enums a policy is made of: the jitter strategy and the deadline mode, with their stable
//! codes and names (the tables every binding's lists come from).

/// How each delay is randomised around the exponential base `base_n = min(initial · mult^n, cap)`.
///
/// SPEC.md §4.2 gives every formula and how many random draws it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jitter {
    /// No randomness: `base_n`. Clients that fail together retry together.
    None,
    /// Google Cloud's reference: `min(base_n + U[0, jitter_ms], cap)`. The jitter vanishes at the cap.
    Google {
        /// The upper bound of the added random milliseconds (Google uses 1000).
        jitter_ms: u32,
    },
    /// AWS "full jitter": `U[0, base_n]`.
    Full,
    /// "Equal jitter": `base_n/2 + U[0, base_n − base_n/2]`.
    Equal,
    /// "Decorrelated jitter": `min(cap, U[initial, max(initial, 3 · prev)])`.
    Decorrelated,
    /// gRPC-style proportional jitter: `min(cap, base_n ± base_n · spread_per_mille / 1000)`.
    Proportional {
        /// Half-width of the band, in thousandths of `base_n` (gRPC uses 200, i.e. ±20 %).
        spread_per_mille: u32,
    },
}

impl Jitter {
    /// Every strategy's name, in code order; the names the CLI and the bindings accept.
    pub const NAMES: [&'static str; 6] = [
        "none",
        "google",
        "full",
        "equal",
        "decorrelated",
        "proportional",
    ];

    /// The stable numeric code used by the snapshot fingerprint and the C ABI (SPEC.md §2).
    pub const fn code(self) -> u8 {
        match self {
            Jitter::None => 0,
            Jitter::Google { .. } => 1,
            Jitter::Full => 2,
            Jitter::Equal => 3,
            Jitter::Decorrelated => 4,
            Jitter::Proportional { .. } => 5,
        }
    }

    /// The strategy's lower-case name, as in [`Jitter::NAMES`].
    pub const fn name(self) -> &'static str {
        match self {
            Jitter::None => "none",
            Jitter::Google { .. } => "google",
            Jitter::Full => "full",
            Jitter::Equal => "equal",
            Jitter::Decorrelated => "decorrelated",
            Jitter::Proportional { .. } => "proportional",
        }
    }

    /// The strategy's one parameter (`jitter_ms` or `spread_per_mille`), 0 for the others.
    pub const fn param(self) -> u32 {
        match self {
            Jitter::Google { jitter_ms } => jitter_ms,
            Jitter::Proportional { spread_per_mille } => spread_per_mille,
            _ => 0,
        }
    }

    /// Builds a strategy from its code and parameter, as the C ABI and snapshots carry them.
    /// The parameter is ignored by strategies that have none. `None` for an unknown code.
    pub const fn from_code(code: u8, param: u32) -> Option<Jitter> {
        Some(match code {
            0 => Jitter::None,
            1 => Jitter::Google { jitter_ms: param },
            2 => Jitter::Full,
            3 => Jitter::Equal,
            4 => Jitter::Decorrelated,
            5 => Jitter::Proportional {
                spread_per_mille: param,
            },
            _ => return None,
        })
    }

    /// Looks a strategy up by name (see [`Jitter::NAMES`]) with its parameter.
    ///
    /// ```
    /// use seeded_backoff::Jitter;
    /// assert_eq!(Jitter::from_name("full", 0), Some(Jitter::Full));
    /// assert_eq!(Jitter::from_name("bogus", 0), None);
    /// ```
    pub fn from_name(name: &str, param: u32) -> Option<Jitter> {
        let code = Self::NAMES.iter().position(|n| *n == name)?;
        Self::from_code(code as u8, param)
    }
}

/// What a time budget does with the delay that would cross it (SPEC.md §5 step 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeadlineMode {
    /// Give up with [`GiveUpReason::Deadline`](crate::GiveUpReason::Deadline) instead of retrying late.
    #[default]
    GiveUp,
    /// Shorten the last delay to what is left of the budget, then give up at the next step.
    Clamp,
}

impl DeadlineMode {
    /// The stable numeric code (0 give up, 1 clamp).
    pub const fn code(self) -> u8 {
        match self {
            DeadlineMode::GiveUp => 0,
            DeadlineMode::Clamp => 1,
        }
    }

    /// The mode for a code, `None` if unknown.
    pub const fn from_code(code: u8) -> Option<DeadlineMode> {
        match code {
            0 => Some(DeadlineMode::GiveUp),
            1 => Some(DeadlineMode::Clamp),
            _ => None,
        }
    }

    /// `"give_up"` or `"clamp"`.
    pub const fn name(self) -> &'static str {
        match self {
            DeadlineMode::GiveUp => "give_up",
            DeadlineMode::Clamp => "clamp",
        }
    }
}
