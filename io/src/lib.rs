//! # olmsat-io
//!
//! The edge between olmsat and the machine it runs on: whatever a catalog,
//! bundle, image or cluster dump holds, olmsat reads only what the user named
//! and writes only where the user said, within limits, and never lets the
//! input's bytes drive the user's terminal.
//!
//! - [`read_file`] reads one regular file, refusing named pipes and devices
//!   (opening one never blocks) and anything over its limit before any
//!   memory is taken; [`read_named`] reads a path named on the command line,
//!   where a pipe (`<(…)`) is read as a stream; [`read_stream`] reads
//!   standard input within the limit plus a small constant.
//! - [`Walk`] lists the regular files below a directory. Symbolic links that
//!   leave the directory are not followed unless the user opts in
//!   ([`Walk::follow_links`]); named pipes, sockets and devices are skipped;
//!   each skipped entry is reported. [`subdirectories`] lists one level of
//!   directories (`--catalogs DIR`) by the same policy.
//! - [`inside`] resolves a path read from a file (an `images.yaml` entry)
//!   against the directory it must stay in.
//! - [`write_in_dir`] writes one output file into a directory atomically and
//!   never through a link; [`file_name`] makes any name a short, safe file
//!   name, deterministically.
//! - [`terminal`] escapes control characters in text meant for a terminal.
//!
//! ```
//! use olmsat_io::{read_file, terminal, MAX_FILE_BYTES};
//!
//! let dir = tempfile::tempdir().expect("a temporary directory");
//! let path = dir.path().join("catalog.json");
//! std::fs::write(&path, "{\"schema\":\"olm.package\"}").expect("written");
//! assert_eq!(read_file(&path, MAX_FILE_BYTES).expect("read").len(), 24);
//! assert_eq!(terminal("etcd\u{1b}]0;pwned\u{7}"), "etcd\\x1b]0;pwned\\x07");
//! ```
#![deny(missing_docs)]

mod escape;
mod inside;
mod kind;
mod read;
mod subdirs;
mod usage;
mod walk;
mod write;

pub use escape::{terminal, terminal_line};
pub use inside::{inside, Outside};
pub use kind::FileKind;
pub use read::{open_regular, read_file, read_named, read_stream, ReadError};
pub use subdirs::{subdirectories, Subdirectories};
pub use usage::{input_size, Usage};
pub use walk::{SkipReason, Skipped, Walk, WalkProblem, Walked};
pub use write::{file_name, write_in_dir, MAX_NAME_BYTES};

/// The largest file olmsat reads (1 GiB): larger files are refused with an
/// error before anything is read into memory.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
