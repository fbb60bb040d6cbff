//! Typed views of the two objects a registry+v1 bundle is built around: the
//! ClusterServiceVersion and CustomResourceDefinitions.
//!
//! Fields are read from the object's JSON. A field of the wrong type is recorded
//! as a problem (opm fails to decode such a CSV) and treated as absent.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use crate::read::Object;
use crate::yaml::kind_of;
use olmsat_catalog::declcfg::{Property, RelatedImage};
use olmsat_catalog::property::types;
use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::RawJson;

/// `ClusterServiceVersion`
pub const CSV_KIND: &str = "ClusterServiceVersion";
/// `CustomResourceDefinition`
pub const CRD_KIND: &str = "CustomResourceDefinition";
/// The CSV annotation holding the skip range.
pub const SKIP_RANGE_ANNOTATION: &str = "olm.skipRange";
/// The CSV annotation holding extra properties as a JSON list.
pub const PROPERTIES_ANNOTATION: &str = "olm.properties";

/// A CRD the CSV owns or requires (`spec.customresourcedefinitions`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CrdDescription {
    /// `plural.group`
    pub name: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

impl CrdDescription {
    /// Split the name into (plural, group); `None` when it has no dot.
    pub fn plural_group(&self) -> Option<(&str, &str)> {
        self.name.split_once('.')
    }
}

impl fmt::Display for CrdDescription {
    /// As Kubernetes prints a GroupVersionKind whose group is the CRD name:
    /// `etcdclusters.etcd.database.coreos.com/v1beta2, Kind=EtcdCluster`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.name, self.version, self.kind)
    }
}

/// An API service the CSV owns or requires (`spec.apiservicedefinitions`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ApiServiceDescription {
    /// Name (the plural).
    pub name: String,
    /// Group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

/// The parts of a ClusterServiceVersion olmsat uses.
#[derive(Debug, Clone)]
pub struct Csv {
    /// `metadata.name`
    pub name: String,
    /// `spec.version` as written (`None` when absent).
    pub version: Option<String>,
    /// `spec.release` (empty when absent).
    pub release: String,
    /// `spec.replaces`
    pub replaces: Option<String>,
    /// `spec.skips`
    pub skips: Vec<String>,
    /// `metadata.annotations` (string values only).
    pub annotations: BTreeMap<String, String>,
    /// Owned CRDs.
    pub owned_crds: Vec<CrdDescription>,
    /// Required CRDs.
    pub required_crds: Vec<CrdDescription>,
    /// Owned API services.
    pub owned_apis: Vec<ApiServiceDescription>,
    /// Required API services.
    pub required_apis: Vec<ApiServiceDescription>,
    /// `spec.relatedImages`
    pub related_images: Vec<RelatedImage>,
    /// Container and init container images of the install strategy's deployments,
    /// in order, duplicates removed.
    pub operator_images: Vec<String>,
    /// Where the CSV starts.
    pub location: Location,
    /// Fields of the wrong type, as messages.
    pub problems: Vec<String>,
}

impl Csv {
    /// The `olm.skipRange` annotation.
    pub fn skip_range(&self) -> Option<&str> {
        self.annotations
            .get(SKIP_RANGE_ANNOTATION)
            .map(String::as_str)
    }

    /// Read the CSV fields from an object.
    pub fn from_object(o: &Object) -> Csv {
        Csv::from_value(&o.value, o.name.clone(), o.location.clone())
    }

    /// Read the CSV fields from a CSV's JSON named `name` (its
    /// `metadata.name`), found at `location`.
    pub fn from_value(v: &Value, name: String, location: Location) -> Csv {
        let mut r = Reader::default();
        let spec = r.obj(v.get("spec"), "spec");
        let annotations = r
            .obj(v.pointer("/metadata/annotations"), "metadata.annotations")
            .map(|m| {
                m.iter()
                    .filter_map(|(k, val)| match val {
                        Value::String(s) => Some((k.clone(), s.clone())),
                        other => {
                            r.problems.push(format!(
                                "metadata.annotations[{k:?}] must be a string, found a {}",
                                kind_of(other)
                            ));
                            None
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let get = |key: &str| spec.and_then(|s| s.get(key));
        let crds = r.obj(
            get("customresourcedefinitions"),
            "spec.customresourcedefinitions",
        );
        let apis = r.obj(get("apiservicedefinitions"), "spec.apiservicedefinitions");
        let crd_list = |r: &mut Reader, which: &str| -> Vec<CrdDescription> {
            let field = format!("spec.customresourcedefinitions.{which}");
            r.list(crds.and_then(|c| c.get(which)), &field)
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    let f = format!("{field}[{i}]");
                    let m = r.obj(Some(item), &f)?;
                    Some(CrdDescription {
                        name: r.string(m.get("name"), &format!("{f}.name")),
                        version: r.string(m.get("version"), &format!("{f}.version")),
                        kind: r.string(m.get("kind"), &format!("{f}.kind")),
                    })
                })
                .collect()
        };
        let api_list = |r: &mut Reader, which: &str| -> Vec<ApiServiceDescription> {
            let field = format!("spec.apiservicedefinitions.{which}");
            r.list(apis.and_then(|c| c.get(which)), &field)
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    let f = format!("{field}[{i}]");
                    let m = r.obj(Some(item), &f)?;
                    Some(ApiServiceDescription {
                        name: r.string(m.get("name"), &format!("{f}.name")),
                        group: r.string(m.get("group"), &format!("{f}.group")),
                        version: r.string(m.get("version"), &format!("{f}.version")),
                        kind: r.string(m.get("kind"), &format!("{f}.kind")),
                    })
                })
                .collect()
        };
        let owned_crds = crd_list(&mut r, "owned");
        let required_crds = crd_list(&mut r, "required");
        let owned_apis = api_list(&mut r, "owned");
        let required_apis = api_list(&mut r, "required");
        let related_images = r
            .list(get("relatedImages"), "spec.relatedImages")
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let f = format!("spec.relatedImages[{i}]");
                let m = r.obj(Some(item), &f)?;
                Some(RelatedImage {
                    name: r.string(m.get("name"), &format!("{f}.name")),
                    image: r.string(m.get("image"), &format!("{f}.image")),
                })
            })
            .collect();
        let operator_images = operator_images(spec, &mut r);
        let version = match get("version") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                r.problems.push(format!(
                    "spec.version must be a string, found a {}",
                    kind_of(other)
                ));
                None
            }
        };
        let replaces = Some(r.string(get("replaces"), "spec.replaces")).filter(|s| !s.is_empty());
        let skips = r
            .list(get("skips"), "spec.skips")
            .iter()
            .enumerate()
            .map(|(i, s)| r.string(Some(s), &format!("spec.skips[{i}]")))
            .collect();
        let release = r.string(get("release"), "spec.release");
        Csv {
            name,
            version,
            release,
            replaces,
            skips,
            annotations,
            owned_crds,
            required_crds,
            owned_apis,
            required_apis,
            related_images,
            operator_images,
            location,
            problems: r.problems,
        }
    }

    /// The APIs OLM v0 reads from an installed CSV (`providedAPIsToProperties`,
    /// `requiredAPIsToProperties`): `olm.gvk` for each owned CRD (its group
    /// the CRD name after the first dot) and owned API service, then
    /// `olm.gvk.required` for each required one, in the CSV's order.
    pub fn api_properties(&self) -> Vec<Property> {
        let crd = |c: &CrdDescription| {
            let group = c.plural_group().map_or("", |(_, g)| g);
            gvk_value(group, &c.kind, &c.version)
        };
        let api = |a: &ApiServiceDescription| gvk_value(&a.group, &a.kind, &a.version);
        let property = |type_: &str, value: RawJson| Property {
            type_: type_.to_owned(),
            value,
        };
        let owned = self
            .owned_crds
            .iter()
            .map(crd)
            .chain(self.owned_apis.iter().map(api))
            .map(|v| property(types::GVK, v));
        let required = self
            .required_crds
            .iter()
            .map(crd)
            .chain(self.required_apis.iter().map(api))
            .map(|v| property(types::GVK_REQUIRED, v));
        owned.chain(required).collect()
    }
}

/// An `olm.gvk` value as OLM writes it: `{"group","kind","version"}`.
fn gvk_value(group: &str, kind: &str, version: &str) -> RawJson {
    olmsat_encoding::rawjson::to_raw(&serde_json::json!({
        "group": group,
        "kind": kind,
        "version": version,
    }))
}

fn operator_images(spec: Option<&Map<String, Value>>, r: &mut Reader) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(install) = spec.and_then(|s| s.get("install")) else {
        return out;
    };
    if install.get("strategy").and_then(Value::as_str) != Some("deployment") {
        return out;
    }
    let deployments = r.list(
        install.pointer("/spec/deployments"),
        "spec.install.spec.deployments",
    );
    for (i, d) in deployments.iter().enumerate() {
        for which in ["initContainers", "containers"] {
            let field = format!("spec.install.spec.deployments[{i}].spec.template.spec.{which}");
            let containers = r.list(d.pointer(&format!("/spec/template/spec/{which}")), &field);
            for (j, c) in containers.iter().enumerate() {
                let img = r.string(c.get("image"), &format!("{field}[{j}].image"));
                if !img.is_empty() && !out.contains(&img) {
                    out.push(img);
                }
            }
        }
    }
    out
}

/// Reads typed fields, recording type problems.
#[derive(Default)]
struct Reader {
    problems: Vec<String>,
}

impl Reader {
    fn obj<'v>(&mut self, v: Option<&'v Value>, field: &str) -> Option<&'v Map<String, Value>> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                self.problems.push(format!(
                    "{field} must be a mapping, found a {}",
                    kind_of(other)
                ));
                None
            }
        }
    }

    fn list<'v>(&mut self, v: Option<&'v Value>, field: &str) -> &'v [Value] {
        match v {
            None | Some(Value::Null) => &[],
            Some(Value::Array(a)) => a,
            Some(other) => {
                self.problems.push(format!(
                    "{field} must be a list, found a {}",
                    kind_of(other)
                ));
                &[]
            }
        }
    }

    fn string(&mut self, v: Option<&Value>, field: &str) -> String {
        match v {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.problems.push(format!(
                    "{field} must be a string, found a {}",
                    kind_of(other)
                ));
                String::new()
            }
        }
    }
}

/// A CustomResourceDefinition file's provided APIs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crd {
    /// `metadata.name` (`plural.group`).
    pub name: String,
    /// `spec.group`
    pub group: String,
    /// `spec.names.kind`
    pub kind: String,
    /// `spec.names.plural`
    pub plural: String,
    /// Served versions: `spec.versions[].name`, plus `spec.version` for
    /// `apiextensions.k8s.io/v1beta1`, in that order, duplicates removed.
    pub versions: Vec<String>,
    /// Where the CRD starts.
    pub location: Location,
    /// Fields of the wrong type, as messages.
    pub problems: Vec<String>,
}

impl Crd {
    /// Read the CRD fields from an object.
    pub fn from_object(o: &Object) -> Crd {
        let mut r = Reader::default();
        let v = &o.value;
        let group = r.string(v.pointer("/spec/group"), "spec.group");
        let kind = r.string(v.pointer("/spec/names/kind"), "spec.names.kind");
        let plural = r.string(v.pointer("/spec/names/plural"), "spec.names.plural");
        let mut versions: Vec<String> = Vec::new();
        if o.api_version == "apiextensions.k8s.io/v1beta1" {
            let single = r.string(v.pointer("/spec/version"), "spec.version");
            if !single.is_empty() {
                versions.push(single);
            }
        }
        for (i, item) in r
            .list(v.pointer("/spec/versions"), "spec.versions")
            .iter()
            .enumerate()
        {
            let name = r.string(item.get("name"), &format!("spec.versions[{i}].name"));
            if !versions.contains(&name) {
                versions.push(name);
            }
        }
        Crd {
            name: o.name.clone(),
            group,
            kind,
            plural,
            versions,
            location: o.location.clone(),
            problems: r.problems,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::documents;
    use std::sync::Arc;

    fn object(text: &str) -> Object {
        let (mut d, diags) = documents(&Arc::from("f.yaml"), text);
        assert!(diags.is_empty(), "{diags:?}");
        Object::from_document(d.remove(0))
    }

    #[test]
    fn reads_csv_fields() {
        let o = object(
            r#"apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcd.v0.9.2
  annotations:
    olm.skipRange: ">=0.9.0 <0.9.2"
    n: 3
spec:
  version: 0.9.2
  replaces: etcd.v0.9.0
  skips: [etcd.v0.9.1]
  customresourcedefinitions:
    owned:
    - {name: etcdclusters.etcd.database.coreos.com, version: v1beta2, kind: EtcdCluster}
    required:
    - {name: things.example.com, version: v1, kind: Thing}
  apiservicedefinitions:
    owned:
    - {name: widgets, group: w.example.com, version: v1, kind: Widget}
  relatedImages:
  - {name: a, image: quay.io/a:1}
  install:
    strategy: deployment
    spec:
      deployments:
      - name: d
        spec:
          template:
            spec:
              initContainers: [{name: i, image: quay.io/init:1}]
              containers: [{name: c, image: quay.io/op:1}, {name: c2, image: quay.io/op:1}]
"#,
        );
        let c = Csv::from_object(&o);
        assert_eq!(c.name, "etcd.v0.9.2");
        assert_eq!(c.version.as_deref(), Some("0.9.2"));
        assert_eq!(c.replaces.as_deref(), Some("etcd.v0.9.0"));
        assert_eq!(c.skips, ["etcd.v0.9.1"]);
        assert_eq!(c.skip_range(), Some(">=0.9.0 <0.9.2"));
        assert_eq!(c.owned_crds.len(), 1);
        assert_eq!(
            c.owned_crds[0].to_string(),
            "etcdclusters.etcd.database.coreos.com/v1beta2, Kind=EtcdCluster"
        );
        assert_eq!(
            c.required_crds[0].plural_group(),
            Some(("things", "example.com"))
        );
        assert_eq!(c.owned_apis[0].group, "w.example.com");
        assert_eq!(c.related_images[0].image, "quay.io/a:1");
        assert_eq!(c.operator_images, ["quay.io/init:1", "quay.io/op:1"]);
        assert_eq!(c.problems.len(), 1, "{:?}", c.problems);
        let apis: Vec<(String, String)> = c
            .api_properties()
            .into_iter()
            .map(|p| (p.type_, p.value.get().to_owned()))
            .collect();
        assert_eq!(
            apis,
            [
                (
                    "olm.gvk",
                    r#"{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}"#
                ),
                (
                    "olm.gvk",
                    r#"{"group":"w.example.com","kind":"Widget","version":"v1"}"#
                ),
                (
                    "olm.gvk.required",
                    r#"{"group":"example.com","kind":"Thing","version":"v1"}"#
                ),
            ]
            .map(|(t, v)| (t.to_owned(), v.to_owned()))
        );
    }

    #[test]
    fn wrong_types_are_problems() {
        let o = object(
            "kind: ClusterServiceVersion\nmetadata: {name: x}\nspec:\n  version: 1.0\n  skips: a\n",
        );
        let c = Csv::from_object(&o);
        assert_eq!(c.version, None);
        assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    }

    #[test]
    fn crd_versions_v1_and_v1beta1() {
        let v1 = object("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: as.g}\nspec:\n  group: g\n  names: {kind: A, plural: as}\n  version: ignored\n  versions: [{name: v1}, {name: v2}]\n");
        assert_eq!(Crd::from_object(&v1).versions, ["v1", "v2"]);
        let b1 = object("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: as.g}\nspec:\n  group: g\n  names: {kind: A, plural: as}\n  version: v1alpha1\n  versions: [{name: v1alpha1}, {name: v1beta1}]\n");
        let c = Crd::from_object(&b1);
        assert_eq!(c.versions, ["v1alpha1", "v1beta1"]);
        assert_eq!(c.plural, "as");
    }
}
