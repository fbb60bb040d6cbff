//! Entries of a directory of cluster files that were not read, and why.

use std::fmt;
use std::path::{Path, PathBuf};

/// An entry of a directory named on the command line that was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedFile {
    /// The entry, as found below the directory named.
    pub path: PathBuf,
    /// The directory named.
    pub root: PathBuf,
    /// Why it was not read.
    pub reason: SkipCause,
}

/// Why an entry of a directory was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipCause {
    /// A symbolic link whose target lies outside the directory named.
    LinkOutside {
        /// Where it points (resolved).
        target: PathBuf,
    },
    /// A named pipe, socket or device: reading one could wait forever or
    /// never end.
    NotRegular(olmsat_io::FileKind),
    /// A symbolic link whose target does not exist (or cannot be reached).
    BrokenLink {
        /// Why, in the system's words.
        error: String,
    },
    /// A symbolic link to a directory that holds it.
    Loop {
        /// The directory it points back to.
        ancestor: PathBuf,
    },
}

/// A path as text safe to print (control characters escaped).
pub(crate) fn shown(p: &Path) -> String {
    olmsat_io::terminal_line(&p.display().to_string()).into_owned()
}

impl fmt::Display for SkippedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = shown(&self.path);
        match &self.reason {
            SkipCause::LinkOutside { target } => write!(
                f,
                "{path}: a symbolic link to {}, outside {}; olmsat does not follow links that leave the directory named (name the target itself to read it)",
                shown(target),
                shown(&self.root)
            ),
            SkipCause::NotRegular(kind) => {
                write!(f, "{path}: a {kind}, not a regular file; olmsat does not open it")
            }
            SkipCause::BrokenLink { error } => {
                write!(f, "{path}: a symbolic link that cannot be followed: {error}")
            }
            SkipCause::Loop { ancestor } => write!(
                f,
                "{path}: a symbolic link back to {}, which holds it",
                shown(ancestor)
            ),
        }
    }
}
