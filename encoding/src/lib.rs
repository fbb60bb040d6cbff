//! # olmsat-encoding
//!
//! JSON and YAML as the Go programs behind OLM read and write them, for every
//! reader and writer of olmsat (catalogs, bundles, cluster dumps, reports):
//!
//! - [`location`]: a place in an input file (file, line, column) and the line
//!   counting that finds it;
//! - [`rawjson`]: JSON values kept as written ([`RawJson`]), and Go's
//!   `encoding/json` rules for reading fields of them;
//! - [`validjson`]: walking JSON that serde_json has already accepted;
//! - [`yaml_emit`]: go-yaml v2's output layout, what `opm render -o yaml`
//!   writes;
//! - [`stream`]: how a file splits into JSON or YAML documents (Kubernetes'
//!   rules, as opm uses them) and how YAML documents are parsed;
//! - [`limits`]: the nesting and size bounds every reader applies.
//!
//! ```
//! use olmsat_encoding::{yaml_emit, RawJson};
//!
//! let value = RawJson::parse(r#"{"name":"etcd","entries":[{"name":"etcdoperator.v0.9.4"}]}"#.to_owned())
//!     .expect("one JSON value");
//! let mut yaml = String::new();
//! yaml_emit::emit_document(&serde_json::from_str(value.get()).expect("JSON"), &mut yaml);
//! assert_eq!(yaml, "entries:\n- name: etcdoperator.v0.9.4\nname: etcd\n");
//! ```
#![deny(missing_docs)]

pub mod limits;
pub mod location;
pub mod rawjson;
pub mod stream;
pub mod validjson;
pub mod yaml_emit;

pub use location::Location;
pub use rawjson::RawJson;

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
