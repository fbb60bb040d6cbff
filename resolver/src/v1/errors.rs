//! The v1 resolver's errors, with operator-controller's exact texts.

use std::fmt;

use olmsat_versions::masterminds::ConstraintError;
use olmsat_versions::version::VersionError;

use super::selector::SelectorError;
pub use olmsat_versions::version::go_quote;

/// A string list as Go's `%v` prints it: `[a b c]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoList(pub Vec<String>);

impl fmt::Display for GoList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.0.join(" "))
    }
}

/// Why a catalog's package could not be fetched (`client.GetPackage`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The catalog's Serving condition is not True, or (offline) no content
    /// was given for it.
    #[error("catalog {} is not being served", go_quote(.0))]
    NotServed(String),
}

/// Why the installed bundle's version could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstalledError {
    /// `status.install.bundle.version` is not a semantic version.
    #[error("failed to get version and release of installed bundle: {0}")]
    Version(VersionError),
    /// The version or explicit release cannot be parsed.
    #[error("failed to parse installed bundle version and release: {0}")]
    Release(VersionError),
}

/// An error while walking the catalogs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// A catalog's package could not be fetched.
    #[error("error getting package {} from catalog {}: {cause}", go_quote(.package), go_quote(.catalog))]
    GetPackage {
        /// The package.
        package: String,
        /// The catalog.
        catalog: String,
        /// Why.
        cause: FetchError,
    },
    /// Upgrade edges could not be computed.
    #[error("error finding upgrade edges: {0}")]
    Edges(InstalledError),
}

/// No single bundle: the reference's `resolutionError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotResolved {
    /// The package.
    pub package: String,
    /// The installed version as written, if something is installed.
    pub installed_version: Option<String>,
    /// The version range as written (empty: none).
    pub version: String,
    /// The requested channels (empty: none).
    pub channels: Vec<String>,
    /// The catalogs whose picks tie (sorted; empty when nothing was found).
    pub ambiguous: Vec<String>,
}

impl fmt::Display for NotResolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        if let Some(v) = &self.installed_version {
            s.push_str(&format!(
                "error upgrading from currently installed version {}: ",
                go_quote(v)
            ));
        }
        if self.ambiguous.len() > 1 {
            s.push_str(&format!(
                "found bundles for package {} ",
                go_quote(&self.package)
            ));
        } else {
            s.push_str(&format!(
                "no bundles found for package {} ",
                go_quote(&self.package)
            ));
        }
        if !self.version.is_empty() {
            s.push_str(&format!("matching version {} ", go_quote(&self.version)));
        }
        if !self.channels.is_empty() {
            s.push_str(&format!("in channels {} ", GoList(self.channels.clone())));
        }
        if self.ambiguous.len() > 1 {
            s.push_str(&format!(
                "in multiple catalogs with the same priority {} ",
                GoList(self.ambiguous.clone())
            ));
        }
        f.write_str(s.trim())
    }
}

impl std::error::Error for NotResolved {}

/// Why a ClusterExtension does not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum V1Error {
    /// `spec.source.catalog.selector` is invalid.
    #[error("desired catalog selector is invalid: {0}")]
    Selector(SelectorError),
    /// `spec.source.catalog.version` is not a Masterminds range.
    #[error("desired version range {} is invalid: {source}", go_quote(.range))]
    Range {
        /// The range as written.
        range: String,
        /// The parse error.
        source: ConstraintError,
    },
    /// The API server would refuse the ClusterExtension (its CRD's validation),
    /// so it could not be on a cluster.
    #[error("ClusterExtension is invalid: {0}")]
    Admission(AdmissionError),
    /// Walking the catalogs failed.
    #[error("error walking catalogs: {0}")]
    Walk(WalkError),
    /// No bundle, or bundles of equal standing in several catalogs.
    #[error("{0}")]
    NotResolved(NotResolved),
    /// The chosen bundle declares a dependency, which v1 does not resolve.
    #[error("validating bundle {}: bundle {} has a dependency declared via property {} which is currently not supported", go_quote(.bundle), go_quote(.bundle), go_quote(.property))]
    Dependency {
        /// The chosen bundle.
        bundle: String,
        /// The property type.
        property: String,
    },
    /// The chosen bundle's version cannot be read.
    #[error("error getting resolved bundle version for bundle {}: {reason}", go_quote(.bundle))]
    BundleVersion {
        /// The chosen bundle.
        bundle: String,
        /// Why.
        reason: String,
    },
}

impl V1Error {
    /// The exit code class: 2 when the input itself is invalid (a malformed
    /// range or selector, an unreadable installed version), 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            V1Error::Selector(_) | V1Error::Range { .. } | V1Error::Admission(_) => 2,
            V1Error::Walk(WalkError::Edges(_)) => 2,
            _ => 1,
        }
    }
}

/// The CRD's `maxLength` of `spec.source.catalog.version`.
pub const MAX_VERSION_LENGTH: usize = 64;

/// Why the API server would refuse a ClusterExtension's version (so it could
/// not exist on a cluster). `Display` is the API server's field error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdmissionError {
    /// The CEL rule's message.
    #[error("spec.source.catalog.version: Invalid value: {value:?}: invalid version expression")]
    Expression {
        /// The version as written.
        value: String,
    },
    /// Longer than the schema allows.
    #[error(
        "spec.source.catalog.version: Too long: may not be more than {MAX_VERSION_LENGTH} bytes"
    )]
    TooLong,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_error_texts() {
        let mut e = NotResolved {
            package: "p".into(),
            installed_version: None,
            version: String::new(),
            channels: Vec::new(),
            ambiguous: Vec::new(),
        };
        assert_eq!(e.to_string(), r#"no bundles found for package "p""#);
        e.version = "4.0.0".into();
        e.channels = vec!["beta".into(), "alpha".into()];
        assert_eq!(
            e.to_string(),
            r#"no bundles found for package "p" matching version "4.0.0" in channels [beta alpha]"#
        );
        e.installed_version = Some("0.1.0".into());
        e.channels.clear();
        e.ambiguous = vec!["a".into(), "b".into()];
        assert_eq!(
            e.to_string(),
            r#"error upgrading from currently installed version "0.1.0": found bundles for package "p" matching version "4.0.0" in multiple catalogs with the same priority [a b]"#
        );
    }
}
