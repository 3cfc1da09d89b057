//! §10 of the model: both retry-budget modes, in milli-tokens, written from the text alone.

/// §10: both budget modes, in milli-tokens.
#[derive(Clone, Copy, Debug)]
pub enum ModelBudget {
    Grpc {
        max: u64,
        ratio: u64,
        tokens: u64,
    },
    Aws {
        capacity: u64,
        retry_cost: u64,
        timeout_cost: u64,
        increment: u64,
        tokens: u64,
    },
}

impl ModelBudget {
    pub fn of(config: seeded_backoff::budget::BudgetConfig) -> ModelBudget {
        match config {
            seeded_backoff::budget::BudgetConfig::Grpc {
                max_milli,
                ratio_milli,
            } => ModelBudget::Grpc {
                max: max_milli as u64,
                ratio: ratio_milli as u64,
                tokens: max_milli as u64,
            },
            seeded_backoff::budget::BudgetConfig::AwsQuota {
                capacity_milli,
                retry_cost_milli,
                timeout_cost_milli,
                no_retry_increment_milli,
            } => ModelBudget::Aws {
                capacity: capacity_milli as u64,
                retry_cost: retry_cost_milli as u64,
                timeout_cost: timeout_cost_milli as u64,
                increment: no_retry_increment_milli as u64,
                tokens: capacity_milli as u64,
            },
        }
    }

    pub fn tokens(&self) -> u64 {
        match *self {
            ModelBudget::Grpc { tokens, .. } | ModelBudget::Aws { tokens, .. } => tokens,
        }
    }

    pub fn max(&self) -> u64 {
        match *self {
            ModelBudget::Grpc { max, .. } => max,
            ModelBudget::Aws { capacity, .. } => capacity,
        }
    }

    pub fn record_failure(&mut self) {
        if let ModelBudget::Grpc { tokens, .. } = self {
            *tokens -= (*tokens).min(1000);
        }
    }

    /// `timeout` selects the AWS timeout cost.
    pub fn try_acquire(&mut self, timeout: bool) -> bool {
        match self {
            ModelBudget::Grpc { max, tokens, .. } => *tokens > *max / 2,
            ModelBudget::Aws {
                retry_cost,
                timeout_cost,
                tokens,
                ..
            } => {
                let c = if timeout { *timeout_cost } else { *retry_cost };
                if *tokens >= c {
                    *tokens -= c;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// `retried`: `None` for a first-try success, else whether the retry followed a timeout.
    pub fn record_success(&mut self, retried: Option<bool>) {
        match self {
            ModelBudget::Grpc { max, ratio, tokens } => *tokens = (*tokens + *ratio).min(*max),
            ModelBudget::Aws {
                capacity,
                retry_cost,
                timeout_cost,
                increment,
                tokens,
            } => {
                let add = match retried {
                    None => *increment,
                    Some(false) => *retry_cost,
                    Some(true) => *timeout_cost,
                };
                *tokens = (*tokens + add).min(*capacity);
            }
        }
    }
}
