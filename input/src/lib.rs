//! # olmsat-input
//!
//! Where a catalog comes from: a directory, a file, standard input (`-`), or a
//! path at a Git revision (`git:REV:PATH`), turned into loaded catalog input.
//!
//! [`Input::load`] is the one place a command-line catalog argument becomes a
//! [`Loaded`] catalog; other kinds of input (templates rendered in memory) are
//! added here.

#![deny(missing_docs)]

#[cfg(feature = "git")]
pub mod git;

use std::fmt;
use std::path::{Path, PathBuf};

use olmsat_catalog::load::{self, LoadError, Loaded};

/// A catalog input as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A directory (walked) or a file.
    Path(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A path in the tree of a Git revision of the repository the command runs in.
    Git {
        /// The revision (`HEAD`, `origin/main`, a commit, a tag, `HEAD~1`, ...).
        rev: String,
        /// The path inside the repository (empty: the whole tree).
        path: String,
    },
}

/// Why an input could not be read (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The directory or file could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// `git:` without `REV:PATH`.
    #[error("{text:?}: a Git input is written git:REV:PATH (e.g. git:origin/main:catalogs/v4.20, or git:HEAD: for the whole tree)")]
    MalformedGit {
        /// The argument given.
        text: String,
    },
    /// The Git revision or path could not be read.
    #[cfg(feature = "git")]
    #[error(transparent)]
    Git(#[from] git::GitError),
    /// This build reads no Git revisions.
    #[cfg(not(feature = "git"))]
    #[error("{text:?}: this olmsat was built without Git support (feature \"git\")")]
    NoGit {
        /// The argument given.
        text: String,
    },
}

impl Input {
    /// Read a command-line argument: `-`, `git:REV:PATH`, or a path.
    pub fn parse(text: &str) -> Result<Input, SourceError> {
        if text == "-" {
            return Ok(Input::Stdin);
        }
        if let Some(rest) = text.strip_prefix("git:") {
            let Some((rev, path)) = rest.split_once(':') else {
                return Err(SourceError::MalformedGit {
                    text: text.to_owned(),
                });
            };
            if rev.is_empty() {
                return Err(SourceError::MalformedGit {
                    text: text.to_owned(),
                });
            }
            let path = path.trim_matches('/');
            let path = if path == "." { "" } else { path };
            return Ok(Input::Git {
                rev: rev.to_owned(),
                path: path.to_owned(),
            });
        }
        Ok(Input::Path(PathBuf::from(text)))
    }

    /// Load the catalog, a Git input from the repository that contains `cwd`.
    pub fn load_in(&self, cwd: &Path) -> Result<Loaded, SourceError> {
        match self {
            Input::Path(p) => Ok(load::load_path(p)?),
            Input::Stdin => Ok(load::load_path(Path::new("-"))?),
            #[cfg(feature = "git")]
            Input::Git { rev, path } => Ok(git::load(cwd, rev, path)?),
            #[cfg(not(feature = "git"))]
            Input::Git { .. } => {
                let _ = cwd;
                Err(SourceError::NoGit {
                    text: self.to_string(),
                })
            }
        }
    }

    /// Load the catalog; a Git input from the repository of the current directory.
    pub fn load(&self) -> Result<Loaded, SourceError> {
        self.load_in(Path::new("."))
    }

    /// [`Input::load`], except that a Git input whose path is not in its
    /// revision (a pull request that creates the catalog directory, diffed
    /// against a base that predates it) is an empty catalog, returned with a
    /// note saying so. `diff` reads its inputs this way.
    pub fn load_or_empty(&self) -> Result<(Loaded, Option<String>), SourceError> {
        match self.load() {
            Ok(l) => Ok((l, None)),
            Err(e) if e.is_missing_path() => Ok((
                Loaded::default(),
                Some(format!("{e}; compared as an empty catalog")),
            )),
            Err(e) => Err(e),
        }
    }
}

impl SourceError {
    /// Whether the error is a Git input's path missing from its revision
    /// (the revision itself exists).
    pub fn is_missing_path(&self) -> bool {
        #[cfg(feature = "git")]
        if let SourceError::Git(e) = self {
            return e.is_missing_path();
        }
        false
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Path(p) => write!(f, "{}", p.display()),
            Input::Stdin => f.write_str("-"),
            Input::Git { rev, path } => write!(f, "git:{rev}:{path}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_inputs() {
        assert_eq!(Input::parse("-").unwrap(), Input::Stdin);
        assert_eq!(
            Input::parse("catalogs/v4.20").unwrap(),
            Input::Path(PathBuf::from("catalogs/v4.20"))
        );
        assert_eq!(
            Input::parse("git:origin/main:catalogs/v4.20/").unwrap(),
            Input::Git {
                rev: "origin/main".into(),
                path: "catalogs/v4.20".into()
            }
        );
        assert_eq!(
            Input::parse("git:HEAD:").unwrap(),
            Input::Git {
                rev: "HEAD".into(),
                path: String::new()
            }
        );
        assert!(matches!(
            Input::parse("git:HEAD"),
            Err(SourceError::MalformedGit { .. })
        ));
        assert!(matches!(
            Input::parse("git::x"),
            Err(SourceError::MalformedGit { .. })
        ));
    }
}
