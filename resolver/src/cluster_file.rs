//! Reading a cluster file (Subscriptions, ClusterServiceVersions,
//! CatalogSources as YAML) from disk.

use std::path::Path;

use olmsat_graph::LoadError;

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
    /// The YAML does not describe a cluster state.
    #[error(transparent)]
    Parse(#[from] ClusterError),
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
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|source| ClusterFileError::Open {
            name: name.clone(),
            source,
        })?;
        let bytes = olmsat_graph::read_limited(file, &name)?;
        let text = String::from_utf8(bytes).map_err(|source| ClusterFileError::NotUtf8 {
            name: name.clone(),
            source,
        })?;
        Ok(ClusterState::from_yaml(&name, &text)?)
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
}
