//! Cluster state from Kubernetes YAML (`kubectl get ... -o yaml` output):
//! Subscriptions, installed ClusterServiceVersions and CatalogSources (and OLM v1
//! ClusterCatalogs and ClusterExtensions, see [`crate::v1::cluster`]), in a
//! multi-document stream or `kind: List` objects. Other kinds are noted and ignored.

use std::sync::Arc;

use olmsat_graph::declcfg::Property;
use olmsat_graph::load::split;
use olmsat_graph::location::Location;
use olmsat_graph::property::types;
use olmsat_graph::rawjson::{to_raw, Transcoded};
use serde_json::{json, Value};

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

/// Everything read from the cluster file.
#[derive(Debug, Clone, Default)]
pub struct ClusterState {
    /// Subscriptions.
    pub subscriptions: Vec<Subscription>,
    /// Installed CSVs.
    pub csvs: Vec<InstalledCsv>,
    /// CatalogSources.
    pub catalog_sources: Vec<CatalogSource>,
    /// OLM v1 ClusterCatalogs.
    pub cluster_catalogs: Vec<crate::v1::ClusterCatalog>,
    /// OLM v1 ClusterExtensions.
    pub cluster_extensions: Vec<crate::v1::ClusterExtension>,
    /// Objects that were ignored, and why.
    pub notes: Vec<String>,
}

/// Why the cluster file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct ClusterError {
    /// Where.
    pub location: Location,
    /// What.
    pub message: String,
}

const DEFAULT_NAMESPACE: &str = "default";

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path).and_then(Value::as_str).unwrap_or("")
}

/// Parse a cluster file's text; `name` is used in locations.
pub fn parse(name: &str, text: &str) -> Result<ClusterState, ClusterError> {
    let file: Arc<str> = Arc::from(name);
    let chunks = split::split_yaml(text).map_err(|b| ClusterError {
        location: Location::new(file.clone(), b.line),
        message: format!("invalid Yaml document separator: {}", b.trailing),
    })?;
    let mut state = ClusterState::default();
    for c in chunks {
        if split::is_blank_or_comments(c.text) {
            continue;
        }
        let loc = Location::new(file.clone(), split::first_content_line(&c));
        let doc: Transcoded = serde_saphyr::from_str(c.text).map_err(|e| {
            let line = e
                .location()
                .map(|l| c.first_line + l.line() as u32 - 1)
                .unwrap_or(c.first_line);
            let mut m = e.to_string();
            if let Some(i) = m.find(" at line ") {
                m.truncate(i);
            }
            ClusterError {
                location: Location::new(file.clone(), line),
                message: format!("invalid YAML: {m}"),
            }
        })?;
        let v: Value = serde_json::from_str(&doc.0).map_err(|e| ClusterError {
            location: loc.clone(),
            message: e.to_string(),
        })?;
        add_object(&mut state, &v, &loc)?;
    }
    Ok(state)
}

fn add_object(state: &mut ClusterState, v: &Value, loc: &Location) -> Result<(), ClusterError> {
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
    match kind {
        "List"
        | "SubscriptionList"
        | "ClusterServiceVersionList"
        | "CatalogSourceList"
        | "ClusterCatalogList"
        | "ClusterExtensionList" => {
            for item in v.get("items").and_then(Value::as_array).into_iter().flatten() {
                add_object(state, item, loc)?;
            }
        }
        "Subscription" => state.subscriptions.push(Subscription {
            name,
            namespace,
            package: s(v, "/spec/name").to_owned(),
            channel: s(v, "/spec/channel").to_owned(),
            source: s(v, "/spec/source").to_owned(),
            source_namespace: s(v, "/spec/sourceNamespace").to_owned(),
            starting_csv: s(v, "/spec/startingCSV").to_owned(),
            installed_csv: s(v, "/status/installedCSV").to_owned(),
            location: loc.clone(),
        }),
        "ClusterServiceVersion" => state.csvs.push(csv(v, name, namespace, loc)?),
        "CatalogSource" => {
            let priority = v.pointer("/spec/priority").and_then(Value::as_i64).unwrap_or(0);
            state.catalog_sources.push(CatalogSource {
                name,
                namespace,
                priority,
            });
        }
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
        other => state
            .notes
            .push(format!("{loc}: ignored {other} {name:?} (olmsat reads Subscriptions, ClusterServiceVersions, CatalogSources, ClusterCatalogs and ClusterExtensions)")),
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
            olmsat_graph::semver::version::parse_strict(version_text).map_err(|e| {
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
        None => inferred_properties(v),
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

/// olm.gvk for owned CRDs and APIServices, olm.gvk.required for required ones.
fn inferred_properties(v: &Value) -> Vec<Property> {
    let mut out = Vec::new();
    let mut add = |typ: &str, items: Option<&Value>, crd: bool| {
        for item in items.and_then(Value::as_array).into_iter().flatten() {
            let group = if crd {
                s(item, "/name")
                    .split_once('.')
                    .map(|(_, g)| g)
                    .unwrap_or("")
                    .to_owned()
            } else {
                s(item, "/group").to_owned()
            };
            out.push(Property {
                type_: typ.to_owned(),
                value: to_raw(&json!({"group": group, "kind": s(item, "/kind"), "version": s(item, "/version")})),
            });
        }
    };
    add(
        types::GVK,
        v.pointer("/spec/customresourcedefinitions/owned"),
        true,
    );
    add(
        types::GVK,
        v.pointer("/spec/apiservicedefinitions/owned"),
        false,
    );
    add(
        types::GVK_REQUIRED,
        v.pointer("/spec/customresourcedefinitions/required"),
        true,
    );
    add(
        types::GVK_REQUIRED,
        v.pointer("/spec/apiservicedefinitions/required"),
        false,
    );
    out
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
        assert_eq!(st.notes.len(), 1);
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
}
