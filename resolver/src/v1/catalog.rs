//! What the v1 resolver sees of a catalog: each package's channels, bundles and
//! `olm.deprecations` blob, read the way operator-controller's catalog cache
//! reads a ClusterCatalog's content.
//!
//! Blobs are grouped by their own `package` field. The cache keeps one entry per
//! (package, schema, name), so a later blob with the same name replaces an
//! earlier one (it keeps the earlier one's place in the order), and the last
//! `olm.deprecations` blob of a package wins. Nothing is validated: catalogd
//! serves catalogs as they are.

use std::collections::{BTreeMap, HashMap};

use olmsat_catalog::declcfg::{DeclarativeConfig, Property};
use olmsat_catalog::property::types;
use olmsat_versions::range::Range;
use olmsat_versions::version::{self, Release, VersionRelease};
use serde_json::Value;

/// One channel entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The bundle name.
    pub name: String,
    /// `replaces` (empty when none).
    pub replaces: String,
    /// `skips`.
    pub skips: Vec<String>,
    /// `skipRange` (empty when none).
    pub skip_range: String,
    /// The skipRange parsed with blang's grammar (`None` when empty or
    /// unparseable: then it makes no edge).
    pub skip_range_parsed: Option<Range>,
}

/// One channel of a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// The channel name.
    pub name: String,
    /// Its entries, in written order.
    pub entries: Vec<Entry>,
}

impl Channel {
    /// Whether the channel has an entry named `bundle`.
    pub fn contains(&self, bundle: &str) -> bool {
        self.entries.iter().any(|e| e.name == bundle)
    }
}

/// How a bundle's version reads, or why it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BundleVersion {
    /// The version and release.
    Valid(VersionRelease),
    /// The bundle has no `olm.package` property, or its version or release
    /// cannot be parsed; the text is the reason.
    Invalid(String),
}

/// One bundle of a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// The bundle name.
    pub name: String,
    /// The bundle image.
    pub image: String,
    /// Its version, read as operator-controller reads it (see [`read_version`]).
    pub version: BundleVersion,
    /// The `olm.package` version as written.
    pub version_text: String,
    /// Property types the bundle declares, in order (dependency checks).
    pub property_types: Vec<String>,
    /// `olm.csv.metadata` install mode types the bundle supports, when the
    /// property says.
    pub install_modes: Option<Vec<String>>,
}

/// A package's `olm.deprecations` entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deprecations {
    /// The package entry's message, when there is one.
    pub package: Option<String>,
    /// Channel name → message.
    pub channels: BTreeMap<String, String>,
    /// Bundle name → message.
    pub bundles: BTreeMap<String, String>,
}

/// Everything a catalog holds for one package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageSlice {
    /// Whether any blob names this package (an `olm.package`, channel, bundle,
    /// deprecation or other blob).
    pub present: bool,
    /// Channels, in load order.
    pub channels: Vec<Channel>,
    /// Bundles, in load order.
    pub bundles: Vec<Bundle>,
    /// The package's `olm.deprecations` blob (the last one loaded), if any.
    pub deprecations: Option<Deprecations>,
    /// Bundle name → (channel index, entry index) of every entry naming it.
    memberships: HashMap<String, Vec<(u32, u32)>>,
}

impl PackageSlice {
    /// Build the membership index (after the channels are final).
    fn index(&mut self) {
        self.memberships.clear();
        for (ci, ch) in self.channels.iter().enumerate() {
            for (ei, e) in ch.entries.iter().enumerate() {
                self.memberships
                    .entry(e.name.clone())
                    .or_default()
                    .push((index_u32(ci), index_u32(ei)));
            }
        }
    }

    /// The entries naming `bundle`, with the index of their channel.
    pub fn entries_of<'a>(&'a self, bundle: &str) -> impl Iterator<Item = (usize, &'a Entry)> + 'a {
        self.memberships
            .get(bundle)
            .into_iter()
            .flatten()
            .map(|&(ci, ei)| {
                (
                    ci as usize,
                    &self.channels[ci as usize].entries[ei as usize],
                )
            })
    }
}

fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// A catalog's content indexed by package.
#[derive(Debug, Clone, Default)]
pub struct CatalogContent {
    packages: BTreeMap<String, PackageSlice>,
}

/// Replace the element named `key` (keeping its place) or append it;
/// `places` holds each name's place in `list`.
fn upsert<T>(list: &mut Vec<T>, places: &mut HashMap<String, usize>, key: &str, item: T) {
    match places.get(key) {
        Some(&i) => list[i] = item,
        None => {
            places.insert(key.to_owned(), list.len());
            list.push(item);
        }
    }
}

impl CatalogContent {
    /// Index a loaded catalog.
    pub fn from_config(cfg: &DeclarativeConfig, release_gate: bool) -> CatalogContent {
        let mut packages: BTreeMap<String, PackageSlice> = BTreeMap::new();
        // Each package's channels and bundles by name, for `upsert`.
        let mut channel_places: HashMap<String, HashMap<String, usize>> = HashMap::new();
        let mut bundle_places: HashMap<String, HashMap<String, usize>> = HashMap::new();
        for p in &cfg.packages {
            packages.entry(p.name.clone()).or_default().present = true;
        }
        for c in &cfg.channels {
            let slice = packages.entry(c.package.clone()).or_default();
            slice.present = true;
            let channel = Channel {
                name: c.name.clone(),
                entries: c
                    .entries
                    .iter()
                    .map(|e| Entry {
                        name: e.name.clone(),
                        replaces: e.replaces.clone().unwrap_or_default(),
                        skips: e.skips.clone(),
                        skip_range: e.skip_range.clone().unwrap_or_default(),
                        skip_range_parsed: e
                            .skip_range
                            .as_deref()
                            .filter(|r| !r.is_empty())
                            .and_then(|r| Range::parse(r).ok()),
                    })
                    .collect(),
            };
            let places = channel_places.entry(c.package.clone()).or_default();
            upsert(&mut slice.channels, places, &c.name, channel);
        }
        for b in &cfg.bundles {
            let slice = packages.entry(b.package.clone()).or_default();
            slice.present = true;
            let (version, version_text) = read_version(&b.name, &b.properties, release_gate);
            let bundle = Bundle {
                name: b.name.clone(),
                image: b.image.clone(),
                version,
                version_text,
                property_types: b.properties.iter().map(|p| p.type_.clone()).collect(),
                install_modes: install_modes(&b.properties),
            };
            let places = bundle_places.entry(b.package.clone()).or_default();
            upsert(&mut slice.bundles, places, &b.name, bundle);
        }
        for d in &cfg.deprecations {
            let slice = packages.entry(d.package.clone()).or_default();
            slice.present = true;
            let mut out = Deprecations::default();
            for e in &d.entries {
                match e.schema.as_str() {
                    "olm.package" => out.package = Some(e.message.clone()),
                    "olm.channel" => {
                        out.channels.insert(e.name.clone(), e.message.clone());
                    }
                    "olm.bundle" => {
                        out.bundles.insert(e.name.clone(), e.message.clone());
                    }
                    _ => {}
                }
            }
            slice.deprecations = Some(out);
        }
        for m in &cfg.others {
            if !m.package.is_empty() {
                packages.entry(m.package.clone()).or_default().present = true;
            }
        }
        for slice in packages.values_mut() {
            slice.index();
        }
        CatalogContent { packages }
    }

    /// The package's slice; `None` when no blob names it.
    pub fn package(&self, name: &str) -> Option<&PackageSlice> {
        self.packages.get(name).filter(|p| p.present)
    }

    /// Package names, sorted.
    pub fn package_names(&self) -> impl Iterator<Item = &str> {
        self.packages.keys().map(String::as_str)
    }
}

/// A bundle's version as operator-controller's `bundleutil` reads it from the
/// `olm.package` property.
///
/// With the `BundleReleaseSupport` gate off (the default), build metadata that
/// is a valid release becomes the release (`1.0.0+2` → version 1.0.0, release
/// 2). With the gate on and an explicit `release` key, the version is kept as
/// written and the release comes from the key. Returns the version and the
/// version text as written.
pub fn read_version(
    bundle: &str,
    properties: &[Property],
    release_gate: bool,
) -> (BundleVersion, String) {
    let Some(p) = properties.iter().find(|p| p.type_ == types::PACKAGE) else {
        return (
            BundleVersion::Invalid(format!("no package property found in bundle {bundle:?}")),
            String::new(),
        );
    };
    let value: Value = match serde_json::from_str(p.value.get()) {
        Ok(v) => v,
        Err(e) => return (BundleVersion::Invalid(e.to_string()), String::new()),
    };
    let text = value
        .get("version")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let explicit = value.get("release").and_then(Value::as_str);
    let parsed = match (release_gate, explicit) {
        (true, Some(rel)) => version::parse_strict(&text).and_then(|v| {
            version::parse_release(rel).map(|release| VersionRelease {
                version: v,
                release,
            })
        }),
        _ => version::parse_strict(&text).map(legacy),
    };
    match parsed {
        Ok(vr) => (BundleVersion::Valid(vr), text),
        Err(e) => (BundleVersion::Invalid(e.to_string()), text),
    }
}

/// Legacy reading: build metadata that parses as a release becomes the release.
pub fn legacy(mut v: semver::Version) -> VersionRelease {
    let release: Option<Release> = if v.build.is_empty() {
        None
    } else {
        version::parse_release(v.build.as_str()).ok().flatten()
    };
    if release.is_some() {
        v.build = semver::BuildMetadata::EMPTY;
    }
    VersionRelease {
        version: v,
        release,
    }
}

/// The install mode types an `olm.csv.metadata` property marks supported.
fn install_modes(properties: &[Property]) -> Option<Vec<String>> {
    let p = properties.iter().find(|p| p.type_ == types::CSV_METADATA)?;
    let value: Value = serde_json::from_str(p.value.get()).ok()?;
    let modes = value.get("installModes")?.as_array()?;
    Some(
        modes
            .iter()
            .filter(|m| m.get("supported").and_then(Value::as_bool) == Some(true))
            .filter_map(|m| m.get("type").and_then(Value::as_str).map(str::to_owned))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use olmsat_encoding::rawjson::raw_from_string;

    fn prop(t: &str, v: &str) -> Property {
        Property {
            type_: t.to_owned(),
            value: raw_from_string(v.to_owned()),
        }
    }

    fn vr(props: &[Property], gate: bool) -> String {
        match read_version("b", props, gate).0 {
            BundleVersion::Valid(v) => format!(
                "{}|{}",
                v.version,
                v.release.map(|r| r.to_string()).unwrap_or_default()
            ),
            BundleVersion::Invalid(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn versions_and_releases() {
        let pkg = |v: &str| prop("olm.package", v);
        assert_eq!(
            vr(
                &[pkg(
                    r#"{"packageName":"p","version":"1.0.0-pre+1.alpha.2"}"#
                )],
                false
            ),
            "1.0.0-pre|1.alpha.2"
        );
        assert_eq!(
            vr(
                &[pkg(r#"{"packageName":"p","version":"1.0.0+001"}"#)],
                false
            ),
            "1.0.0+001|"
        );
        assert!(vr(&[pkg(r#"{"packageName":"p","version":"abcd"}"#)], false).starts_with("error"));
        assert_eq!(
            vr(&[], false),
            "error: no package property found in bundle \"b\""
        );
        // Gate on: an explicit release wins over build metadata.
        let explicit = pkg(r#"{"packageName":"p","version":"1.0.0+ignored","release":"2"}"#);
        assert_eq!(vr(std::slice::from_ref(&explicit), true), "1.0.0+ignored|2");
        // Gate off: the explicit release is ignored.
        assert_eq!(vr(&[explicit], false), "1.0.0|ignored");
        assert!(vr(
            &[pkg(
                r#"{"packageName":"p","version":"1.0.0","release":"001"}"#
            )],
            true
        )
        .starts_with("error"));
        assert_eq!(
            vr(
                &[pkg(
                    r#"{"packageName":"p","version":"1.0.0+2","release":""}"#
                )],
                true
            ),
            "1.0.0+2|"
        );
    }
}
