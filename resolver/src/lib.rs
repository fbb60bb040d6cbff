//! # olmsat-resolver
//!
//! OLM v0's dependency resolution as SAT. The solver core ([`problem`], [`solve`])
//! works on interned variables and knows nothing of OLM; the SAT backend sits behind
//! the small [`sat::SatBackend`] trait. OLM v1's ClusterExtension selection, which
//! is not SAT, is in [`v1`].
#![warn(missing_docs)]

pub mod cluster;
pub mod entry;
pub mod predicate;
pub mod problem;
pub mod resolve;
pub mod sat;
pub mod simulate;
pub mod solve;
pub mod v1;

/// Saturating conversion of an index to `u32`.
pub(crate) fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
