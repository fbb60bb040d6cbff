//! Walking a catalog directory as opm's `declcfg.LoadFS` does: recursively,
//! every file whatever its name, except `.indexignore` files, which hold
//! gitignore-style patterns scoped to their own directory.
//!
//! Symbolic links: a root given as a link is followed. Inside a catalog, links to
//! files and directories are followed when their target lies inside the catalog
//! root; links pointing outside it are skipped with a warning, and link loops are
//! reported as errors.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::diagnostic::{Diagnostic, Rule};
use crate::location::Location;

/// Name of the ignore files.
pub const IGNORE_FILE: &str = ".indexignore";

/// A problem met while walking (the walk goes on past it).
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// A link inside the catalog points outside it (a warning: it is skipped).
    #[error("skipped: symbolic link points outside the catalog ({})", .0.display())]
    LinkOutside(PathBuf),
    /// A link whose target cannot be found.
    #[error("cannot follow symbolic link: {0}")]
    CannotFollow(#[source] std::io::Error),
    /// A link to a directory that holds it.
    #[error("symbolic link loop: points back to {}", .0.display())]
    Loop(PathBuf),
    /// A directory or file that cannot be listed or inspected.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// Anything else the walker reports (an unreadable ignore file, ...).
    #[error("{0}")]
    Other(String),
}

impl WalkError {
    /// The diagnostic for this problem at `path` (when known).
    fn at(self, path: Option<&Path>) -> Diagnostic {
        let d = match self {
            WalkError::LinkOutside(_) => {
                Diagnostic::new(Rule::SymlinkOutsideCatalog, self.to_string())
            }
            _ => Diagnostic::new(Rule::Unreadable, self.to_string()),
        };
        match path {
            Some(p) => d.at(&Location::new(Arc::from(p.display().to_string()), 0)),
            None => d,
        }
    }
}

/// The files of a catalog directory, sorted by path, with problems met on the way.
pub(crate) fn walk(root: &Path) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let problems: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut wb = ignore::WalkBuilder::new(root);
    wb.standard_filters(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .follow_links(true)
        .sort_by_file_path(|a, b| a.cmp(b));
    {
        let problems = Arc::clone(&problems);
        let canonical_root = canonical_root.clone();
        wb.filter_entry(move |e| {
            if !e.path_is_symlink() {
                return true;
            }
            let problem = match std::fs::canonicalize(e.path()) {
                Ok(target) if target.starts_with(&canonical_root) => return true,
                Ok(target) => WalkError::LinkOutside(target),
                Err(err) => WalkError::CannotFollow(err),
            };
            if let Ok(mut p) = problems.lock() {
                p.push(problem.at(Some(e.path())));
            }
            false
        });
    }
    let mut files = Vec::new();
    let mut diags = Vec::new();
    for entry in wb.build() {
        match entry {
            Ok(e) => {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if is_dir || e.file_name() == IGNORE_FILE {
                    continue;
                }
                files.push(e.into_path());
            }
            Err(err) => {
                let (path, problem) = walk_error(err);
                diags.push(problem.at(path.as_deref()));
            }
        }
    }
    if let Ok(mut p) = problems.lock() {
        diags.append(&mut p);
    }
    (files, diags)
}

/// The walker's error as a [`WalkError`], with the path it names (the
/// innermost one).
fn walk_error(err: ignore::Error) -> (Option<PathBuf>, WalkError) {
    match err {
        ignore::Error::WithPath { path, err } => (Some(path), walk_error(*err).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(*err)
        }
        ignore::Error::Loop { ancestor, child } => (Some(child), WalkError::Loop(ancestor)),
        ignore::Error::Io(e) => (None, WalkError::Io(e)),
        other => (None, WalkError::Other(other.to_string())),
    }
}
