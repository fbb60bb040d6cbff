//! Walking a directory the user named: its regular files, sorted by path,
//! with every entry that was passed over and why.
//!
//! One policy for every directory olmsat walks (catalogs, bundle trees,
//! cluster dumps, bundle sources of templates):
//! - the directory named is followed even when it is itself a link;
//! - a symbolic link inside it is followed when its target lies inside the
//!   named directory, and skipped (reported) when it leaves it, unless the
//!   user opts in with [`Walk::follow_links`] (`--follow`, as ripgrep's);
//! - only regular files are listed: named pipes, sockets and devices are
//!   skipped (reported), so a walk never hangs on a pipe or reads a device;
//! - a link loop, a broken link or an unreadable directory is a problem,
//!   and the walk goes on past it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::kind::FileKind;

/// A directory walk: build it, then [`run`](Walk::run) it.
///
/// ```
/// use olmsat_io::{SkipReason, Walk};
///
/// let outside = tempfile::tempdir().expect("a directory");
/// std::fs::write(outside.path().join("token"), "secret").expect("written");
/// let dir = tempfile::tempdir().expect("a directory");
/// std::fs::write(dir.path().join("catalog.yaml"), "schema: olm.package").expect("written");
/// # #[cfg(unix)]
/// std::os::unix::fs::symlink(outside.path().join("token"), dir.path().join("kubeconfig"))
///     .expect("a link");
/// let walked = Walk::new(dir.path()).run();
/// assert_eq!(walked.files, [dir.path().join("catalog.yaml")]);
/// # #[cfg(unix)]
/// assert!(matches!(walked.skipped[0].reason, SkipReason::LinkOutside { .. }));
/// ```
#[derive(Debug, Clone)]
pub struct Walk {
    root: PathBuf,
    follow: bool,
    ignore_file: Option<String>,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// The regular files, sorted by path (each named below the root as
    /// given, links inside the directory by their own path).
    pub files: Vec<PathBuf>,
    /// Entries passed over on purpose, in the order met.
    pub skipped: Vec<Skipped>,
    /// Problems met on the way (the walk went on past each).
    pub problems: Vec<WalkProblem>,
}

/// An entry a walk passed over on purpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The entry.
    pub path: PathBuf,
    /// Why.
    pub reason: SkipReason,
}

/// Why a walk passed an entry over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// A symbolic link whose target lies outside the directory walked.
    LinkOutside {
        /// Where it points (resolved).
        target: PathBuf,
    },
    /// Not a regular file.
    NotRegular(FileKind),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::LinkOutside { target } => write!(
                f,
                "symbolic link points outside the directory ({}); --follow follows it",
                target.display()
            ),
            SkipReason::NotRegular(kind) => {
                write!(f, "a {kind}, not a regular file")
            }
        }
    }
}

/// A problem met while walking.
#[derive(Debug, thiserror::Error)]
pub enum WalkProblem {
    /// A link whose target cannot be found.
    #[error("cannot follow symbolic link: {source}")]
    CannotFollow {
        /// The link.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A link to a directory that holds it.
    #[error("symbolic link loop: points back to {}", .ancestor.display())]
    Loop {
        /// The link.
        path: PathBuf,
        /// The directory it points back to.
        ancestor: PathBuf,
    },
    /// A directory or file that cannot be listed or inspected.
    #[error("{source}")]
    Io {
        /// The entry, when known.
        path: Option<PathBuf>,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Anything else the walker reports (an unreadable ignore file, ...).
    #[error("{source}")]
    Other {
        /// The entry, when known.
        path: Option<PathBuf>,
        /// Why.
        #[source]
        source: ignore::Error,
    },
}

impl WalkProblem {
    /// The entry the problem is about, when known.
    pub fn path(&self) -> Option<&Path> {
        match self {
            WalkProblem::CannotFollow { path, .. } | WalkProblem::Loop { path, .. } => Some(path),
            WalkProblem::Io { path, .. } | WalkProblem::Other { path, .. } => path.as_deref(),
        }
    }
}

impl Walk {
    /// A walk of `root`, following no link that leaves it.
    pub fn new(root: impl Into<PathBuf>) -> Walk {
        Walk {
            root: root.into(),
            follow: false,
            ignore_file: None,
        }
    }

    /// Follow symbolic links that leave the directory too (loops are still
    /// found).
    pub fn follow_links(mut self, follow: bool) -> Walk {
        self.follow = follow;
        self
    }

    /// Files called `name` hold gitignore-style patterns scoped to their own
    /// directory (as opm's `.indexignore`); they are not listed themselves.
    pub fn ignore_file(mut self, name: &str) -> Walk {
        self.ignore_file = Some(name.to_owned());
        self
    }

    /// Walk.
    pub fn run(self) -> Walked {
        let skipped: Arc<Mutex<Vec<Skipped>>> = Arc::default();
        let canonical_root =
            std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let mut wb = ignore::WalkBuilder::new(&self.root);
        wb.standard_filters(false)
            .follow_links(true)
            .sort_by_file_path(|a, b| a.cmp(b));
        if let Some(name) = &self.ignore_file {
            wb.add_custom_ignore_filename(name);
        }
        let mut walked = Walked::default();
        {
            let skipped = Arc::clone(&skipped);
            let follow = self.follow;
            wb.filter_entry(move |e| {
                if e.depth() == 0 || !e.path_is_symlink() {
                    return true;
                }
                match std::fs::canonicalize(e.path()) {
                    Ok(target) if follow || target.starts_with(&canonical_root) => true,
                    Ok(target) => {
                        if let Ok(mut s) = skipped.lock() {
                            s.push(Skipped {
                                path: e.path().to_path_buf(),
                                reason: SkipReason::LinkOutside { target },
                            });
                        }
                        false
                    }
                    // A broken link: the walker reports it.
                    Err(_) => true,
                }
            });
        }
        for entry in wb.build() {
            match entry {
                Ok(e) => {
                    let kind = e.file_type().map_or(FileKind::Other, FileKind::of);
                    if kind == FileKind::Directory {
                        continue;
                    }
                    if self
                        .ignore_file
                        .as_deref()
                        .is_some_and(|n| e.file_name() == n)
                    {
                        continue;
                    }
                    if kind != FileKind::Regular {
                        if e.depth() == 0 {
                            // The root itself, named by the user: theirs to read.
                            walked.files.push(e.into_path());
                        } else {
                            walked.skipped.push(Skipped {
                                path: e.into_path(),
                                reason: SkipReason::NotRegular(kind),
                            });
                        }
                        continue;
                    }
                    walked.files.push(e.into_path());
                }
                Err(err) => walked.problems.push(problem(err, None)),
            }
        }
        if let Ok(mut s) = skipped.lock() {
            let mut links = std::mem::take(&mut *s);
            links.append(&mut walked.skipped);
            walked.skipped = links;
        }
        walked
    }
}

/// The walker's error as a [`WalkProblem`], with the innermost path it names.
fn problem(err: ignore::Error, path: Option<PathBuf>) -> WalkProblem {
    match err {
        ignore::Error::WithPath { path, err } => problem(*err, Some(path)),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            problem(*err, path)
        }
        ignore::Error::Loop { ancestor, child } => WalkProblem::Loop {
            path: child,
            ancestor,
        },
        ignore::Error::Io(source) => match path {
            Some(path) if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_symlink()) => {
                WalkProblem::CannotFollow { path, source }
            }
            path => WalkProblem::Io { path, source },
        },
        other => WalkProblem::Other {
            path,
            source: other,
        },
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn mkfifo(p: &Path) {
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    #[test]
    fn links_inside_are_followed_and_links_outside_skipped() {
        let outside = tempfile::tempdir().expect("dir");
        std::fs::write(outside.path().join("secret"), "x").expect("write");
        std::fs::create_dir(outside.path().join("d")).expect("dir");
        std::fs::write(outside.path().join("d/f"), "x").expect("write");
        let t = tempfile::tempdir().expect("dir");
        let r = t.path();
        std::fs::create_dir(r.join("a")).expect("dir");
        std::fs::write(r.join("a/one.yaml"), "x").expect("write");
        symlink(r.join("a/one.yaml"), r.join("inside")).expect("link");
        symlink(outside.path().join("secret"), r.join("out-file")).expect("link");
        symlink(outside.path().join("d"), r.join("out-dir")).expect("link");
        let w = Walk::new(r).run();
        assert_eq!(w.files, [r.join("a/one.yaml"), r.join("inside")]);
        let skipped: Vec<&Path> = w.skipped.iter().map(|s| s.path.as_path()).collect();
        assert_eq!(skipped, [r.join("out-dir"), r.join("out-file")]);
        assert!(w.problems.is_empty(), "{:?}", w.problems);

        let w = Walk::new(r).follow_links(true).run();
        assert_eq!(w.files.len(), 4, "{:?}", w.files);
        assert!(w.skipped.is_empty());
    }

    #[test]
    fn a_root_given_as_a_link_is_followed() {
        let t = tempfile::tempdir().expect("dir");
        std::fs::create_dir(t.path().join("real")).expect("dir");
        std::fs::write(t.path().join("real/f"), "x").expect("write");
        let other = tempfile::tempdir().expect("dir");
        symlink(t.path().join("real"), other.path().join("link")).expect("link");
        let w = Walk::new(other.path().join("link")).run();
        assert_eq!(w.files, [other.path().join("link/f")]);
    }

    #[test]
    fn special_files_are_skipped() {
        let t = tempfile::tempdir().expect("dir");
        mkfifo(&t.path().join("pipe"));
        std::fs::write(t.path().join("z"), "x").expect("write");
        symlink("/dev/zero", t.path().join("zero")).expect("link");
        let w = Walk::new(t.path()).follow_links(true).run();
        assert_eq!(w.files, [t.path().join("z")]);
        let reasons: Vec<String> = w.skipped.iter().map(|s| s.reason.to_string()).collect();
        assert_eq!(
            reasons,
            [
                "a named pipe, not a regular file",
                "a character device, not a regular file"
            ]
        );
    }

    #[test]
    fn loops_and_broken_links_are_problems() {
        let t = tempfile::tempdir().expect("dir");
        std::fs::create_dir(t.path().join("d")).expect("dir");
        symlink(t.path().join("d"), t.path().join("d/loop")).expect("link");
        symlink(t.path().join("gone"), t.path().join("broken")).expect("link");
        let w = Walk::new(t.path()).run();
        assert!(w.files.is_empty(), "{:?}", w.files);
        let texts: Vec<String> = w.problems.iter().map(ToString::to_string).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(
            texts[0].starts_with("cannot follow symbolic link: "),
            "{texts:?}"
        );
        assert!(
            texts[1].starts_with("symbolic link loop: points back to "),
            "{texts:?}"
        );
    }

    #[test]
    fn ignore_files_apply_and_are_not_listed() {
        let t = tempfile::tempdir().expect("dir");
        std::fs::write(t.path().join(".indexignore"), "*.md\n").expect("write");
        std::fs::write(t.path().join("README.md"), "x").expect("write");
        std::fs::write(t.path().join("c.json"), "{}").expect("write");
        let w = Walk::new(t.path()).ignore_file(".indexignore").run();
        assert_eq!(w.files, [t.path().join("c.json")]);
    }
}
