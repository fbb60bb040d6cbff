//! # olmsat-versions
//!
//! Versions and version ranges as OLM reads them. Nothing here knows about
//! catalogs: like uv's `uv-pep440`, the grammars stand on their own, with no
//! dependency on the rest of olmsat.
//!
//! ```
//! use olmsat_versions::{masterminds::Constraints, range::Range, version::parse_strict};
//!
//! // OLM v0: a bundle's `olm.skipRange`, blang/semver's grammar (space is AND).
//! let skip = Range::parse(">=0.9.0 <0.9.4").expect("a blang range");
//! assert!(skip.matches(&parse_strict("0.9.2").expect("strict semver")));
//! assert!(!skip.matches(&parse_strict("0.9.4").expect("strict semver")));
//!
//! // OLM v1: a ClusterExtension's `version`, Masterminds' grammar (`~`, `^`, `||`).
//! let wanted = Constraints::parse("~1.2").expect("a Masterminds constraint");
//! assert!(wanted.matches(&parse_strict("1.2.9").expect("strict semver")));
//! assert!(!wanted.matches(&parse_strict("1.3.0").expect("strict semver")));
//!
//! // blang refuses what it does not read, in its own words.
//! let e = Range::parse("^1.0.0").expect_err("not blang");
//! assert_eq!(e.to_string(), "Could not parse Range \"^1.0.0\": Could not parse comparator \"^\" in \"^1.0.0\"");
//! ```
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

#![deny(missing_docs)]

pub mod index;
pub mod masterminds;
pub mod range;
pub mod version;

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
