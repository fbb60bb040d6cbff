//! Cluster state from Kubernetes YAML as people dump it (`kubectl get ... -o
//! yaml`, `oc adm must-gather` files, objects pasted in bug reports):
//! Subscriptions, installed ClusterServiceVersions, CatalogSources and
//! OperatorGroups (and OLM v1 ClusterCatalogs and ClusterExtensions, see
//! [`crate::v1::cluster`]), in a multi-document stream or `List` objects.
//!
//! Copied ClusterServiceVersions (the label `olm.copiedFrom`, the annotation
//! `olm.operatorNamespace` naming another namespace, or `status.reason:
//! Copied`), which OLM writes into every namespace an OperatorGroup watches, are
//! set apart as OLM's resolver does. Other kinds are counted and ignored.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::sync::Arc;

use olmsat_catalog::declcfg::Property;
use olmsat_catalog::load::split;
use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::{to_raw, Transcoded};
use serde_json::Value;

mod list;

pub use crate::cluster_error::ClusterError;
pub use list::{DOCUMENT_NODES, DOCUMENT_SCALAR_BYTES, LIST_NODES, LIST_SCALAR_BYTES};

/// An `operators.coreos.com/v1alpha1` Subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// metadata.name
    pub name: String,
    /// metadata.namespace
    pub namespace: String,
    /// spec.name: the package.
    pub package: String,
    /// spec.channel (empty: any channel, default first).
    pub channel: String,
    /// spec.source: the catalog.
    pub source: String,
    /// spec.sourceNamespace
    pub source_namespace: String,
    /// spec.startingCSV
    pub starting_csv: String,
    /// status.installedCSV
    pub installed_csv: String,
    /// `spec.installPlanApproval: Manual`: OLM makes every install plan of
    /// the namespace wait for approval.
    pub manual_approval: bool,
    /// Where it was declared.
    pub location: Location,
}

/// An installed ClusterServiceVersion.
#[derive(Debug, Clone)]
pub struct InstalledCsv {
    /// metadata.name
    pub name: String,
    /// metadata.namespace
    pub namespace: String,
    /// spec.version (strict semver; `None` when absent or invalid).
    pub version: Option<semver::Version>,
    /// spec.replaces
    pub replaces: Option<String>,
    /// spec.skips
    pub skips: Vec<String>,
    /// The `olm.skipRange` annotation.
    pub skip_range: Option<String>,
    /// Properties: the `operatorframework.io/properties` annotation, or those
    /// inferred from owned and required CRDs and APIServices.
    pub properties: Vec<Property>,
    /// Where it was declared.
    pub location: Location,
}

/// A copy of a ClusterServiceVersion that OLM writes into each namespace an
/// OperatorGroup watches. OLM's resolver skips copies; so does olmsat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopiedCsv {
    /// metadata.name
    pub name: String,
    /// metadata.namespace: where the copy is.
    pub namespace: String,
    /// The namespace of the original (the `olm.copiedFrom` label, else the
    /// `olm.operatorNamespace` annotation; empty when only `status.reason:
    /// Copied` marks the copy).
    pub copied_from: String,
    /// Where it was declared.
    pub location: Location,
}

/// A CatalogSource: where a catalog lives and how much it is preferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogSource {
    /// metadata.name
    pub name: String,
    /// metadata.namespace
    pub namespace: String,
    /// spec.priority (higher is preferred).
    pub priority: i64,
}

/// An `operators.coreos.com/v1` OperatorGroup: OLM installs and upgrades
/// operators only in namespaces that have one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorGroup {
    /// metadata.name
    pub name: String,
    /// metadata.namespace
    pub namespace: String,
    /// spec.targetNamespaces (empty: all namespaces, or a selector).
    pub target_namespaces: Vec<String>,
    /// The annotation `olm.operatorframework.io/exclude-global-namespace-resolution:
    /// "true"`: its namespace does not see the global catalog namespace.
    pub exclude_global_catalogs: bool,
    /// Where it was declared.
    pub location: Location,
}

/// Everything read from the cluster files.
#[derive(Debug, Clone, Default)]
pub struct ClusterState {
    /// Subscriptions.
    pub subscriptions: Vec<Subscription>,
    /// Installed CSVs (copies excluded).
    pub csvs: Vec<InstalledCsv>,
    /// Copied CSVs, skipped by resolution.
    pub copied: Vec<CopiedCsv>,
    /// CatalogSources.
    pub catalog_sources: Vec<CatalogSource>,
    /// OperatorGroups.
    pub operator_groups: Vec<OperatorGroup>,
    /// OLM v1 ClusterCatalogs.
    pub cluster_catalogs: Vec<crate::v1::ClusterCatalog>,
    /// OLM v1 ClusterExtensions.
    pub cluster_extensions: Vec<crate::v1::ClusterExtension>,
    /// Objects of kinds olmsat does not read: how many of each kind (keyed
    /// `apiVersion kind` for a kind olmsat reads in another API group or
    /// version, see [`READ_API_VERSIONS`]).
    pub ignored: BTreeMap<String, usize>,
    /// Objects read more than once (same kind, namespace and name), of which
    /// the first was kept (see [`ClusterState::drop_duplicates`]).
    pub duplicates: usize,
    /// Entries of the directories read that were not read: symbolic links
    /// that leave the directory named, named pipes, sockets, devices, broken
    /// links and link loops, in path order.
    pub skipped: Vec<crate::skipped::SkippedFile>,
}

/// Keep the first of the items with the same key; how many were dropped.
fn keep_first<T>(items: &mut Vec<T>, key: impl Fn(&T) -> (String, String)) -> usize {
    let mut seen = std::collections::HashSet::new();
    let before = items.len();
    items.retain(|i| seen.insert(key(i)));
    before - items.len()
}

impl ClusterState {
    /// The installed CSV named `name` with a version, as `path --from` starts
    /// from it: in the first namespace (by name) that has one.
    pub fn installed_csv(&self, name: &str) -> Option<olmsat_graph::path::InstalledCsv> {
        self.csvs
            .iter()
            .filter(|c| c.name == name && c.version.is_some())
            .min_by(|a, b| a.namespace.cmp(&b.namespace))
            .and_then(|c| {
                Some(olmsat_graph::path::InstalledCsv {
                    version: c.version.clone()?,
                    location: c.location.clone(),
                })
            })
    }

    /// Drop the objects read twice (the same file given twice, or a file and
    /// the directory holding it): a Kubernetes object is one per kind,
    /// namespace and name, so the first read is kept and the rest counted in
    /// [`ClusterState::duplicates`].
    pub fn drop_duplicates(&mut self) {
        self.duplicates += keep_first(&mut self.subscriptions, |s| {
            (s.namespace.clone(), s.name.clone())
        }) + keep_first(&mut self.csvs, |c| {
            (c.namespace.clone(), c.name.clone())
        }) + keep_first(&mut self.copied, |c| {
            (c.namespace.clone(), c.name.clone())
        }) + keep_first(&mut self.catalog_sources, |c| {
            (c.namespace.clone(), c.name.clone())
        }) + keep_first(&mut self.operator_groups, |g| {
            (g.namespace.clone(), g.name.clone())
        });
    }

    /// The global catalog namespace the cluster state itself implies: when
    /// every CatalogSource is in one namespace N and every Subscription names
    /// N as its `sourceNamespace` (as on OpenShift, where it is
    /// `openshift-marketplace`), N; otherwise `None`. A state with no
    /// CatalogSource and no Subscription implies nothing.
    ///
    /// ```
    /// use olmsat_resolver::ClusterState;
    /// let st = ClusterState::from_yaml("c.yaml", "\
    /// kind: CatalogSource
    /// metadata: {name: redhat-operators, namespace: openshift-marketplace}
    /// ---
    /// kind: Subscription
    /// metadata: {name: a, namespace: ops}
    /// spec: {name: a, source: redhat-operators, sourceNamespace: openshift-marketplace}
    /// ").unwrap();
    /// assert_eq!(st.implied_global_namespace().as_deref(), Some("openshift-marketplace"));
    /// ```
    pub fn implied_global_namespace(&self) -> Option<String> {
        let mut namespaces: BTreeSet<&str> = self
            .catalog_sources
            .iter()
            .map(|c| c.namespace.as_str())
            .collect();
        for s in &self.subscriptions {
            namespaces.insert(s.source_namespace.as_str());
        }
        match (namespaces.len(), namespaces.first()) {
            (1, Some(n)) if !n.is_empty() => Some((*n).to_owned()),
            _ => None,
        }
    }

    /// What was set aside while reading, one sentence each: the directory
    /// entries not read, the kinds ignored, the copied CSVs skipped, the
    /// objects read twice.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .skipped
            .iter()
            .map(|s| format!("skipped {s}"))
            .collect();
        if !self.ignored.is_empty() {
            let total: usize = self.ignored.values().sum();
            let kinds: Vec<String> = self
                .ignored
                .iter()
                .map(|(k, n)| format!("{k} ({n})"))
                .collect();
            // `apiVersion kind`: a kind olmsat reads, of another API.
            let foreign = self.ignored.keys().any(|k| {
                k.rsplit_once(' ')
                    .is_some_and(|(_, kind)| READ_API_VERSIONS.iter().any(|(r, _)| *r == kind))
            });
            let reads = if foreign {
                "Subscriptions, ClusterServiceVersions and CatalogSources of operators.coreos.com/v1alpha1, OperatorGroups of operators.coreos.com/v1 or v1alpha2, ClusterCatalogs and ClusterExtensions of olm.operatorframework.io/v1"
            } else {
                "Subscriptions, ClusterServiceVersions, CatalogSources, OperatorGroups, ClusterCatalogs and ClusterExtensions"
            };
            notes.push(format!(
                "ignored {total} object(s) of kinds olmsat does not read: {} (it reads {reads})",
                kinds.join(", ")
            ));
        }
        if !self.copied.is_empty() {
            let mut namespaces: Vec<&str> =
                self.copied.iter().map(|c| c.namespace.as_str()).collect();
            namespaces.sort_unstable();
            namespaces.dedup();
            notes.push(format!(
                "skipped {} copied ClusterServiceVersion(s) in {} namespace(s) (label olm.copiedFrom, annotation olm.operatorNamespace naming another namespace, or status.reason Copied): OLM writes these copies into every namespace an OperatorGroup watches, and its resolver skips them",
                self.copied.len(),
                namespaces.len()
            ));
        }
        if self.duplicates > 0 {
            notes.push(format!(
                "read {} object(s) more than once (same kind, namespace and name): the first of each was kept",
                self.duplicates
            ));
        }
        notes
    }
}

const DEFAULT_NAMESPACE: &str = "default";

/// The OperatorGroup annotation that keeps its namespace from seeing the
/// global catalog namespace.
pub const EXCLUDE_GLOBAL_ANNOTATION: &str =
    "olm.operatorframework.io/exclude-global-namespace-resolution";

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path).and_then(Value::as_str).unwrap_or("")
}

/// Parse a cluster file's text; `name` is used in locations.
pub fn parse(name: &str, text: &str) -> Result<ClusterState, ClusterError> {
    let mut state = ClusterState::default();
    parse_into(&mut state, name, text)?;
    state.drop_duplicates();
    Ok(state)
}

/// Parse a cluster file's text and add what it holds to `state`; `name` is
/// used in locations.
pub fn parse_into(state: &mut ClusterState, name: &str, text: &str) -> Result<(), ClusterError> {
    let file: Arc<str> = Arc::from(name);
    let chunks = split::split_yaml(text).map_err(|b| ClusterError {
        location: Location::new(file.clone(), b.line),
        message: format!("invalid Yaml document separator: {}", b.trailing),
    })?;
    for c in chunks {
        if split::is_blank_or_comments(c.text) {
            continue;
        }
        let loc = Location::new(file.clone(), split::first_content_line(&c));
        let doc: Transcoded = match serde_saphyr::from_str(c.text) {
            Ok(doc) => doc,
            // A List is held to the budget item by item (see `list`).
            Err(e)
                if list::breach(&e).is_some_and(list::grows_with_size)
                    && list::read_large_list(state, c.text, &file, c.first_line, &loc)? =>
            {
                continue;
            }
            Err(e) => return Err(yaml_error(&e, &file, c.first_line)),
        };
        let v: Value = serde_json::from_str(&doc.0).map_err(|e| ClusterError {
            location: loc.clone(),
            message: e.to_string(),
        })?;
        let lines = if is_list(&v) {
            item_lines(c.text, c.first_line)
        } else {
            Vec::new()
        };
        add_object(state, &v, &loc, &lines)?;
    }
    Ok(())
}

/// A YAML error in words for the person who wrote the file: where, what, and
/// for a duplicate key, which key.
fn yaml_error(e: &serde_saphyr::Error, file: &Arc<str>, first_line: u32) -> ClusterError {
    let at = |l: serde_saphyr::Location| Location {
        file: file.clone(),
        line: first_line.saturating_add(
            u32::try_from(l.line())
                .unwrap_or(u32::MAX)
                .saturating_sub(1),
        ),
        column: u32::try_from(l.column()).unwrap_or(0),
    };
    let location = e
        .location()
        .map(at)
        .unwrap_or_else(|| Location::new(file.clone(), first_line));
    if let Some(b) = list::breach(e) {
        return ClusterError {
            location,
            message: format!(
                "invalid YAML: {}",
                list::breach_words(b, "the YAML document", &serde_saphyr::Budget::default())
            ),
        };
    }
    let message = match e.without_snippet() {
        serde_saphyr::Error::DuplicateMappingKey { key: Some(k), .. } => format!(
            "invalid YAML: duplicate key {k:?} (a mapping holds each key once; remove or rename one of them)"
        ),
        serde_saphyr::Error::DuplicateMappingKey { key: None, .. } => {
            "invalid YAML: duplicate key (a mapping holds each key once; remove or rename one of them)".to_owned()
        }
        other => {
            let text = other.to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            // The location is already in front: drop the parser's own.
            let text = match text.strip_prefix("line ") {
                Some(rest) => match rest.split_once(": ") {
                    Some((pos, msg)) if pos.contains(" column ") => msg,
                    _ => text,
                },
                None => text,
            };
            let text = match text.find(" at line ") {
                Some(i) => &text[..i],
                None => text,
            };
            format!("invalid YAML: {}", text.lines().next().unwrap_or(text))
        }
    };
    ClusterError { location, message }
}

/// Whether `v` is a Kubernetes list (`List`, `SubscriptionList`, ...).
fn is_list(v: &Value) -> bool {
    s(v, "/kind").ends_with("List") && v.get("items").is_some_and(Value::is_array)
}

/// The line of each item of a list document's `items` (empty when the items'
/// positions cannot be read; the document's line is used then).
fn item_lines(text: &str, first_line: u32) -> Vec<u32> {
    #[derive(serde::Deserialize)]
    struct ListItems {
        #[serde(default)]
        items: Vec<serde_saphyr::Spanned<serde::de::IgnoredAny>>,
    }
    serde_saphyr::from_str::<ListItems>(text)
        .map(|l| {
            l.items
                .iter()
                .map(|i| {
                    first_line.saturating_add(
                        u32::try_from(i.referenced.line())
                            .unwrap_or(u32::MAX)
                            .saturating_sub(1),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The namespace an OLM copy of a CSV was copied from, when `v` is one, as
/// OLM's `IsCopied` tells a copy: the `olm.copiedFrom` label, the
/// `olm.operatorNamespace` annotation naming a namespace other than the
/// CSV's own (the OperatorGroup's namespace, where the original is), or
/// `status.reason: Copied` (an empty namespace: the copy does not say).
fn copied_from(v: &Value) -> Option<String> {
    let label = v
        .pointer("/metadata/labels")
        .and_then(|l| l.get("olm.copiedFrom"))
        .and_then(Value::as_str);
    if let Some(ns) = label {
        return Some(ns.to_owned());
    }
    let operator_namespace = v
        .pointer("/metadata/annotations")
        .and_then(|a| a.get("olm.operatorNamespace"))
        .and_then(Value::as_str);
    if let Some(ns) = operator_namespace {
        if ns != s(v, "/metadata/namespace") {
            return Some(ns.to_owned());
        }
    }
    (s(v, "/status/reason") == "Copied").then(String::new)
}

/// The kinds olmsat reads and the API versions (`group/version`) it reads
/// each in: OLM v0's `operators.coreos.com` and OLM v1's
/// `olm.operatorframework.io`. An object of one of these kinds with another
/// `apiVersion` (a Knative `messaging.knative.dev/v1` Subscription, an ACM
/// `apps.open-cluster-management.io/v1` Subscription, a version that does
/// not exist) is another API's object: it is counted in
/// [`ClusterState::ignored`] as `apiVersion kind`. An object without
/// `apiVersion` (pasted from a bug report) is read by its kind.
pub const READ_API_VERSIONS: &[(&str, &[&str])] = &[
    ("Subscription", &["operators.coreos.com/v1alpha1"]),
    ("ClusterServiceVersion", &["operators.coreos.com/v1alpha1"]),
    ("CatalogSource", &["operators.coreos.com/v1alpha1"]),
    (
        "OperatorGroup",
        &["operators.coreos.com/v1", "operators.coreos.com/v1alpha2"],
    ),
    ("ClusterCatalog", &["olm.operatorframework.io/v1"]),
    ("ClusterExtension", &["olm.operatorframework.io/v1"]),
];

/// The object's `apiVersion` when it is not one olmsat reads `kind` in
/// (`None` for kinds olmsat does not read, and for objects without one).
fn foreign_api_version(v: &Value, kind: &str) -> Option<String> {
    let (_, versions) = READ_API_VERSIONS.iter().find(|(k, _)| *k == kind)?;
    match v.get("apiVersion") {
        None | Some(Value::Null) => None,
        Some(Value::String(a)) if versions.contains(&a.as_str()) => None,
        Some(Value::String(a)) => Some(a.clone()),
        Some(other) => Some(other.to_string()),
    }
}

fn add_object(
    state: &mut ClusterState,
    v: &Value,
    loc: &Location,
    item_lines: &[u32],
) -> Result<(), ClusterError> {
    if v.is_null() {
        return Ok(());
    }
    if !v.is_object() {
        return Err(ClusterError {
            location: loc.clone(),
            message: "expected a Kubernetes object (a mapping with apiVersion and kind)".into(),
        });
    }
    let kind = s(v, "/kind");
    let name = s(v, "/metadata/name").to_owned();
    let namespace = match s(v, "/metadata/namespace") {
        "" => DEFAULT_NAMESPACE.to_owned(),
        ns => ns.to_owned(),
    };
    if is_list(v) {
        let items = v
            .get("items")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for (i, item) in items.enumerate() {
            let item_loc = match item_lines.get(i) {
                Some(&line) => loc.at(line, 0),
                None => loc.clone(),
            };
            add_object(state, item, &item_loc, &[])?;
        }
        return Ok(());
    }
    if let Some(api_version) = foreign_api_version(v, kind) {
        *state
            .ignored
            .entry(format!("{api_version} {kind}"))
            .or_default() += 1;
        return Ok(());
    }
    match kind {
        "Subscription" => state.subscriptions.push(Subscription {
            name,
            namespace,
            package: s(v, "/spec/name").to_owned(),
            channel: s(v, "/spec/channel").to_owned(),
            source: s(v, "/spec/source").to_owned(),
            source_namespace: s(v, "/spec/sourceNamespace").to_owned(),
            starting_csv: s(v, "/spec/startingCSV").to_owned(),
            installed_csv: s(v, "/status/installedCSV").to_owned(),
            manual_approval: s(v, "/spec/installPlanApproval") == "Manual",
            location: loc.clone(),
        }),
        "ClusterServiceVersion" => match copied_from(v) {
            Some(copied_from) => state.copied.push(CopiedCsv {
                name,
                namespace,
                copied_from,
                location: loc.clone(),
            }),
            None => state.csvs.push(csv(v, name, namespace, loc)?),
        },
        "CatalogSource" => {
            let priority = v
                .pointer("/spec/priority")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            state.catalog_sources.push(CatalogSource {
                name,
                namespace,
                priority,
            });
        }
        "OperatorGroup" => state.operator_groups.push(OperatorGroup {
            name,
            namespace,
            target_namespaces: v
                .pointer("/spec/targetNamespaces")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect(),
            exclude_global_catalogs: v
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(EXCLUDE_GLOBAL_ANNOTATION))
                .and_then(Value::as_str)
                == Some("true"),
            location: loc.clone(),
        }),
        "ClusterCatalog" => state
            .cluster_catalogs
            .push(crate::v1::cluster::cluster_catalog(v, loc)?),
        "ClusterExtension" => state
            .cluster_extensions
            .push(crate::v1::cluster::cluster_extension(v, loc)?),
        "" => {
            return Err(ClusterError {
                location: loc.clone(),
                message: "object has no kind".into(),
            })
        }
        other => *state.ignored.entry(other.to_owned()).or_default() += 1,
    }
    Ok(())
}

fn csv(
    v: &Value,
    name: String,
    namespace: String,
    loc: &Location,
) -> Result<InstalledCsv, ClusterError> {
    let err = |m: String| ClusterError {
        location: loc.clone(),
        message: m,
    };
    let version_text = s(v, "/spec/version");
    let version = if version_text.is_empty() {
        None
    } else {
        Some(
            olmsat_versions::version::parse_strict(version_text).map_err(|e| {
                err(format!(
                    "ClusterServiceVersion {name:?}: invalid spec.version {version_text:?}: {e}"
                ))
            })?,
        )
    };
    let annotations = v.pointer("/metadata/annotations");
    let ann = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_str);
    let properties = match ann("operatorframework.io/properties") {
        Some(text) => {
            let parsed: Value = serde_json::from_str(text).map_err(|e| {
                err(format!(
                    "ClusterServiceVersion {name:?}: annotation operatorframework.io/properties is not JSON: {e}"
                ))
            })?;
            parsed
                .get("properties")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|p| {
                    Some(Property {
                        type_: p.get("type")?.as_str()?.to_owned(),
                        value: to_raw(p.get("value")?),
                    })
                })
                .collect()
        }
        None => inferred_properties(v, &name, loc),
    };
    Ok(InstalledCsv {
        name,
        namespace,
        version,
        replaces: Some(s(v, "/spec/replaces").to_owned()).filter(|r| !r.is_empty()),
        skips: v
            .pointer("/spec/skips")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str().map(str::to_owned))
            .collect(),
        skip_range: ann("olm.skipRange").map(str::to_owned),
        properties,
        location: loc.clone(),
    })
}

/// olm.gvk for owned CRDs and APIServices, olm.gvk.required for required
/// ones, as OLM reads them from an installed CSV.
fn inferred_properties(v: &Value, name: &str, loc: &Location) -> Vec<Property> {
    olmsat_bundle::csv::Csv::from_value(v, name.to_owned(), loc.clone()).api_properties()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_kinds_and_lists() {
        let text = r#"
apiVersion: v1
kind: List
items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: Subscription
  metadata: {name: etcd, namespace: operators}
  spec: {name: etcd, channel: stable, source: community, sourceNamespace: olm}
  status: {installedCSV: etcdoperator.v0.9.2}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcdoperator.v0.9.2
  namespace: operators
  annotations: {olm.skipRange: ">=0.9.0 <0.9.2"}
spec:
  version: 0.9.2
  replaces: etcdoperator.v0.9.0
  customresourcedefinitions:
    owned: [{name: etcdclusters.etcd.database.coreos.com, version: v1beta2, kind: EtcdCluster}]
    required: [{name: backups.example.com, version: v1, kind: Backup}]
---
kind: CatalogSource
metadata: {name: community, namespace: olm}
spec: {priority: 10}
---
kind: ConfigMap
metadata: {name: x}
"#;
        let st = parse("cluster.yaml", text).unwrap();
        assert_eq!(st.subscriptions.len(), 1);
        assert_eq!(st.subscriptions[0].installed_csv, "etcdoperator.v0.9.2");
        let csv = &st.csvs[0];
        assert_eq!(csv.version.as_ref().unwrap().to_string(), "0.9.2");
        assert_eq!(csv.skip_range.as_deref(), Some(">=0.9.0 <0.9.2"));
        assert_eq!(csv.properties.len(), 2);
        assert_eq!(
            csv.properties[0].value.get(),
            r#"{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}"#
        );
        assert_eq!(csv.properties[1].type_, "olm.gvk.required");
        assert_eq!(st.catalog_sources[0].priority, 10);
        assert_eq!(st.ignored.get("ConfigMap"), Some(&1));
        assert_eq!(st.notes().len(), 1);
    }

    #[test]
    fn errors_have_locations() {
        let e = parse(
            "c.yaml",
            "kind: ClusterServiceVersion\nmetadata: {name: a}\nspec: {version: v1}\n",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("c.yaml:1: ClusterServiceVersion \"a\": invalid spec.version"),
            "{e}"
        );
        let e = parse("c.yaml", "a: [\n").unwrap_err();
        assert!(e.to_string().starts_with("c.yaml:"), "{e}");
        let e = parse("c.yaml", "- 1\n").unwrap_err();
        assert!(e.message.contains("Kubernetes object"));
    }

    #[test]
    fn installed_csv_is_the_first_namespace_with_a_version() {
        let text = "\
kind: ClusterServiceVersion
metadata: {name: etcd.v1, namespace: zeta}
spec: {version: 1.0.0}
---
kind: ClusterServiceVersion
metadata: {name: etcd.v1, namespace: beta}
spec: {displayName: etcd}
---
kind: ClusterServiceVersion
metadata: {name: etcd.v1, namespace: gamma}
spec: {version: 1.0.1}
";
        let st = parse("c.yaml", text).unwrap();
        let csv = st.installed_csv("etcd.v1").expect("installed");
        assert_eq!(csv.version.to_string(), "1.0.1");
        assert_eq!(csv.location.line, 9);
        assert!(st.installed_csv("other").is_none());
    }

    #[test]
    fn copies_are_set_apart() {
        let text = "\
kind: ClusterServiceVersion
metadata: {name: gpu.v1, namespace: default, labels: {olm.copiedFrom: nvidia}}
spec: {version: not-semver}
---
kind: ClusterServiceVersion
metadata: {name: gpu.v1, namespace: other}
status: {reason: Copied}
---
kind: ClusterServiceVersion
metadata:
  name: gpu.v1
  namespace: third
  annotations: {olm.operatorNamespace: nvidia}
status: {reason: InstallSucceeded}
---
kind: ClusterServiceVersion
metadata:
  name: gpu.v1
  namespace: nvidia
  annotations: {olm.operatorNamespace: nvidia}
spec: {version: 1.0.0}
status: {reason: InstallSucceeded}
";
        let st = parse("c.yaml", text).unwrap();
        // The original names its own namespace; it is installed.
        assert_eq!(st.csvs.len(), 1);
        assert_eq!(st.csvs[0].namespace, "nvidia");
        assert_eq!(st.copied.len(), 3);
        assert_eq!(st.copied[0].copied_from, "nvidia");
        assert_eq!(st.copied[1].copied_from, "");
        // Marked only by the annotation: a copy mid-way, before OLM labels it.
        assert_eq!(st.copied[2].namespace, "third");
        assert_eq!(st.copied[2].copied_from, "nvidia");
        assert!(st.notes()[0]
            .starts_with("skipped 3 copied ClusterServiceVersion(s) in 3 namespace(s)"));
    }

    #[test]
    fn list_items_are_located_and_any_list_kind_is_read() {
        let text = "\
apiVersion: v1
kind: List
items: []
---
apiVersion: v1
items:
- apiVersion: operators.coreos.com/v1
  kind: OperatorGroup
  metadata: {name: og, namespace: ops}
  spec: {targetNamespaces: [ops]}

- kind: Subscription
  metadata:
    name: a
    namespace: ops
  spec: {name: a, source: c}
kind: OperatorGroupList
---
{\"kind\": \"List\", \"items\": [
  {\"kind\": \"OLMConfig\", \"metadata\": {\"name\": \"cluster\"}},
  {\"kind\": \"Subscription\",
   \"metadata\": {\"name\": \"b\", \"namespace\": \"ops\"}}]}
";
        let st = parse("c.yaml", text).unwrap();
        assert_eq!(st.operator_groups.len(), 1);
        assert_eq!(st.operator_groups[0].location.to_string(), "c.yaml:7");
        assert_eq!(st.operator_groups[0].target_namespaces, ["ops"]);
        assert_eq!(st.subscriptions[0].location.to_string(), "c.yaml:12");
        assert_eq!(st.subscriptions[1].location.to_string(), "c.yaml:21");
        assert_eq!(st.ignored.get("OLMConfig"), Some(&1));
    }

    #[test]
    fn a_duplicate_key_names_the_key() {
        let e = parse(
            "c.yaml",
            "kind: Subscription\nmetadata:\n  name: a\n  name: b\n",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.yaml:4:3: invalid YAML: duplicate key \"name\" (a mapping holds each key once; remove or rename one of them)"
        );
        let e = parse("c.yaml", "kind: a\n---\nkind: [\n").unwrap_err();
        assert!(e.to_string().starts_with("c.yaml:"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
        assert!(!e.to_string().contains("Options"), "{e}");
    }

    #[test]
    fn an_object_read_twice_is_kept_once() {
        let sub = "kind: Subscription\nmetadata: {name: a, namespace: ops}\nspec: {name: a, channel: one}\n";
        let other = sub.replace("channel: one", "channel: two");
        let st = parse(
            "c.yaml",
            &format!("{sub}---\n{other}---\n{}", sub.replace("ops", "dev")),
        )
        .unwrap();
        assert_eq!(st.subscriptions.len(), 2);
        assert_eq!(st.subscriptions[0].channel, "one");
        assert_eq!(st.duplicates, 1);
        assert!(
            st.notes()[0].starts_with("read 1 object(s) more than once"),
            "{:?}",
            st.notes()
        );
    }

    /// Other APIs' objects of the same kinds (Knative and ACM
    /// Subscriptions, a ClusterExtension of a version that does not exist)
    /// are not OLM's: they are counted as ignored, by API version and kind.
    #[test]
    fn only_olms_api_groups_and_versions_are_read() {
        let text = "\
apiVersion: messaging.knative.dev/v1
kind: Subscription
metadata: {name: knative, namespace: ops}
spec: {channel: {apiVersion: messaging.knative.dev/v1, kind: InMemoryChannel, name: c}}
---
apiVersion: apps.open-cluster-management.io/v1
kind: Subscription
metadata: {name: acm, namespace: ops}
spec: {channel: ns/ch}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: etcd, namespace: ops}
spec: {name: etcd, source: community}
---
kind: Subscription
metadata: {name: pasted, namespace: ops}
spec: {name: pasted, source: community}
---
apiVersion: operators.coreos.com/v1alpha2
kind: OperatorGroup
metadata: {name: og, namespace: ops}
---
apiVersion: operators.coreos.com/v2
kind: OperatorGroup
metadata: {name: og2, namespace: ops}
---
apiVersion: olm.operatorframework.io/v999
kind: ClusterExtension
metadata: {name: future}
spec: {namespace: x, source: {sourceType: Catalog, catalog: {packageName: p}}}
---
apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: main}
---
apiVersion: 1
kind: CatalogSource
metadata: {name: odd, namespace: olm}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
";
        let st = parse("c.yaml", text).unwrap();
        let subs: Vec<&str> = st.subscriptions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(subs, ["etcd", "pasted"]);
        assert_eq!(st.operator_groups.len(), 1);
        assert!(st.cluster_extensions.is_empty());
        assert_eq!(st.cluster_catalogs.len(), 1);
        assert!(st.catalog_sources.is_empty());
        let ignored: Vec<(&str, usize)> =
            st.ignored.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(
            ignored,
            [
                ("1 CatalogSource", 1),
                ("ConfigMap", 1),
                ("apps.open-cluster-management.io/v1 Subscription", 1),
                ("messaging.knative.dev/v1 Subscription", 1),
                ("olm.operatorframework.io/v999 ClusterExtension", 1),
                ("operators.coreos.com/v2 OperatorGroup", 1),
            ]
        );
        assert_eq!(
            st.notes(),
            ["ignored 6 object(s) of kinds olmsat does not read: 1 CatalogSource (1), ConfigMap (1), apps.open-cluster-management.io/v1 Subscription (1), messaging.knative.dev/v1 Subscription (1), olm.operatorframework.io/v999 ClusterExtension (1), operators.coreos.com/v2 OperatorGroup (1) (it reads Subscriptions, ClusterServiceVersions and CatalogSources of operators.coreos.com/v1alpha1, OperatorGroups of operators.coreos.com/v1 or v1alpha2, ClusterCatalogs and ClusterExtensions of olm.operatorframework.io/v1)"]
        );
    }

    /// A `List` of `n` Subscriptions, each with `pad` labels (`7 + pad`
    /// lines and about `2 * pad + 15` nodes each), in block style.
    fn subscription_list(n: usize, pad: usize) -> String {
        let mut out = String::from("apiVersion: v1\nkind: List\nitems:\n");
        for i in 0..n {
            out.push_str(&format!(
                "- apiVersion: operators.coreos.com/v1alpha1\n  kind: Subscription\n  metadata:\n    name: s{i}\n    namespace: ops\n    labels:\n"
            ));
            for j in 0..pad {
                out.push_str(&format!("      l{j}: v\n"));
            }
            out.push_str("  spec: {name: p, source: c}\n");
        }
        out
    }

    /// A List over one document's node budget as a whole but not item by
    /// item is read, each item at its own line, as the same objects in a
    /// `---` stream are.
    #[test]
    fn a_list_is_held_to_the_budget_item_by_item() {
        let text = subscription_list(1000, 300);
        assert!(
            serde_saphyr::from_str::<Transcoded>(&text).is_err(),
            "the List is over one document's budget"
        );
        let st = parse("list.yaml", &text).expect("read");
        assert_eq!(st.subscriptions.len(), 1000);
        assert_eq!(st.subscriptions[0].location.to_string(), "list.yaml:4");
        assert_eq!(st.subscriptions[1].location.to_string(), "list.yaml:311");
        assert_eq!(st.subscriptions[999].name, "s999");
        let stream = text
            .replace("apiVersion: v1\nkind: List\nitems:\n", "")
            .replace("\n- apiVersion", "\n---\n- apiVersion");
        let stream: String = stream
            .lines()
            .map(|l| {
                let l = l.strip_prefix("- ").unwrap_or(l);
                let l = l.strip_prefix("  ").unwrap_or(l);
                format!("{l}\n")
            })
            .collect();
        let from_stream = parse("stream.yaml", &stream).expect("read");
        let key = |st: &ClusterState| -> Vec<(String, String, String)> {
            st.subscriptions
                .iter()
                .map(|s| (s.name.clone(), s.namespace.clone(), s.package.clone()))
                .collect()
        };
        assert_eq!(key(&st), key(&from_stream));
    }

    #[test]
    fn an_item_over_the_budget_is_refused_in_words() {
        let mut text = subscription_list(3, 10);
        text.push_str(
            &subscription_list(1, 260_000).replace("apiVersion: v1\nkind: List\nitems:\n", ""),
        );
        let e = parse("big.yaml", &text).expect_err("an item too large");
        assert_eq!(
            e.to_string(),
            "big.yaml:55: invalid YAML: item 4 of the List holds more than 250000 nodes (mappings, sequences and scalars), the most olmsat reads in one object; split it into several objects"
        );
        let one = subscription_list(1, 260_000).replace("kind: List", "kind: Thing");
        let e = parse("one.yaml", &one).expect_err("a document too large");
        let text = e.to_string();
        assert!(
            text.contains(": invalid YAML: the YAML document holds more than 250000 nodes (mappings, sequences and scalars), the most olmsat reads in one; split it into several documents (separated by ---) or files"),
            "{text}"
        );
        assert!(!text.contains('{'), "{text}");
    }

    #[test]
    fn an_unreadable_item_of_a_large_list_is_located() {
        let text = subscription_list(1000, 300).replace(
            "- apiVersion: operators.coreos.com/v1alpha1\n  kind: Subscription\n  metadata:\n    name: s500\n",
            "- apiVersion: operators.coreos.com/v1alpha1\n  kind: ClusterServiceVersion\n  metadata:\n    name: s500\n    annotations: {operatorframework.io/properties: '{'}\n",
        );
        let e = parse("list.yaml", &text).expect_err("a bad item");
        assert!(
            e.to_string().starts_with(&format!(
                "list.yaml:{}: ClusterServiceVersion \"s500\": annotation operatorframework.io/properties is not JSON",
                4 + 500 * 307
            )),
            "{e}"
        );
    }

    /// `n` copies of a real CSV (each its own name and namespace) in one
    /// `List`, as `oc get csv -A -o yaml` prints them.
    fn csv_list(csv: &str, n: usize) -> String {
        let csv = csv.strip_prefix("---\n").unwrap_or(csv);
        let mut out = String::from("apiVersion: v1\nitems:\n");
        for i in 0..n {
            let item = csv.replace(
                "  name: multicluster-global-hub-operator.v1.5.0\n  namespace: placeholder\n",
                &format!("  name: hub.v{i}\n  namespace: ns{}\n", i % 30),
            );
            for (j, line) in item.lines().enumerate() {
                out.push_str(if j == 0 { "- " } else { "  " });
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        out
    }

    /// 600 real ClusterServiceVersions in one List: over one document's
    /// budget as a whole (about a million nodes), within it item by item.
    #[test]
    fn six_hundred_real_csvs_in_one_list_are_read() {
        let csv = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/real/bundles/community-operators-prod/multicluster-global-hub-operator/1.5.0/manifests/multicluster-global-hub-operator.clusterserviceversion.yaml"
        ))
        .expect("a real CSV");
        let list = csv_list(&csv, 600);
        let st = parse("csvs.yaml", &list).expect("read");
        assert_eq!(st.csvs.len(), 600);
        assert_eq!(st.csvs[599].name, "hub.v599");
        assert_eq!(st.csvs[599].namespace, "ns29");
        assert_eq!(
            st.csvs[0].replaces.as_deref(),
            Some("multicluster-global-hub-operator.v1.4.0")
        );
        assert_eq!(
            st.csvs[0]
                .version
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("1.5.0")
        );
        assert_eq!(st.csvs[1].location.line, 3 + 1157);
    }
}
