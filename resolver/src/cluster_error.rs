//! The error of reading a cluster file's objects, shared by OLM v0's objects
//! ([`crate::cluster`]) and OLM v1's ([`crate::v1::cluster`]), which both
//! import it from here.

use olmsat_encoding::location::Location;

/// Why the cluster file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct ClusterError {
    /// Where.
    pub location: Location,
    /// What.
    pub message: String,
}
