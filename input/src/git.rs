//! Catalogs read from a Git revision with gitoxide (no `git` process): the
//! blobs under a path of the revision's tree, sorted by path, each loaded as
//! a catalog file named `REV:PATH`. `.indexignore` files are applied as they
//! are to a directory.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use olmsat_catalog::load::ignore::{self, TreeFile};
use olmsat_catalog::load::{self, Loaded};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// Why a Git input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// No repository contains the directory.
    #[error("git:{rev}:{path}: no Git repository at or above {dir} ({message}); run the command inside the repository")]
    NoRepository {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// The directory searched from.
        dir: String,
        /// gitoxide's message.
        message: String,
    },
    /// The revision does not resolve to a commit or tree.
    #[error("git:{rev}:{path}: unknown revision {rev:?} ({message}); give a branch, tag, commit or e.g. HEAD~1")]
    BadRevision {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// gitoxide's message.
        message: String,
    },
    /// The path is not in the revision's tree.
    #[error("git:{rev}:{path}: no such path in revision {rev}")]
    NoPath {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
    },
    /// An object could not be read.
    #[error("git:{rev}:{path}: cannot read {what}: {message}")]
    Read {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// What was being read.
        what: String,
        /// gitoxide's message.
        message: String,
    },
}

/// A file of the revision: its path relative to the input path, and its bytes.
struct File {
    rel: String,
    data: Vec<u8>,
}

impl TreeFile for File {
    fn rel(&self) -> &str {
        &self.rel
    }
    fn data(&self) -> &[u8] {
        &self.data
    }
}

/// Load the catalog at `path` of revision `rev` of the repository that
/// contains `dir`.
pub fn load(dir: &Path, rev: &str, path: &str) -> Result<Loaded, GitError> {
    let read_err = |what: String, e: &dyn std::fmt::Display| GitError::Read {
        rev: rev.to_owned(),
        path: path.to_owned(),
        what,
        message: e.to_string(),
    };
    let repo = gix::discover(dir).map_err(|e| GitError::NoRepository {
        rev: rev.to_owned(),
        path: path.to_owned(),
        dir: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let bad_rev = |e: &dyn std::fmt::Display| GitError::BadRevision {
        rev: rev.to_owned(),
        path: path.to_owned(),
        message: e.to_string(),
    };
    let id = repo.rev_parse_single(rev).map_err(|e| bad_rev(&e))?;
    let tree = id
        .object()
        .map_err(|e| bad_rev(&e))?
        .peel_to_tree()
        .map_err(|e| bad_rev(&e))?;
    let name = |rel: &str| match (path.is_empty(), rel.is_empty()) {
        (true, _) => format!("{rev}:{rel}"),
        (false, true) => format!("{rev}:{path}"),
        (false, false) => format!("{rev}:{path}/{rel}"),
    };
    let mut files = Vec::new();
    let mut diagnostics = Vec::new();
    if path.is_empty() {
        collect(&tree, "", &mut files, &mut diagnostics, &name)
            .map_err(|(what, e)| read_err(what, &e))?;
    } else {
        let entry = tree
            .lookup_entry_by_path(path)
            .map_err(|e| read_err("the tree".into(), &e))?
            .ok_or_else(|| GitError::NoPath {
                rev: rev.to_owned(),
                path: path.to_owned(),
            })?;
        let object = entry.object().map_err(|e| read_err(path.to_owned(), &e))?;
        if entry.mode().is_tree() {
            let sub = object
                .try_into_tree()
                .map_err(|e| read_err(path.to_owned(), &e))?;
            collect(&sub, "", &mut files, &mut diagnostics, &name)
                .map_err(|(what, e)| read_err(what, &e))?;
        } else if entry.mode().is_blob() {
            files.push(File {
                rel: String::new(),
                data: object.detach().data,
            });
        } else {
            return Err(GitError::NoPath {
                rev: rev.to_owned(),
                path: path.to_owned(),
            });
        }
    }
    let files = ignore::apply(files, &mut diagnostics, &name);
    let mut out = Loaded {
        files: files.len(),
        ..Loaded::default()
    };
    let parts: Vec<Loaded> = files
        .par_iter()
        .map(|f| load::load_bytes(&name(&f.rel), &f.data))
        .collect();
    for p in parts {
        out.config.merge(p.config);
        out.diagnostics.extend(p.diagnostics);
    }
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    Ok(out)
}

/// Every blob below `tree` (recursively), with paths relative to it, sorted
/// by path. Symbolic links and submodules are skipped with a warning.
fn collect(
    tree: &gix::Tree<'_>,
    prefix: &str,
    files: &mut Vec<File>,
    diagnostics: &mut Vec<Diagnostic>,
    name: &dyn Fn(&str) -> String,
) -> Result<(), (String, gix::Error)> {
    let mut stack: Vec<(gix::Tree<'_>, String)> = vec![(tree.clone(), prefix.to_owned())];
    while let Some((t, prefix)) = stack.pop() {
        for entry in t.iter() {
            let entry = entry.map_err(|e| (prefix.clone(), e))?;
            let rel = if prefix.is_empty() {
                entry.filename().to_string()
            } else {
                format!("{prefix}/{}", entry.filename())
            };
            let mode = entry.mode();
            if mode.is_tree() {
                let sub = entry
                    .object()
                    .and_then(|o| o.try_into_tree())
                    .map_err(|e| (rel.clone(), e))?;
                stack.push((sub, rel));
            } else if mode.is_blob() {
                let data = entry.object().map_err(|e| (rel.clone(), e))?.detach().data;
                files.push(File { rel, data });
            } else {
                let what = if mode.is_link() {
                    "a symbolic link"
                } else {
                    "a submodule"
                };
                diagnostics.push(
                    Diagnostic::new(
                        Rule::GitEntrySkipped,
                        format!("skipped: {what} in a Git tree is not read"),
                    )
                    .at(&Location::new(Arc::from(name(&rel)), 0)),
                );
            }
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(())
}
