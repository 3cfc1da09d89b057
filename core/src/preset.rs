//! The named starting points of a policy, with their stable codes and names.

use crate::coded_enum::coded_enum;
use crate::policy::Policy;

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
        }
    }
}
