//! Files as streams of documents, shared by every reader (catalogs, bundles,
//! cluster files): how a file splits into JSON or YAML documents ([`split`]) and
//! how the general YAML parser is set up and its errors told apart ([`yaml`]),
//! and go-yaml v2's syntax errors as opm reports them ([`go_yaml`]).

pub mod go_yaml;
pub mod split;
pub mod yaml;
