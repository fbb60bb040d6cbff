//! The value of an `olm.csv.metadata` property: the CSV fields opm keeps when it
//! replaces bundle objects, passed through the Go structs it decodes them into.
//!
//! Going through Go structs matters for the exact output: unknown fields are
//! dropped, fields without `omitempty` are written even when empty (a resource
//! reference always has `"name"`), and fields with `omitempty` are dropped when
//! empty. JSON keys match struct fields case-insensitively, as Go matches them.

use serde_json::{Map, Value};

/// How one struct field is decoded and written.
#[derive(Clone, Copy)]
enum Kind {
    /// `string`
    Str,
    /// `string` with `omitempty`
    StrOmit,
    /// `bool`
    Bool,
    /// an integer with `omitempty`
    IntOmit,
    /// `json.RawMessage` with `omitempty`
    RawOmit,
    /// `[]string` with `omitempty`
    StrListOmit,
    /// `map[string]string` with `omitempty`
    StrMapOmit,
    /// a slice of structs with `omitempty`
    ListOmit(&'static [Field]),
    /// a struct (always written: `omitempty` never drops a struct)
    Struct(&'static [Field]),
}

type Field = (&'static str, Kind);

const RESOURCE_REF: &[Field] = &[
    ("name", Kind::Str),
    ("kind", Kind::Str),
    ("version", Kind::Str),
];

const DESCRIPTOR: &[Field] = &[
    ("path", Kind::Str),
    ("displayName", Kind::StrOmit),
    ("description", Kind::StrOmit),
    ("x-descriptors", Kind::StrListOmit),
    ("value", Kind::RawOmit),
];

const CRD_DESCRIPTION: &[Field] = &[
    ("name", Kind::Str),
    ("version", Kind::Str),
    ("kind", Kind::Str),
    ("displayName", Kind::StrOmit),
    ("description", Kind::StrOmit),
    ("resources", Kind::ListOmit(RESOURCE_REF)),
    ("statusDescriptors", Kind::ListOmit(DESCRIPTOR)),
    ("specDescriptors", Kind::ListOmit(DESCRIPTOR)),
    ("actionDescriptors", Kind::ListOmit(DESCRIPTOR)),
];

const CRDS: &[Field] = &[
    ("owned", Kind::ListOmit(CRD_DESCRIPTION)),
    ("required", Kind::ListOmit(CRD_DESCRIPTION)),
];

const API_SERVICE_DESCRIPTION: &[Field] = &[
    ("name", Kind::Str),
    ("group", Kind::Str),
    ("version", Kind::Str),
    ("kind", Kind::Str),
    ("deploymentName", Kind::StrOmit),
    ("containerPort", Kind::IntOmit),
    ("displayName", Kind::StrOmit),
    ("description", Kind::StrOmit),
    ("resources", Kind::ListOmit(RESOURCE_REF)),
    ("statusDescriptors", Kind::ListOmit(DESCRIPTOR)),
    ("specDescriptors", Kind::ListOmit(DESCRIPTOR)),
    ("actionDescriptors", Kind::ListOmit(DESCRIPTOR)),
];

const API_SERVICES: &[Field] = &[
    ("owned", Kind::ListOmit(API_SERVICE_DESCRIPTION)),
    ("required", Kind::ListOmit(API_SERVICE_DESCRIPTION)),
];

const INSTALL_MODE: &[Field] = &[("type", Kind::Str), ("supported", Kind::Bool)];

const APP_LINK: &[Field] = &[("name", Kind::StrOmit), ("url", Kind::StrOmit)];

const MAINTAINER: &[Field] = &[("name", Kind::StrOmit), ("email", Kind::StrOmit)];

const GVK: &[Field] = &[
    ("group", Kind::Str),
    ("version", Kind::Str),
    ("kind", Kind::Str),
];

/// A member of `obj` matched as Go matches a struct field: exact key first, then
/// case-insensitively.
fn member<'v>(obj: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    obj.get(key).or_else(|| {
        obj.iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// Decode `v` as a struct with `fields` and encode it back.
fn project(v: Option<&Value>, fields: &[Field]) -> Value {
    let empty = Map::new();
    let obj = v.and_then(Value::as_object).unwrap_or(&empty);
    let mut out = Map::new();
    for (key, kind) in fields {
        if let Some(val) = field(member(obj, key), *kind) {
            out.insert((*key).to_owned(), val);
        }
    }
    Value::Object(out)
}

/// Decode and encode one field; `None` when `omitempty` drops it.
fn field(v: Option<&Value>, kind: Kind) -> Option<Value> {
    let v = v.filter(|v| !v.is_null());
    match kind {
        Kind::Str => Some(Value::from(v.and_then(Value::as_str).unwrap_or(""))),
        Kind::StrOmit => v
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(Value::from),
        Kind::Bool => Some(Value::Bool(v.and_then(Value::as_bool).unwrap_or(false))),
        Kind::IntOmit => v.filter(|n| n.as_i64().is_some_and(|i| i != 0)).cloned(),
        Kind::RawOmit => v.cloned(),
        Kind::StrListOmit => {
            let items: Vec<Value> = v
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|s| Value::from(s.as_str().unwrap_or("")))
                        .collect()
                })
                .unwrap_or_default();
            (!items.is_empty()).then_some(Value::Array(items))
        }
        Kind::StrMapOmit => {
            let m: Map<String, Value> = v
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter()
                        .map(|(k, s)| (k.clone(), Value::from(s.as_str().unwrap_or(""))))
                        .collect()
                })
                .unwrap_or_default();
            (!m.is_empty()).then_some(Value::Object(m))
        }
        Kind::ListOmit(fields) => {
            let items: Vec<Value> = v
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|i| project(Some(i), fields)).collect())
                .unwrap_or_default();
            (!items.is_empty()).then_some(Value::Array(items))
        }
        Kind::Struct(fields) => Some(project(v, fields)),
    }
}

/// The `olm.csv.metadata` value of a ClusterServiceVersion (as JSON).
pub fn csv_metadata(csv: &Value) -> Value {
    let empty = Map::new();
    let meta = csv
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let spec = csv.get("spec").and_then(Value::as_object).unwrap_or(&empty);
    let mut out = Map::new();
    let mut put = |key: &str, v: Option<&Value>, kind: Kind| {
        if let Some(val) = field(v, kind) {
            out.insert(key.to_owned(), val);
        }
    };
    put("annotations", member(meta, "annotations"), Kind::StrMapOmit);
    put(
        "apiServiceDefinitions",
        member(spec, "apiservicedefinitions"),
        Kind::Struct(API_SERVICES),
    );
    put(
        "crdDescriptions",
        member(spec, "customresourcedefinitions"),
        Kind::Struct(CRDS),
    );
    put("description", member(spec, "description"), Kind::StrOmit);
    put("displayName", member(spec, "displayName"), Kind::StrOmit);
    put(
        "installModes",
        member(spec, "installModes"),
        Kind::ListOmit(INSTALL_MODE),
    );
    put("keywords", member(spec, "keywords"), Kind::StrListOmit);
    put("labels", member(meta, "labels"), Kind::StrMapOmit);
    put("links", member(spec, "links"), Kind::ListOmit(APP_LINK));
    put(
        "maintainers",
        member(spec, "maintainers"),
        Kind::ListOmit(MAINTAINER),
    );
    put("maturity", member(spec, "maturity"), Kind::StrOmit);
    put(
        "minKubeVersion",
        member(spec, "minKubeVersion"),
        Kind::StrOmit,
    );
    put(
        "nativeAPIs",
        member(spec, "nativeAPIs"),
        Kind::ListOmit(GVK),
    );
    put("provider", member(spec, "provider"), Kind::Struct(APP_LINK));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_struct_round_trip() {
        let csv = json!({
            "metadata": {"name": "x", "annotations": {"a": "b"}, "labels": {}},
            "spec": {
                "displayName": "X",
                "keywords": [],
                "Maturity": "alpha",
                "customresourcedefinitions": {
                    "owned": [{
                        "name": "as.g", "version": "v1", "kind": "A", "unknown": 1,
                        "resources": [{"kind": "Deployment", "version": "v1"}],
                        "specDescriptors": [{"path": "p", "x-descriptors": ["u"], "value": {"k": 1}}]
                    }]
                },
                "installModes": [{"type": "OwnNamespace", "supported": true}, {"type": "AllNamespaces"}],
                "apiservicedefinitions": {"owned": [{"name": "w", "group": "g", "version": "v1", "kind": "W", "containerPort": 0}]}
            }
        });
        assert_eq!(
            csv_metadata(&csv),
            json!({
                "annotations": {"a": "b"},
                "apiServiceDefinitions": {"owned": [{"name": "w", "group": "g", "version": "v1", "kind": "W"}]},
                "crdDescriptions": {"owned": [{
                    "name": "as.g", "version": "v1", "kind": "A",
                    "resources": [{"name": "", "kind": "Deployment", "version": "v1"}],
                    "specDescriptors": [{"path": "p", "x-descriptors": ["u"], "value": {"k": 1}}]
                }]},
                "displayName": "X",
                "installModes": [{"type": "OwnNamespace", "supported": true}, {"type": "AllNamespaces", "supported": false}],
                "maturity": "alpha",
                "provider": {}
            })
        );
    }
}
