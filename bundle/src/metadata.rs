//! `metadata/dependencies.yaml` and `metadata/properties.yaml`: lists of typed
//! entries.
//!
//! ```yaml
//! dependencies:
//!   - type: olm.package
//!     value:
//!       packageName: prometheus
//!       version: ">0.27.0"
//!   - type: olm.gvk
//!     value: {group: etcd.database.coreos.com, kind: EtcdCluster, version: v1beta2}
//! ```
//!
//! `properties.yaml` has the same shape under a `properties` key.

use serde_json::Value;

use crate::yaml::{kind_of, MetaFile, Node};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// The top-level key of `dependencies.yaml`.
pub const DEPENDENCIES_KEY: &str = "dependencies";
/// The top-level key of `properties.yaml`.
pub const PROPERTIES_KEY: &str = "properties";

/// One entry: a type and a value.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The `type` member (empty when missing).
    pub type_: String,
    /// The `value` member (`None` when missing).
    pub value: Option<Value>,
    /// Where the entry starts.
    pub location: Location,
}

/// The entries of a dependencies or properties file.
#[derive(Debug, Clone)]
pub struct EntryList {
    /// The file.
    pub location: Location,
    /// Whether the expected top-level key is present.
    pub key_found: bool,
    /// The other top-level keys, with their lines.
    pub other_keys: Vec<(String, Location)>,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

/// Read the entries under `key` of a parsed metadata file. Entries that are not
/// mappings, or whose `type` is not a string, are reported and dropped.
pub fn entries(m: &MetaFile, key: &str) -> (EntryList, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut list = EntryList {
        location: m.location.clone(),
        key_found: false,
        other_keys: m
            .fields
            .iter()
            .filter(|(k, _, _)| k != key)
            .map(|(k, _, l)| (k.clone(), l.clone()))
            .collect(),
        entries: Vec::new(),
    };
    match m.get(key) {
        None => {}
        Some((Node::Scalar(Value::Null), _)) => list.key_found = true,
        Some((Node::List(items), _)) => {
            list.key_found = true;
            for item in items {
                let Value::Object(obj) = &item.value else {
                    diags.push(
                        Diagnostic::new(
                            Rule::InvalidMetadataList,
                            format!(
                                "{key} entry must be a mapping with type and value, found a {}",
                                kind_of(&item.value)
                            ),
                        )
                        .at(&item.location),
                    );
                    continue;
                };
                let type_ = match obj.get("type") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => {
                        diags.push(
                            Diagnostic::new(
                                Rule::InvalidMetadataList,
                                format!(
                                    "{key} entry type must be a string, found a {}",
                                    kind_of(other)
                                ),
                            )
                            .at(&item.location),
                        );
                        continue;
                    }
                };
                list.entries.push(Entry {
                    type_,
                    value: obj.get("value").cloned(),
                    location: item.location.clone(),
                });
            }
        }
        Some((node, loc)) => {
            list.key_found = true;
            diags.push(
                Diagnostic::new(
                    Rule::InvalidMetadataList,
                    format!("{key} must be a list, found a {}", node.kind()),
                )
                .at(loc),
            );
        }
    }
    (list, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::meta_file;
    use std::sync::Arc;

    #[test]
    fn reads_entries() {
        let (m, _) = meta_file(
            &Arc::from("dependencies.yaml"),
            "dependencies:\n- type: olm.package\n  value: {packageName: a, version: 1.0.0}\n- 3\n- type: 1\n- value: x\n",
        )
        .unwrap();
        let (l, d) = entries(&m, DEPENDENCIES_KEY);
        assert!(l.key_found);
        assert_eq!(l.entries.len(), 2);
        assert_eq!(l.entries[0].type_, "olm.package");
        assert_eq!(l.entries[0].location.line, 2);
        assert_eq!(l.entries[1].type_, "");
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn other_keys_are_listed() {
        let (m, _) = meta_file(
            &Arc::from("properties.yaml"),
            "dependencies:\n- type: olm.package\n",
        )
        .unwrap();
        let (l, d) = entries(&m, PROPERTIES_KEY);
        assert!(d.is_empty());
        assert!(!l.key_found);
        assert_eq!(l.other_keys[0].0, "dependencies");
    }
}
