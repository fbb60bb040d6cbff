//! # olmsat-graph
//!
//! The catalog side of olmsat: the file-based catalog model ([`declcfg`]), loading
//! ([`load`]), versions and blang semver ranges ([`version`], [`range`]), the
//! package/channel/bundle model built from a catalog ([`model`]), validation with
//! opm's rules and texts ([`validate`]), writing catalogs back ([`mod@write`]),
//! operator bundle directories: reading, validation, rendering and building
//! catalogs from them ([`bundle`]), bounds on CEL rules ([`cel_limits`]), upgrade
//! graphs with the paths OLM takes through them ([`upgrade`]), and drawing them
//! ([`export`]).
#![warn(missing_docs)]

pub mod bundle;
pub mod cel_limits;
pub mod chain;
pub mod declcfg;
pub mod diagnostic;
pub mod export;
pub mod image_ref;
pub mod list;
pub mod load;
pub mod location;
pub mod model;
pub mod name_index;
pub mod property;
pub mod range;
pub mod rawjson;
pub mod report;
pub mod suggest;
pub mod synthetic;
pub mod upgrade;
pub mod validate;
pub mod validjson;
pub mod version;
pub mod version_index;
pub mod write;
pub mod yaml_emit;

pub use declcfg::DeclarativeConfig;
pub use diagnostic::{Diagnostic, Severity};
pub use location::Location;
