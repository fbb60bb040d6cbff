//! OLM v1 objects from the cluster file: `ClusterCatalog` and
//! `ClusterExtension` (`olm.operatorframework.io/v1`).

use std::collections::BTreeMap;

use olmsat_encoding::location::Location;
use serde_json::Value;

use super::selector::{LabelSelector, Requirement};
use crate::cluster_error::ClusterError;

/// The label every ClusterCatalog carries with its own name.
pub const NAME_LABEL: &str = "olm.operatorframework.io/metadata.name";

/// `spec.availabilityMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// `Available` (the default): the catalog is walked.
    Available,
    /// `Unavailable`: the catalog is left out of every walk.
    Unavailable,
}

/// Whether catalogd serves the catalog's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serving {
    /// Served (a `Serving` condition that is True, or no status at all).
    Yes,
    /// `status.conditions` has `Serving` not True.
    No,
}

/// A ClusterCatalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterCatalog {
    /// metadata.name
    pub name: String,
    /// metadata.labels, with the name label set.
    pub labels: BTreeMap<String, String>,
    /// spec.priority (higher wins ties between catalogs).
    pub priority: i32,
    /// spec.availabilityMode
    pub availability: Availability,
    /// The Serving condition.
    pub serving: Serving,
}

impl ClusterCatalog {
    /// A catalog named `name` as `--catalog NAME=DIR` makes it: priority 0,
    /// available, serving, the name label set.
    pub fn named(name: &str) -> ClusterCatalog {
        let mut labels = BTreeMap::new();
        labels.insert(NAME_LABEL.to_owned(), name.to_owned());
        ClusterCatalog {
            name: name.to_owned(),
            labels,
            priority: 0,
            availability: Availability::Available,
            serving: Serving::Yes,
        }
    }
}

/// `spec.source.catalog.upgradeConstraintPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpgradePolicy {
    /// Only upgrade edges the catalog declares (the default).
    #[default]
    CatalogProvided,
    /// Any version, including downgrades.
    SelfCertified,
}

impl UpgradePolicy {
    /// Read the API's spelling.
    pub fn parse(s: &str) -> Option<UpgradePolicy> {
        match s {
            "" | "CatalogProvided" => Some(UpgradePolicy::CatalogProvided),
            "SelfCertified" => Some(UpgradePolicy::SelfCertified),
            _ => None,
        }
    }

    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            UpgradePolicy::CatalogProvided => "CatalogProvided",
            UpgradePolicy::SelfCertified => "SelfCertified",
        }
    }
}

/// The installed bundle (`status.install.bundle`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledBundle {
    /// Bundle name.
    pub name: String,
    /// Version as written (in legacy form it carries the release as build
    /// metadata, e.g. `1.0.0+2`).
    pub version: String,
    /// An explicit release, when given.
    pub release: Option<String>,
}

/// A ClusterExtension: what to install from which catalogs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterExtension {
    /// metadata.name
    pub name: String,
    /// spec.namespace (install namespace; not a selection input).
    pub namespace: String,
    /// spec.source.catalog.packageName
    pub package: String,
    /// spec.source.catalog.version (empty: no version filter).
    pub version: String,
    /// spec.source.catalog.channels (empty: all channels).
    pub channels: Vec<String>,
    /// spec.source.catalog.selector (`None`: every catalog).
    pub selector: Option<LabelSelector>,
    /// spec.source.catalog.upgradeConstraintPolicy
    pub policy: UpgradePolicy,
    /// status.install.bundle
    pub installed: Option<InstalledBundle>,
    /// Where it was declared.
    pub location: Location,
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path).and_then(Value::as_str).unwrap_or("")
}

fn string_map(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), text)
        })
        .collect()
}

/// Read a ClusterCatalog object.
pub fn cluster_catalog(v: &Value, loc: &Location) -> Result<ClusterCatalog, ClusterError> {
    let err = |m: String| ClusterError {
        location: loc.clone(),
        message: m,
    };
    let name = s(v, "/metadata/name").to_owned();
    if name.is_empty() {
        return Err(err(
            "ClusterCatalog has no metadata.name: give it the name used with --catalog NAME=DIR"
                .into(),
        ));
    }
    let mut labels = string_map(v.pointer("/metadata/labels"));
    labels.insert(NAME_LABEL.to_owned(), name.clone());
    let priority = match v.pointer("/spec/priority") {
        None | Some(Value::Null) => 0,
        Some(p) => p
            .as_i64()
            .and_then(|p| i32::try_from(p).ok())
            .ok_or_else(|| {
                err(format!(
                    "ClusterCatalog {name:?}: spec.priority {p} is not a 32-bit integer"
                ))
            })?,
    };
    let availability = match s(v, "/spec/availabilityMode") {
        "" | "Available" => Availability::Available,
        "Unavailable" => Availability::Unavailable,
        other => {
            return Err(err(format!(
                "ClusterCatalog {name:?}: spec.availabilityMode {other:?} is not Available or Unavailable"
            )))
        }
    };
    let serving = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .and_then(|cs| cs.iter().find(|c| s(c, "/type") == "Serving"))
        .map(|c| {
            if s(c, "/status") == "True" {
                Serving::Yes
            } else {
                Serving::No
            }
        })
        .unwrap_or(Serving::Yes);
    Ok(ClusterCatalog {
        name,
        labels,
        priority,
        availability,
        serving,
    })
}

/// Read a ClusterExtension object.
pub fn cluster_extension(v: &Value, loc: &Location) -> Result<ClusterExtension, ClusterError> {
    let name = s(v, "/metadata/name").to_owned();
    let err = |m: String| ClusterError {
        location: loc.clone(),
        message: format!("ClusterExtension {name:?}: {m}"),
    };
    match s(v, "/spec/source/sourceType") {
        "Catalog" | "" => {}
        other => {
            return Err(err(format!(
                "spec.source.sourceType {other:?} is not supported (only Catalog)"
            )))
        }
    }
    let catalog = v.pointer("/spec/source/catalog");
    let Some(catalog) = catalog.filter(|c| c.is_object()) else {
        return Err(err(
            "spec.source.catalog is missing: catalog is required when sourceType is Catalog".into(),
        ));
    };
    let package = s(catalog, "/packageName").to_owned();
    if package.is_empty() {
        return Err(err("spec.source.catalog.packageName is missing".into()));
    }
    let channels = catalog
        .get("channels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().map(str::to_owned))
        .collect();
    let policy_text = s(catalog, "/upgradeConstraintPolicy");
    let policy = UpgradePolicy::parse(policy_text).ok_or_else(|| {
        err(format!(
            "spec.source.catalog.upgradeConstraintPolicy {policy_text:?} is not CatalogProvided or SelfCertified"
        ))
    })?;
    let selector = catalog
        .get("selector")
        .filter(|s| !s.is_null())
        .map(selector);
    let installed = v
        .pointer("/status/install/bundle")
        .filter(|b| b.is_object())
        .map(|b| InstalledBundle {
            name: s(b, "/name").to_owned(),
            version: s(b, "/version").to_owned(),
            release: b.get("release").and_then(Value::as_str).map(str::to_owned),
        })
        .filter(|b| !b.name.is_empty() || !b.version.is_empty());
    Ok(ClusterExtension {
        name,
        namespace: s(v, "/spec/namespace").to_owned(),
        package,
        version: s(catalog, "/version").to_owned(),
        channels,
        selector,
        policy,
        installed,
        location: loc.clone(),
    })
}

fn selector(v: &Value) -> LabelSelector {
    let mut out = LabelSelector {
        match_labels: string_map(v.get("matchLabels")),
        match_expressions: Vec::new(),
    };
    for e in v
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.match_expressions.push(Requirement {
            key: s(e, "/key").to_owned(),
            operator: s(e, "/operator").to_owned(),
            values: e
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect(),
        });
    }
    out
}
