//! Versions and version ranges as OLM reads them, kept apart from the rest of
//! the crate (nothing in here uses anything outside it), so that it could
//! become a crate of its own without edits.
//!
//! - [`version`]: semantic versions with the strict and tolerant parsers of
//!   blang/semver, Go's quoting for its messages, and bundle releases.
//! - [`range`]: blang/semver v4 ranges (`olm.skipRange`, the `versionRange`
//!   of `olm.package.required`), with the suggestions for texts blang
//!   rejects.
//! - [`index`]: a channel's entries by version, to find what a range
//!   matches without testing every entry.
//!
//! - [`masterminds`]: the Masterminds/semver v3 constraints that OLM v1 uses
//!   (`ClusterExtension` `spec.source.catalog.version`): another grammar and
//!   other semantics, kept apart from the blang ranges of [`range`].

pub mod index;
pub mod masterminds;
pub mod range;
pub mod version;
