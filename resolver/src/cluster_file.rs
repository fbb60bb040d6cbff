//! Reading cluster state (Subscriptions, ClusterServiceVersions,
//! CatalogSources, OperatorGroups as YAML) from files, directory trees (an
//! `oc adm must-gather` tree keeps one object per file) and standard input.

use std::path::{Path, PathBuf};

use olmsat_catalog::LoadError;

use crate::cluster::{self, ClusterError, ClusterState};

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
    /// The file could not be read whole.
    #[error(transparent)]
    Read(#[from] LoadError),
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
    #[error("{name}: no .yaml, .yml or .json file in this directory or below it")]
    EmptyDirectory {
        /// The directory given.
        name: String,
    },
    /// The YAML does not describe a cluster state.
    #[error(transparent)]
    Parse(#[from] ClusterError),
}

/// The name standard input has in locations.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether a file in a directory tree is read: YAML or JSON by its extension.
fn is_manifest(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "yaml" | "yml" | "json"))
}

/// Every manifest file under `dir`, sorted by path. Hidden files and ignore
/// files count for nothing (a dump is read whole); directory links are not
/// followed (a must-gather tree has none, and they could loop).
fn manifests_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ClusterFileError> {
    let walk = ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .follow_links(false)
        .sort_by_file_path(Path::cmp)
        .build();
    for entry in walk {
        let entry = entry.map_err(|e| ClusterFileError::Open {
            name: dir.display().to_string(),
            source: e
                .into_io_error()
                .unwrap_or_else(|| std::io::Error::other("unreadable directory entry")),
        })?;
        let path = entry.path();
        let is_file = entry.file_type().is_some_and(|t| t.is_file())
            || (entry.path_is_symlink() && path.is_file());
        if is_file && is_manifest(path) {
            out.push(path.to_path_buf());
        }
    }
    Ok(())
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
    /// order), or `-` for standard input.
    ///
    /// # Errors
    ///
    /// The first input that cannot be opened, read or parsed, or a directory
    /// without a file to read ([`ClusterFileError::EmptyDirectory`]).
    pub fn read_all<P: AsRef<Path>>(inputs: &[P]) -> Result<ClusterState, ClusterFileError> {
        let mut state = ClusterState::default();
        for input in inputs {
            let path = input.as_ref();
            if path == Path::new("-") {
                let bytes = olmsat_catalog::read_limited(std::io::stdin().lock(), STDIN_NAME)?;
                add_text(&mut state, STDIN_NAME, bytes)?;
            } else if path.is_dir() {
                let mut files = Vec::new();
                manifests_under(path, &mut files)?;
                if files.is_empty() {
                    return Err(ClusterFileError::EmptyDirectory {
                        name: path.display().to_string(),
                    });
                }
                for file in files {
                    add_file(&mut state, &file)?;
                }
            } else {
                add_file(&mut state, path)?;
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

fn add_file(state: &mut ClusterState, path: &Path) -> Result<(), ClusterFileError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| ClusterFileError::Open {
        name: name.clone(),
        source,
    })?;
    let bytes = olmsat_catalog::read_limited(file, &name)?;
    add_text(state, &name, bytes)
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
}
