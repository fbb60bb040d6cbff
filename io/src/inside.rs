//! Paths read from a file (an `images.yaml` entry, say) that must stay in
//! the directory the user named.

use std::path::{Component, Path, PathBuf};

/// A path that leaves the directory it must stay in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Outside {
    /// An absolute path.
    #[error("{0:?} is an absolute path; it must be relative to {1}")]
    Absolute(String, String),
    /// A path that climbs out with `..`.
    #[error("{0:?} leaves {1} (through `..`)")]
    Climbs(String, String),
    /// A path that leaves through a symbolic link.
    #[error("{0:?} leaves {1} through a symbolic link (to {2})")]
    Link(String, String, String),
}

/// `rel` joined to `root`, when it stays inside `root`: not absolute, no
/// `..` that climbs above `root`, and (when it exists) not leaving through
/// a symbolic link unless `follow` is set.
///
/// ```
/// use std::path::Path;
/// use olmsat_io::inside;
///
/// let root = Path::new("bundles");
/// assert_eq!(inside(root, "etcd/0.9.4", false).expect("inside"), root.join("etcd/0.9.4"));
/// assert!(inside(root, "../victim/bundle", false).is_err());
/// assert!(inside(root, "/etc", false).is_err());
/// ```
///
/// # Errors
///
/// [`Outside`], naming the path and the directory.
pub fn inside(root: &Path, rel: &str, follow: bool) -> Result<PathBuf, Outside> {
    let shown = || root.display().to_string();
    let path = Path::new(rel);
    if path.has_root() || path.is_absolute() {
        return Err(Outside::Absolute(rel.to_owned(), shown()));
    }
    let mut depth = 0usize;
    for c in path.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| Outside::Climbs(rel.to_owned(), shown()))?;
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(Outside::Absolute(rel.to_owned(), shown()));
            }
        }
    }
    let joined = root.join(path);
    if !follow {
        if let (Ok(r), Ok(t)) = (std::fs::canonicalize(root), std::fs::canonicalize(&joined)) {
            if !t.starts_with(&r) {
                return Err(Outside::Link(
                    rel.to_owned(),
                    shown(),
                    t.display().to_string(),
                ));
            }
        }
    }
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_stay_inside_are_joined() {
        let r = Path::new("src");
        assert_eq!(inside(r, "a/./b", false).expect("in"), r.join("a/./b"));
        assert_eq!(inside(r, "a/../b", false).expect("in"), r.join("a/../b"));
        assert_eq!(inside(r, ".", false).expect("in"), r.join("."));
    }

    #[test]
    fn paths_that_leave_are_refused() {
        let r = Path::new("src");
        assert_eq!(
            inside(r, "a/../../x", false).expect_err("out").to_string(),
            "\"a/../../x\" leaves src (through `..`)"
        );
        assert_eq!(
            inside(r, "/etc/passwd", false)
                .expect_err("out")
                .to_string(),
            "\"/etc/passwd\" is an absolute path; it must be relative to src"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_out_are_refused_unless_followed() {
        let out = tempfile::tempdir().expect("dir");
        let t = tempfile::tempdir().expect("dir");
        std::os::unix::fs::symlink(out.path(), t.path().join("l")).expect("link");
        let e = inside(t.path(), "l", false).expect_err("out");
        assert!(matches!(e, Outside::Link(..)), "{e}");
        assert!(inside(t.path(), "l", true).is_ok());
    }
}
