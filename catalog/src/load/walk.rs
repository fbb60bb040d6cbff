//! Walking a catalog directory as opm's `declcfg.LoadFS` does: recursively,
//! every file whatever its name, except `.indexignore` files, which hold
//! gitignore-style patterns scoped to their own directory.
//!
//! The walk itself is [`olmsat_io::Walk`], the one policy for every
//! directory olmsat reads: a root given as a link is followed; inside a
//! catalog, links to files and directories are followed when their target
//! lies inside the catalog root, links pointing outside it are skipped with
//! a warning (unless the user asks to follow them), link loops are errors,
//! and named pipes, sockets and devices are skipped with a warning.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use olmsat_io::{SkipReason, Walk, WalkProblem};

use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// Name of the ignore files.
pub const IGNORE_FILE: &str = ".indexignore";

/// A problem met while walking (the walk goes on past it).
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// A link inside the catalog points outside it (a warning: it is skipped).
    #[error("skipped: symbolic link points outside the catalog ({})", .0.display())]
    LinkOutside(PathBuf),
    /// A named pipe, socket or device (a warning: it is skipped).
    #[error("skipped: a {0}, not a regular file (olmsat reads regular files only)")]
    NotRegular(olmsat_io::FileKind),
    /// Anything the walk could not get past: a link that cannot be
    /// followed, a loop, a directory that cannot be listed.
    #[error(transparent)]
    Walk(#[from] WalkProblem),
}

impl WalkError {
    /// The diagnostic for this problem at `path` (when known).
    fn at(self, path: Option<&Path>) -> Diagnostic {
        let d = match self {
            WalkError::LinkOutside(_) => {
                Diagnostic::new(Rule::SymlinkOutsideCatalog, self.to_string())
            }
            WalkError::NotRegular(_) => Diagnostic::new(Rule::SpecialFileSkipped, self.to_string()),
            WalkError::Walk(_) => Diagnostic::new(Rule::Unreadable, self.to_string()),
        };
        match path {
            Some(p) => d.at(&Location::new(Arc::from(p.display().to_string()), 0)),
            None => d,
        }
    }
}

/// The files of a catalog directory, sorted by path, with problems met on
/// the way; `follow` follows links that leave the directory too.
pub(crate) fn walk(root: &Path, follow: bool) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let walked = Walk::new(root)
        .follow_links(follow)
        .ignore_file(IGNORE_FILE)
        .run();
    let mut diags = Vec::new();
    for p in walked.problems {
        let path = p.path().map(Path::to_path_buf);
        diags.push(WalkError::Walk(p).at(path.as_deref()));
    }
    for s in walked.skipped {
        let e = match s.reason {
            SkipReason::LinkOutside { target } => WalkError::LinkOutside(target),
            SkipReason::NotRegular(kind) => WalkError::NotRegular(kind),
        };
        diags.push(e.at(Some(&s.path)));
    }
    (walked.files, diags)
}
