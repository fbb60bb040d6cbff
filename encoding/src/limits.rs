//! Bounds every reader of olmsat applies, whatever it reads (catalogs, bundles,
//! cluster files): kept here so that no reader reaches into another for them.

/// The largest file olmsat reads (1 GiB); larger files are refused with an error
/// rather than read into memory.
pub use olmsat_io::MAX_FILE_BYTES;

/// Deepest nesting of arrays and objects accepted, in JSON and YAML (below
/// serde_json's own recursion limit, so every accepted value can be re-read).
pub const MAX_DEPTH: usize = 100;
