//! Reading cluster state (Subscriptions, ClusterServiceVersions,
//! CatalogSources, OperatorGroups as YAML) from files, directory trees (an
//! `oc adm must-gather` tree keeps one object per file) and standard input.
//!
//! Only what the user named is read: in a directory, symbolic links that
//! leave it are not followed, and named pipes, sockets and devices are not
//! opened; each entry passed over is kept in [`ClusterState::skipped`] (and
//! told in [`ClusterState::notes`]). A path named on the command line is
//! read even when it is a link, and a named pipe named there (`<(…)`) is
//! read as a stream.

use std::path::{Path, PathBuf};

use olmsat_io::{ReadError, SkipReason, Walk, WalkProblem, MAX_FILE_BYTES};

use crate::cluster::{self, ClusterError, ClusterState};
pub use crate::skipped::{SkipCause, SkippedFile};

/// Why a cluster file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ClusterFileError {
    /// The file could not be opened.
    #[error("{name}: {source}")]
    Open {
        /// The path given.
        name: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file was refused: not a regular file, or over the size limit.
    #[error("{name}: {source}")]
    Refused {
        /// The path given (or `<stdin>`).
        name: String,
        /// Why.
        #[source]
        source: ReadError,
    },
    /// The file is not UTF-8 text.
    #[error("{name}: not UTF-8 text: {source}")]
    NotUtf8 {
        /// The path given.
        name: String,
        /// Where the text stops being UTF-8.
        #[source]
        source: std::string::FromUtf8Error,
    },
    /// A directory holds no file olmsat reads.
    #[error("{name}: no .yaml, .yml or .json file in this directory or below it{}", skipped_suffix(.skipped))]
    EmptyDirectory {
        /// The directory given.
        name: String,
        /// The entries passed over in it (links that leave it, special files).
        skipped: Vec<SkippedFile>,
    },
    /// The YAML does not describe a cluster state.
    #[error(transparent)]
    Parse(#[from] ClusterError),
}

/// `" (passed over: a, b)"` for an empty directory that had entries skipped.
fn skipped_suffix(skipped: &[SkippedFile]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let items: Vec<String> = skipped.iter().map(ToString::to_string).collect();
    format!(" (passed over: {})", items.join("; "))
}

/// The name standard input has in locations.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether a file in a directory tree is read: YAML or JSON by its extension.
fn is_manifest(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "yaml" | "yml" | "json"))
}

/// Every manifest file under `dir`, sorted by path, and the entries passed
/// over. Hidden files and ignore files count for nothing (a dump is read
/// whole). Links inside `dir` are followed; links that leave it only with
/// `follow_links`; named pipes, sockets and devices never.
///
/// # Errors
///
/// A directory that cannot be listed ([`ClusterFileError::Open`]).
fn manifests_under(
    dir: &Path,
    follow_links: bool,
) -> Result<(Vec<PathBuf>, Vec<SkippedFile>), ClusterFileError> {
    let walked = Walk::new(dir).follow_links(follow_links).run();
    let skip = |path: PathBuf, reason: SkipCause| SkippedFile {
        path,
        root: dir.to_path_buf(),
        reason,
    };
    let mut skipped: Vec<SkippedFile> = walked
        .skipped
        .into_iter()
        .map(|s| {
            let reason = match s.reason {
                SkipReason::LinkOutside { target } => SkipCause::LinkOutside { target },
                SkipReason::NotRegular(kind) => SkipCause::NotRegular(kind),
            };
            skip(s.path, reason)
        })
        .collect();
    for problem in walked.problems {
        match problem {
            WalkProblem::CannotFollow { path, source } => skipped.push(skip(
                path,
                SkipCause::BrokenLink {
                    error: source.to_string(),
                },
            )),
            WalkProblem::Loop { path, ancestor } => {
                skipped.push(skip(path, SkipCause::Loop { ancestor }));
            }
            WalkProblem::Io { path, source } => {
                return Err(ClusterFileError::Open {
                    name: path
                        .unwrap_or_else(|| dir.to_path_buf())
                        .display()
                        .to_string(),
                    source,
                })
            }
            WalkProblem::Other { path, source } => {
                return Err(ClusterFileError::Open {
                    name: path
                        .unwrap_or_else(|| dir.to_path_buf())
                        .display()
                        .to_string(),
                    source: std::io::Error::other(source.to_string()),
                })
            }
        }
    }
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    let files = walked
        .files
        .into_iter()
        .filter(|p| is_manifest(p))
        .collect();
    Ok((files, skipped))
}

impl ClusterState {
    /// Read the cluster file at `path`: one or more YAML documents holding
    /// Subscriptions, ClusterServiceVersions and CatalogSources.
    ///
    /// ```
    /// use olmsat_resolver::ClusterState;
    ///
    /// let file = std::env::temp_dir().join(format!("olmsat-cluster-doc-{}.yaml", std::process::id()));
    /// std::fs::write(&file, "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: etcd\n  namespace: ops\nspec:\n  name: etcd\n  source: community\n  channel: stable\n").expect("written");
    /// let cluster = ClusterState::read(&file).expect("a cluster state");
    /// assert_eq!(cluster.subscriptions[0].package, "etcd");
    /// std::fs::remove_file(&file).expect("removed");
    /// ```
    ///
    /// # Errors
    ///
    /// A file that cannot be opened ([`ClusterFileError::Open`]), read, or
    /// parsed.
    pub fn read(path: &Path) -> Result<ClusterState, ClusterFileError> {
        ClusterState::read_all(&[path])
    }

    /// Read cluster state from several inputs into one: each a YAML file, a
    /// directory (every `.yaml`, `.yml` and `.json` file below it, in path
    /// order), or `-` for standard input. Links that leave a directory are
    /// not followed ([`ClusterState::read_inputs`] with `follow_links`
    /// false).
    ///
    /// # Errors
    ///
    /// The first input that cannot be opened, read or parsed, or a directory
    /// without a file to read ([`ClusterFileError::EmptyDirectory`]).
    pub fn read_all<P: AsRef<Path>>(inputs: &[P]) -> Result<ClusterState, ClusterFileError> {
        ClusterState::read_inputs(inputs, false)
    }

    /// [`ClusterState::read_all`], choosing whether symbolic links inside a
    /// directory that point outside it are followed (`follow_links`); links
    /// that stay inside are always followed, and named pipes, sockets and
    /// devices inside a directory are never opened. Each entry passed over
    /// is in [`ClusterState::skipped`].
    ///
    /// # Errors
    ///
    /// As [`ClusterState::read_all`].
    pub fn read_inputs<P: AsRef<Path>>(
        inputs: &[P],
        follow_links: bool,
    ) -> Result<ClusterState, ClusterFileError> {
        let mut state = ClusterState::default();
        for input in inputs {
            let path = input.as_ref();
            if path == Path::new("-") {
                let bytes = olmsat_io::read_stream(std::io::stdin().lock(), MAX_FILE_BYTES)
                    .map_err(|e| refused(STDIN_NAME, e))?;
                add_text(&mut state, STDIN_NAME, bytes)?;
            } else if path.is_dir() {
                let (files, skipped) = manifests_under(path, follow_links)?;
                if files.is_empty() {
                    return Err(ClusterFileError::EmptyDirectory {
                        name: path.display().to_string(),
                        skipped,
                    });
                }
                state.skipped.extend(skipped);
                for file in files {
                    let name = file.display().to_string();
                    let bytes = olmsat_io::read_file(&file, MAX_FILE_BYTES)
                        .map_err(|e| refused(&name, e))?;
                    add_text(&mut state, &name, bytes)?;
                }
            } else {
                // Named by the user: followed if a link, streamed if a pipe.
                let name = path.display().to_string();
                let bytes =
                    olmsat_io::read_named(path, MAX_FILE_BYTES).map_err(|e| refused(&name, e))?;
                add_text(&mut state, &name, bytes)?;
            }
        }
        state.drop_duplicates();
        Ok(state)
    }

    /// Parse a cluster file's text; `name` names it in locations.
    ///
    /// # Errors
    ///
    /// YAML that does not describe a cluster state, with where and why.
    pub fn from_yaml(name: &str, text: &str) -> Result<ClusterState, ClusterError> {
        cluster::parse(name, text)
    }
}

/// A read error for `name`: an open failure as [`ClusterFileError::Open`]
/// (the system's words), a refusal as [`ClusterFileError::Refused`].
fn refused(name: &str, e: ReadError) -> ClusterFileError {
    match e {
        ReadError::Io(source) => ClusterFileError::Open {
            name: name.to_owned(),
            source,
        },
        source => ClusterFileError::Refused {
            name: name.to_owned(),
            source,
        },
    }
}

fn add_text(state: &mut ClusterState, name: &str, bytes: Vec<u8>) -> Result<(), ClusterFileError> {
    let text = String::from_utf8(bytes).map_err(|source| ClusterFileError::NotUtf8 {
        name: name.to_owned(),
        source,
    })?;
    Ok(cluster::parse_into(state, name, &text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_an_open_error() {
        let err = ClusterState::read(Path::new("/no/such/cluster.yaml")).expect_err("missing");
        assert!(matches!(err, ClusterFileError::Open { .. }), "{err:?}");
        assert!(
            err.to_string().starts_with("/no/such/cluster.yaml: "),
            "{err}"
        );
    }

    #[test]
    fn text_that_is_not_utf8_is_refused() {
        let file = std::env::temp_dir().join(format!("olmsat-cluster-{}.yaml", std::process::id()));
        std::fs::write(&file, b"kind: \xff\n").expect("written");
        let err = ClusterState::read(&file).expect_err("not UTF-8");
        std::fs::remove_file(&file).expect("removed");
        assert!(err.to_string().contains(": not UTF-8 text: "), "{err}");
    }

    #[test]
    fn a_directory_is_read_recursively_in_path_order() {
        let dir = std::env::temp_dir().join(format!("olmsat-cluster-dir-{}", std::process::id()));
        let subs = dir.join("namespaces/ops/operators.coreos.com/subscriptions");
        std::fs::create_dir_all(&subs).expect("dirs");
        std::fs::write(
            subs.join("b.yaml"),
            "kind: Subscription\nmetadata: {name: b, namespace: ops}\n",
        )
        .expect("b");
        std::fs::write(
            subs.join("a.yml"),
            "kind: Subscription\nmetadata: {name: a, namespace: ops}\n",
        )
        .expect("a");
        std::fs::write(subs.join("notes.log"), "not: [yaml\n").expect("log");
        std::fs::create_dir_all(dir.join("empty")).expect("empty");
        let st = ClusterState::read_all(&[&dir]);
        let empty = ClusterState::read_all(&[dir.join("empty")]);
        std::fs::remove_dir_all(&dir).expect("removed");
        let st = st.expect("read");
        let names: Vec<&str> = st.subscriptions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(st.subscriptions[0]
            .location
            .file
            .ends_with("subscriptions/a.yml"));
        let err = empty.expect_err("empty");
        assert!(
            matches!(err, ClusterFileError::EmptyDirectory { .. }),
            "{err}"
        );
    }

    const SUB: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: etcd, namespace: ops}\nspec: {name: etcd, source: community, channel: stable}\n";

    #[cfg(unix)]
    fn mkfifo(p: &Path) {
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    /// A must-gather tree with links to a credentials file, `/etc/passwd` and
    /// `/proc/self/environ`, and a link to a directory outside: none is
    /// read, each is named in the notes, and a link inside is followed.
    #[cfg(unix)]
    #[test]
    fn links_that_leave_a_directory_are_not_followed_and_are_said() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().expect("dir");
        let creds = outside.path().join("config.json");
        std::fs::write(&creds, r#"{"auths": {"quay.io": {"auth": "c2VjcmV0"}}}"#).expect("write");
        let other = outside.path().join("other");
        std::fs::create_dir(&other).expect("dir");
        std::fs::write(other.join("sub.yaml"), SUB.replace("etcd,", "other,")).expect("write");
        let t = tempfile::tempdir().expect("dir");
        let dump = t.path().join("must-gather");
        std::fs::create_dir_all(dump.join("ops")).expect("dir");
        std::fs::write(dump.join("ops/sub.yaml"), SUB).expect("write");
        symlink(&creds, dump.join("ops/pull-secret.json")).expect("link");
        symlink("/etc/passwd", dump.join("passwd.yaml")).expect("link");
        symlink("/proc/self/environ", dump.join("environ.yaml")).expect("link");
        symlink(&other, dump.join("elsewhere")).expect("link");
        symlink(dump.join("ops/sub.yaml"), dump.join("same.yaml")).expect("link");

        let st = ClusterState::read_all(&[&dump]).expect("read");
        let names: Vec<&str> = st.subscriptions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["etcd"]);
        // The link inside was followed: its object was read twice.
        assert_eq!(st.duplicates, 1);
        let skipped: Vec<&Path> = st.skipped.iter().map(|s| s.path.as_path()).collect();
        assert_eq!(
            skipped,
            [
                dump.join("elsewhere"),
                dump.join("environ.yaml"),
                dump.join("ops/pull-secret.json"),
                dump.join("passwd.yaml"),
            ]
        );
        assert!(st
            .skipped
            .iter()
            .all(|s| matches!(s.reason, SkipCause::LinkOutside { .. })));
        let notes = st.notes();
        assert_eq!(
            notes[2],
            format!(
                "skipped {}: a symbolic link to {}, outside {}; olmsat does not follow links that leave the directory named (name the target itself to read it)",
                dump.join("ops/pull-secret.json").display(),
                std::fs::canonicalize(&creds).expect("canonical").display(),
                dump.display()
            )
        );
        assert!(!notes.concat().contains("auths"), "{notes:?}");

        // Opting in follows the directory link; a file named is read even
        // when it is a link.
        let followed = tempfile::tempdir().expect("dir");
        std::fs::write(followed.path().join("sub.yaml"), SUB).expect("write");
        symlink(&other, followed.path().join("elsewhere")).expect("link");
        let st = ClusterState::read_inputs(&[followed.path()], true).expect("read");
        assert_eq!(st.subscriptions.len(), 2);
        assert!(st.skipped.is_empty());
        let named = t.path().join("named.yaml");
        symlink(other.join("sub.yaml"), &named).expect("link");
        let st = ClusterState::read_all(&[&named]).expect("read");
        assert_eq!(st.subscriptions[0].name, "other");
    }

    /// A named pipe, a socket-free device link and a pipe named on the
    /// command line: the first two are skipped without waiting, the last is
    /// read as a stream.
    #[cfg(unix)]
    #[test]
    fn special_files_in_a_directory_are_skipped_and_a_pipe_named_is_read() {
        let t = tempfile::tempdir().expect("dir");
        let dump = t.path().join("dump");
        std::fs::create_dir(&dump).expect("dir");
        std::fs::write(dump.join("sub.yaml"), SUB).expect("write");
        mkfifo(&dump.join("stuck.yaml"));
        std::os::unix::fs::symlink("/dev/zero", dump.join("zero.yaml")).expect("link");
        let st = ClusterState::read_inputs(&[&dump], true).expect("read");
        assert_eq!(st.subscriptions.len(), 1);
        let reasons: Vec<String> = st.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            reasons,
            [
                format!(
                    "{}: a named pipe, not a regular file; olmsat does not open it",
                    dump.join("stuck.yaml").display()
                ),
                format!(
                    "{}: a character device, not a regular file; olmsat does not open it",
                    dump.join("zero.yaml").display()
                ),
            ]
        );

        let pipe = t.path().join("named-pipe");
        mkfifo(&pipe);
        let writer = {
            let pipe = pipe.clone();
            std::thread::spawn(move || std::fs::write(pipe, SUB).expect("written to the pipe"))
        };
        let st = ClusterState::read_all(&[&pipe]).expect("read from the pipe");
        writer.join().expect("writer");
        assert_eq!(st.subscriptions[0].name, "etcd");
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_with_nothing_but_skipped_entries_says_so() {
        let t = tempfile::tempdir().expect("dir");
        mkfifo(&t.path().join("a.yaml"));
        let err = ClusterState::read_all(&[t.path()]).expect_err("nothing to read");
        assert!(
            matches!(&err, ClusterFileError::EmptyDirectory { skipped, .. } if skipped.len() == 1),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "{}: no .yaml, .yml or .json file in this directory or below it (passed over: {}: a named pipe, not a regular file; olmsat does not open it)",
                t.path().display(),
                t.path().join("a.yaml").display()
            )
        );
    }
}
