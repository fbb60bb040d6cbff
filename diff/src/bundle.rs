//! Whether a bundle that kept its name changed: image, version, release,
//! related images or properties.
//!
//! opm's `bundle-object-to-csv-metadata` migration (which turns the
//! `olm.bundle.object` properties into one `olm.csv.metadata`) is not a
//! change: when OLD carries bundle objects and NEW carries CSV metadata, the
//! migration is applied to OLD's bundle before comparing.

use serde_json::Value;

use olmsat_catalog::declcfg::{self, DeclarativeConfig, Property};
use olmsat_catalog::model::Bundle;
use olmsat_catalog::property::types;

/// What differs between the OLD and NEW bundle of one name, in words
/// (`None` when nothing does).
pub(crate) fn difference(old: &Bundle, new: &Bundle) -> Option<String> {
    let mut what = Vec::new();
    if old.image != new.image {
        what.push(format!("image {} -> {}", old.image, new.image));
    }
    if old.version != new.version {
        let show =
            |v: &Option<semver::Version>| v.as_ref().map_or("none".to_owned(), ToString::to_string);
        what.push(format!(
            "version {} -> {}",
            show(&old.version),
            show(&new.version)
        ));
    }
    if old.release != new.release {
        what.push("release".to_owned());
    }
    fn images(b: &Bundle) -> Vec<(&str, &str)> {
        let mut v: Vec<(&str, &str)> = b
            .related_images
            .iter()
            .map(|r| (r.image.as_str(), r.name.as_str()))
            .collect();
        v.sort_unstable();
        v
    }
    if images(old) != images(new) {
        what.push("related images".to_owned());
    }
    if let Some(props) = property_difference(old, new) {
        what.push(props);
    }
    (!what.is_empty()).then(|| what.join("; "))
}

/// Whether the properties differ (as sets of type and JSON value), after
/// migrating OLD's bundle objects when NEW was migrated.
fn property_difference(old: &Bundle, new: &Bundle) -> Option<String> {
    let same_text = old.properties.len() == new.properties.len()
        && old
            .properties
            .iter()
            .zip(&new.properties)
            .all(|(a, b)| a.type_ == b.type_ && a.value.get() == b.value.get());
    if same_text {
        return None;
    }
    let has = |ps: &[Property], t: &str| ps.iter().any(|p| p.type_ == t);
    let migrated;
    let old_props: &[Property] = if has(&old.properties, types::BUNDLE_OBJECT)
        && !has(&new.properties, types::BUNDLE_OBJECT)
        && has(&new.properties, types::CSV_METADATA)
    {
        migrated = migrate(&old.properties);
        &migrated
    } else {
        &old.properties
    };
    let (a, b) = (canonical(old_props), canonical(&new.properties));
    if a == b {
        return None;
    }
    let mut types: Vec<&str> = a
        .iter()
        .filter(|p| !b.contains(p))
        .chain(b.iter().filter(|p| !a.contains(p)))
        .map(|(t, _)| t.as_str())
        .collect();
    types.sort_unstable();
    types.dedup();
    Some(format!("properties ({})", types.join(", ")))
}

/// The properties after the `bundle-object-to-csv-metadata` migration.
fn migrate(props: &[Property]) -> Vec<Property> {
    let mut cfg = DeclarativeConfig {
        bundles: vec![declcfg::Bundle {
            properties: props.to_vec(),
            ..declcfg::Bundle::default()
        }],
        ..DeclarativeConfig::default()
    };
    olmsat_bundle::render::migrate_to_csv_metadata(&mut cfg);
    cfg.bundles.pop().map(|b| b.properties).unwrap_or_default()
}

/// Properties as a sorted list of (type, JSON value with sorted keys).
fn canonical(props: &[Property]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = props
        .iter()
        .map(|p| {
            let text = match serde_json::from_str::<Value>(p.value.get()) {
                Ok(v) => v.to_string(),
                Err(_) => p.value.get().to_owned(),
            };
            (p.type_.clone(), text)
        })
        .collect();
    out.sort_unstable();
    out
}
