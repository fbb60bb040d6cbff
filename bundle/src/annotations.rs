//! `metadata/annotations.yaml`: the labels of a bundle image, written as a file.
//!
//! ```yaml
//! annotations:
//!   operators.operatorframework.io.bundle.mediatype.v1: registry+v1
//!   operators.operatorframework.io.bundle.manifests.v1: manifests/
//!   operators.operatorframework.io.bundle.metadata.v1: metadata/
//!   operators.operatorframework.io.bundle.package.v1: etcd
//!   operators.operatorframework.io.bundle.channels.v1: alpha,stable
//!   operators.operatorframework.io.bundle.channel.default.v1: stable
//! ```
//!
//! The file is authoritative over the image labels: opm and the on-cluster
//! registry read only the file.

use std::collections::BTreeMap;

use crate::yaml::{kind_of, scalar_text, MetaFile, Node};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// The annotation keys.
pub mod keys {
    /// The bundle format: `registry+v1`, `registry+v2` or `plain+v0`.
    pub const MEDIATYPE: &str = "operators.operatorframework.io.bundle.mediatype.v1";
    /// The unversioned media type key the CSV-less bundle proposal writes.
    pub const MEDIATYPE_UNVERSIONED: &str = "operators.operatorframework.io.bundle.mediatype";
    /// The manifests directory, `manifests/`.
    pub const MANIFESTS: &str = "operators.operatorframework.io.bundle.manifests.v1";
    /// The metadata directory, `metadata/`.
    pub const METADATA: &str = "operators.operatorframework.io.bundle.metadata.v1";
    /// The package name.
    pub const PACKAGE: &str = "operators.operatorframework.io.bundle.package.v1";
    /// Comma-separated channel names.
    pub const CHANNELS: &str = "operators.operatorframework.io.bundle.channels.v1";
    /// The default channel.
    pub const DEFAULT_CHANNEL: &str = "operators.operatorframework.io.bundle.channel.default.v1";
}

/// The value the manifests annotation must have.
pub const MANIFESTS_DIR: &str = "manifests/";
/// The value the metadata annotation must have.
pub const METADATA_DIR: &str = "metadata/";

/// One annotation: its value as text and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// The value (numbers and booleans as their text).
    pub value: String,
    /// Where the value is.
    pub location: Location,
}

/// The annotations of a bundle.
#[derive(Debug, Clone)]
pub struct Annotations {
    /// The file they were read from.
    pub location: Location,
    /// Whether the file has an `annotations` mapping at all.
    pub found: bool,
    /// The annotations by key.
    pub values: BTreeMap<String, Annotation>,
}

impl Annotations {
    /// Read the `annotations` member of a parsed annotations file. Values that are
    /// not strings are errors (opm cannot read such a file) but are kept as text.
    pub fn from_meta(m: &MetaFile) -> (Annotations, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut values = BTreeMap::new();
        let mut found = false;
        match m.get("annotations") {
            None => {}
            Some((Node::Map(entries), _)) => {
                found = true;
                for (key, item) in entries {
                    let value = match scalar_text(&item.value) {
                        Some(v) => {
                            if !item.value.is_string() && !item.value.is_null() {
                                diags.push(
                                    Diagnostic::new(Rule::InvalidAnnotations, format!(
                                        "annotation {key:?} must be a string, found a {} (quote it)",
                                        kind_of(&item.value)
                                    ))
                                    .at(&item.location),
                                );
                            }
                            v
                        }
                        None => {
                            diags.push(
                                Diagnostic::new(
                                    Rule::InvalidAnnotations,
                                    format!(
                                        "annotation {key:?} must be a string, found a {}",
                                        kind_of(&item.value)
                                    ),
                                )
                                .at(&item.location),
                            );
                            continue;
                        }
                    };
                    values.insert(
                        key.clone(),
                        Annotation {
                            value,
                            location: item.location.clone(),
                        },
                    );
                }
            }
            Some((Node::Scalar(serde_json::Value::Null), _)) => found = true,
            Some((node, loc)) => diags.push(
                Diagnostic::new(
                    Rule::InvalidAnnotations,
                    format!(
                        "annotations must be a mapping of strings, found a {}",
                        node.kind()
                    ),
                )
                .at(loc),
            ),
        }
        (
            Annotations {
                location: m.location.clone(),
                found,
                values,
            },
            diags,
        )
    }

    /// The annotation called `key`.
    pub fn get(&self, key: &str) -> Option<&Annotation> {
        self.values.get(key)
    }

    /// The value of `key` when present and not blank.
    pub fn non_empty(&self, key: &str) -> Option<&str> {
        self.get(key)
            .map(|a| a.value.trim())
            .filter(|v| !v.is_empty())
    }

    /// The package name, when set.
    pub fn package(&self) -> Option<&str> {
        self.non_empty(keys::PACKAGE)
    }

    /// The channel names: the channels annotation split on commas, trimmed, empty
    /// names dropped, in written order.
    pub fn channels(&self) -> Vec<String> {
        self.get(keys::CHANNELS)
            .map(|a| split_channels(&a.value))
            .unwrap_or_default()
    }

    /// The default channel annotation, when set.
    pub fn default_channel(&self) -> Option<&str> {
        self.non_empty(keys::DEFAULT_CHANNEL)
    }

    /// The default channel as the registry picks it: the annotation when set,
    /// otherwise the only channel when there is exactly one.
    pub fn effective_default_channel(&self) -> Option<String> {
        if let Some(d) = self.default_channel() {
            return Some(d.to_owned());
        }
        let chans = self.channels();
        match chans.as_slice() {
            [only] => Some(only.clone()),
            _ => None,
        }
    }

    /// The media type annotation and its key: the `.v1` key, else the unversioned
    /// key of the CSV-less proposal.
    pub fn media_type(&self) -> Option<(&'static str, &Annotation)> {
        self.get(keys::MEDIATYPE)
            .map(|a| (keys::MEDIATYPE, a))
            .or_else(|| {
                self.get(keys::MEDIATYPE_UNVERSIONED)
                    .map(|a| (keys::MEDIATYPE_UNVERSIONED, a))
            })
    }
}

/// Split a channels annotation value.
pub fn split_channels(v: &str) -> Vec<String> {
    v.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::meta_file;
    use std::sync::Arc;

    fn parse(text: &str) -> (Annotations, Vec<Diagnostic>) {
        let (m, _) = meta_file(&Arc::from("annotations.yaml"), text).unwrap();
        Annotations::from_meta(&m)
    }

    #[test]
    fn reads_values_with_lines() {
        let (a, d) = parse(
            "annotations:\n  operators.operatorframework.io.bundle.package.v1: etcd\n  operators.operatorframework.io.bundle.channels.v1: ' alpha, stable,,'\n",
        );
        assert!(d.is_empty());
        assert!(a.found);
        assert_eq!(a.package(), Some("etcd"));
        assert_eq!(a.channels(), vec!["alpha", "stable"]);
        assert_eq!(a.get(keys::PACKAGE).unwrap().location.line, 2);
        assert_eq!(a.effective_default_channel(), None);
    }

    #[test]
    fn single_channel_is_the_default() {
        let (a, _) =
            parse("annotations:\n  operators.operatorframework.io.bundle.channels.v1: alpha\n");
        assert_eq!(a.effective_default_channel().as_deref(), Some("alpha"));
    }

    #[test]
    fn non_strings_are_errors() {
        let (a, d) = parse("annotations:\n  operators.operatorframework.io.bundle.channel.default.v1: 1.10\n  x: [1]\n");
        assert_eq!(d.len(), 2);
        assert_eq!(a.default_channel(), Some("1.1"));
        let (_, d) = parse("annotations: [a]\n");
        assert!(d[0].message.contains("found a sequence"));
    }

    #[test]
    fn unversioned_media_type_key() {
        let (a, _) =
            parse("annotations:\n  operators.operatorframework.io.bundle.mediatype: registry+v2\n");
        let (k, v) = a.media_type().unwrap();
        assert_eq!(k, keys::MEDIATYPE_UNVERSIONED);
        assert_eq!(v.value, "registry+v2");
    }
}
