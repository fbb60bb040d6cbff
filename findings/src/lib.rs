//! # olmsat-findings
//!
//! One findings system for every command that reports problems (`validate`,
//! `bundle validate`, `render-template`, `diff`): each finding
//! ([`Diagnostic`]) has a [`Rule`] (a stable identifier, the severity it has
//! unless a [`Policy`] changes it, a summary and how to fix it), a place and
//! the package, channel and bundle it concerns; the policy (`--strict`,
//! `--allow`, `--deny`, `--fail-on`, `.olmsat.yaml`) decides what fails a
//! run; and one renderer per [`Format`] writes them.
//!
//! ```
//! use std::sync::Arc;
//! use olmsat_findings::{report::format, Diagnostic, Location, Rule};
//!
//! let d = Diagnostic::new(Rule::MultipleHeads, "multiple channel heads found in graph: a, b")
//!     .at(&Location::new(Arc::from("catalog.yaml"), 8))
//!     .package("shapes")
//!     .channel("heads");
//! assert_eq!(
//!     format::short(&d, false),
//!     "catalog.yaml:8: error[multiple-heads]: multiple channel heads found in graph: a, b"
//! );
//! ```
#![deny(missing_docs)]

pub mod diagnostic;
pub mod report;
pub mod suggest;

pub use diagnostic::{Diagnostic, Severity};
pub use olmsat_encoding::Location;
pub use report::{Allow, Format, Policy, Rule, Verdict};

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
