//! Shared pieces of the fuzz targets: turning arbitrary integers into policies, and a reference
//! model of SPEC.md written independently of the core, which the targets check the core against.

pub mod inputs;
pub mod model;
