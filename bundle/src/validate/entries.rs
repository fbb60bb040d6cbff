//! `dependencies.yaml` and `properties.yaml` entries, and the property values
//! they and the CSV's annotation hold.

use super::*;

impl Checker<'_> {
    pub(super) fn dependencies(&mut self, deps: &EntryList) {
        if !deps.key_found {
            self.warn(
                Rule::EmptyDeclaration,
                "dependencies.yaml has no dependencies list; it declares nothing",
                &deps.location,
            );
        }
        for e in &deps.entries {
            let value = e.value.as_ref().unwrap_or(&Value::Null);
            let errs = match e.type_.as_str() {
                types::GVK => gvk_errors(value),
                types::PACKAGE => package_errors(value, "version"),
                types::LABEL => {
                    let label = value.get("label").and_then(Value::as_str).unwrap_or("");
                    if label.is_empty() {
                        vec!["Label information is missing".to_owned()]
                    } else {
                        Vec::new()
                    }
                }
                types::CONSTRAINT => constraint_errors(value),
                other => vec![format!("unsupported dependency type {other}")],
            };
            for msg in errs {
                self.error(Rule::InvalidDependency, msg, &e.location);
            }
        }
    }

    pub(super) fn properties(&mut self, props: &EntryList) {
        if !props.key_found {
            let keys: Vec<&str> = props.other_keys.iter().map(|(k, _)| k.as_str()).collect();
            let mut msg =
                "properties.yaml has no properties list, so it declares nothing".to_owned();
            if !keys.is_empty() {
                msg.push_str(&format!(" (found {})", keys.join(", ")));
            }
            if keys.contains(&"dependencies") {
                msg.push_str("; dependencies belong in metadata/dependencies.yaml");
            }
            self.warn(Rule::EmptyDeclaration, msg, &props.location);
        }
        for (i, e) in props.entries.iter().enumerate() {
            if e.type_.is_empty() {
                self.error(
                    Rule::InvalidProperty,
                    format!("properties[{i}]: type must be set"),
                    &e.location,
                );
                continue;
            }
            let Some(value) = &e.value else {
                self.warn(
                    Rule::PropertyValueMissing,
                    format!(
                        "property {:?} has no value; catalogs require one (it renders as null)",
                        e.type_
                    ),
                    &e.location,
                );
                continue;
            };
            let p = Property {
                type_: e.type_.clone(),
                value: olmsat_encoding::rawjson::to_raw(value),
            };
            if types::KNOWN.contains(&e.type_.as_str()) {
                if let Err(err) = property::parse(&p) {
                    self.error(
                        Rule::InvalidProperty,
                        format!("parse property[{i}] of type {:?}: {err}", e.type_),
                        &e.location,
                    );
                }
                if e.type_ == types::CONSTRAINT {
                    for msg in constraint_errors(value) {
                        self.error(Rule::InvalidProperty, msg, &e.location);
                    }
                }
            } else if e.type_.starts_with("olm.") {
                self.warn(Rule::UnknownOlmPropertyType,
                    format!("property type {:?} is in the olm.* namespace but OLM does not define it; OLM ignores it", e.type_),
                    &e.location,
                );
            }
        }
    }
}

/// Text that finds a `key: value` member in YAML or JSON, most specific first,
/// then the bare value.
pub(super) fn kv(key: &str, value: &str) -> Vec<String> {
    vec![
        format!("{key}: {value}"),
        format!("{key}: \"{value}\""),
        format!("{key}: '{value}'"),
        format!("\"{key}\": \"{value}\""),
        value.to_owned(),
    ]
}

/// The errors of an `olm.gvk` dependency value (opm's texts).
pub(super) fn gvk_errors(value: &Value) -> Vec<String> {
    let s = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("");
    let mut errs = Vec::new();
    if s("group").is_empty() {
        errs.push("API Group is empty".to_owned());
    }
    if s("version").is_empty() {
        errs.push("API Version is empty".to_owned());
    }
    if s("kind").is_empty() {
        errs.push("API Kind is empty".to_owned());
    }
    errs
}

/// The errors of a package dependency: name set, version a blang range.
pub(super) fn package_errors(value: &Value, range_key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = value
        .get("packageName")
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.is_empty() {
        errs.push("Package name is empty".to_owned());
    }
    let range = value.get(range_key).and_then(Value::as_str).unwrap_or("");
    if Range::parse(range).is_err() {
        errs.push("Invalid semver format version".to_owned());
    }
    errs
}

/// The errors of an `olm.constraint` value: exactly one of `cel`, `gvk`,
/// `package`, `all`, `any`, `not`, each well formed, compound ones recursively.
pub(super) fn constraint_errors(value: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    constraint_errors_into(value, "olm.constraint", &mut errs);
    errs
}

pub(super) fn constraint_errors_into(value: &Value, at: &str, errs: &mut Vec<String>) {
    let Value::Object(obj) = value else {
        errs.push(format!(
            "{at}: value must be a mapping, found a {}",
            kind_of(value)
        ));
        return;
    };
    const KINDS: [&str; 6] = ["cel", "gvk", "package", "all", "any", "not"];
    let present: Vec<&str> = KINDS
        .into_iter()
        .filter(|k| obj.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    if present.len() != 1 {
        errs.push(format!(
            "{at}: a constraint needs exactly one of cel, gvk, package, all, any or not; found {}",
            if present.is_empty() {
                "none".to_owned()
            } else {
                present.join(", ")
            }
        ));
    }
    for k in present {
        let Some(v) = obj.get(k) else { continue };
        match k {
            "cel" => {
                let rule = v.get("rule").and_then(Value::as_str).unwrap_or("");
                if rule.trim().is_empty() {
                    errs.push(format!("{at}.cel: The CEL expression is missing"));
                } else if let Err(e) = olmsat_catalog::cel_limits::compile(rule) {
                    errs.push(format!("{at}.cel: invalid CEL expression: {e}"));
                }
            }
            "gvk" => errs.extend(gvk_errors(v).into_iter().map(|e| format!("{at}.gvk: {e}"))),
            "package" => errs.extend(
                package_errors(v, "versionRange")
                    .into_iter()
                    .map(|e| format!("{at}.package: {e}")),
            ),
            _ => match v.get("constraints") {
                Some(Value::Array(items)) if !items.is_empty() => {
                    for (i, item) in items.iter().enumerate() {
                        constraint_errors_into(item, &format!("{at}.{k}.constraints[{i}]"), errs);
                    }
                }
                _ => errs.push(format!("{at}.{k}: constraints must be a non-empty list")),
            },
        }
    }
}

/// Why a CSV's `olm.properties` annotation cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum AnnotationError {
    /// Not a JSON list of objects (serde_json's text).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A property without a type.
    #[error("property[{0}]: type must be set")]
    NoType(usize),
    /// A property without a value.
    #[error("property[{0}]: value must be set")]
    NoValue(usize),
}

/// Parse the CSV `olm.properties` annotation: a JSON list of `{type, value}`.
pub fn csv_annotation_properties(text: &str) -> Result<Vec<Property>, AnnotationError> {
    let items: Vec<Value> = serde_json::from_str(text)?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let t = item.get("type").and_then(Value::as_str).unwrap_or("");
            if t.is_empty() {
                return Err(AnnotationError::NoType(i));
            }
            let Some(v) = item.get("value") else {
                return Err(AnnotationError::NoValue(i));
            };
            Ok(Property {
                type_: t.to_owned(),
                value: olmsat_encoding::rawjson::to_raw(v),
            })
        })
        .collect()
}

/// Why `name` is not a Kubernetes object name (a DNS-1123 subdomain), if it is not.
pub fn object_name_error(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("must not be empty".to_owned());
    }
    if name.len() > 253 {
        return Some("must be no more than 253 characters".to_owned());
    }
    let ok = name.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    });
    (!ok).then(|| {
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_owned()
    })
}
