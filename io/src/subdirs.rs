//! The subdirectories of a directory the user named (one level down), as
//! `--catalogs DIR` takes them: each one a catalog.
//!
//! The policy is [`Walk`](crate::Walk)'s: a link to a directory inside the
//! directory named is listed, a link that leaves it is skipped (reported)
//! unless the user opts in, and named pipes, sockets and devices are
//! skipped (reported). Regular files, and links to regular files, are
//! neither listed nor reported: they are not subdirectories, and nothing
//! opens them.

use std::path::{Path, PathBuf};

use crate::kind::FileKind;
use crate::walk::{SkipReason, Skipped};

/// What [`subdirectories`] found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Subdirectories {
    /// The subdirectories, sorted by path, each named below the directory as
    /// given (a link inside it by its own path).
    pub dirs: Vec<PathBuf>,
    /// Entries passed over on purpose, sorted by path.
    pub skipped: Vec<Skipped>,
}

/// The subdirectories of `dir`: directories, and links to directories that
/// stay inside `dir` (or, with `follow_links`, any link to a directory).
/// Links that leave `dir` to a directory and special files are in
/// [`Subdirectories::skipped`]; nothing is opened but `dir` itself.
///
/// ```
/// use olmsat_io::{subdirectories, SkipReason};
///
/// let outside = tempfile::tempdir().expect("a directory");
/// let dir = tempfile::tempdir().expect("a directory");
/// std::fs::create_dir(dir.path().join("community")).expect("a catalog");
/// std::fs::write(dir.path().join("README"), "catalogs").expect("a file");
/// # #[cfg(unix)]
/// std::os::unix::fs::symlink(outside.path(), dir.path().join("docker")).expect("a link");
/// let found = subdirectories(dir.path(), false).expect("listed");
/// assert_eq!(found.dirs, [dir.path().join("community")]);
/// # #[cfg(unix)]
/// assert!(matches!(found.skipped[0].reason, SkipReason::LinkOutside { .. }));
/// ```
///
/// # Errors
///
/// `dir` cannot be listed.
pub fn subdirectories(dir: &Path, follow_links: bool) -> std::io::Result<Subdirectories> {
    let canonical_root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut out = Subdirectories::default();
    for entry in std::fs::read_dir(dir)? {
        // An entry that vanished or cannot be inspected is not a catalog.
        let Ok(entry) = entry else { continue };
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        let kind = if file_type.is_symlink() {
            // A broken link is not a directory either.
            let Ok(target) = std::fs::canonicalize(&path) else {
                continue;
            };
            let Ok(meta) = std::fs::metadata(&target) else {
                continue;
            };
            let kind = FileKind::of(meta.file_type());
            if !follow_links && !target.starts_with(&canonical_root) {
                if kind != FileKind::Regular {
                    out.skipped.push(Skipped {
                        path,
                        reason: SkipReason::LinkOutside { target },
                    });
                }
                continue;
            }
            kind
        } else {
            FileKind::of(file_type)
        };
        match kind {
            FileKind::Directory => out.dirs.push(path),
            FileKind::Regular => {}
            kind => out.skipped.push(Skipped {
                path,
                reason: SkipReason::NotRegular(kind),
            }),
        }
    }
    out.dirs.sort();
    out.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn directories_and_links_inside_are_listed_and_the_rest_reported() {
        let outside = tempfile::tempdir().expect("dir");
        std::fs::create_dir(outside.path().join("creds")).expect("dir");
        std::fs::write(outside.path().join("token"), "x").expect("write");
        let t = tempfile::tempdir().expect("dir");
        let r = t.path();
        std::fs::create_dir(r.join("b")).expect("dir");
        std::fs::create_dir(r.join("a")).expect("dir");
        std::fs::write(r.join("notes.txt"), "x").expect("write");
        symlink(r.join("a"), r.join("c-inside")).expect("link");
        symlink(outside.path().join("creds"), r.join("d-outside")).expect("link");
        symlink(outside.path().join("token"), r.join("e-file-outside")).expect("link");
        symlink(r.join("gone"), r.join("f-broken")).expect("link");
        let c =
            std::ffi::CString::new(r.join("g-pipe").as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);

        let found = subdirectories(r, false).expect("listed");
        assert_eq!(found.dirs, [r.join("a"), r.join("b"), r.join("c-inside")]);
        let skipped: Vec<(&Path, String)> = found
            .skipped
            .iter()
            .map(|s| (s.path.as_path(), s.reason.to_string()))
            .collect();
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert_eq!(skipped[0].0, r.join("d-outside"));
        assert!(
            skipped[0]
                .1
                .starts_with("symbolic link points outside the directory"),
            "{skipped:?}"
        );
        assert_eq!(
            skipped[1],
            (
                r.join("g-pipe").as_path(),
                "a named pipe, not a regular file".to_owned()
            )
        );

        let followed = subdirectories(r, true).expect("listed");
        assert_eq!(
            followed.dirs,
            [
                r.join("a"),
                r.join("b"),
                r.join("c-inside"),
                r.join("d-outside")
            ]
        );
        assert_eq!(followed.skipped.len(), 1);
    }

    #[test]
    fn a_directory_named_through_a_link_is_listed() {
        let t = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(t.path().join("real/cat")).expect("dir");
        let other = tempfile::tempdir().expect("dir");
        symlink(t.path().join("real"), other.path().join("link")).expect("link");
        let found = subdirectories(&other.path().join("link"), false).expect("listed");
        assert_eq!(found.dirs, [other.path().join("link/cat")]);
        assert!(found.skipped.is_empty());
    }

    #[test]
    fn a_missing_directory_is_an_error() {
        let t = tempfile::tempdir().expect("dir");
        assert!(subdirectories(&t.path().join("missing"), false).is_err());
    }
}
