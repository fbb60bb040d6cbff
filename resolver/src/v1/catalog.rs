//! What the v1 resolver sees of a catalog: each package's channels, bundles and
//! `olm.deprecations` blob, read the way operator-controller's catalog cache
//! reads a ClusterCatalog's content.
//!
//! The blobs are the catalog crate's own declarative-config types
//! ([`declcfg::Channel`] with its [`ChannelEntry`]s, [`declcfg::Bundle`]); this
//! module adds only the catalogd cache's view of them and what v1 derives from
//! them. Blobs are grouped by their own `package` field. The cache keeps one
//! entry per (package, schema, name), so a later blob with the same name
//! replaces an earlier one (it keeps the earlier one's place in the order), and
//! the last `olm.deprecations` blob of a package wins. A package is present when
//! any blob names it. Nothing is validated: catalogd serves catalogs as they
//! are.
//!
//! What v1 derives from a blob is computed once, when the content is built, and
//! kept beside the blob in private fields read through accessors, so it cannot
//! go stale: a [`V1Channel`] holds each entry's skipRange parsed with blang's
//! grammar, a [`V1Bundle`] its [`BundleVersion`] as operator-controller reads it
//! its `olm.csv.metadata` install modes and the channel entries that name it.

use std::collections::{BTreeMap, HashMap};

use olmsat_catalog::declcfg::{self, ChannelEntry, DeclarativeConfig, Deprecation, Meta, Property};
use olmsat_catalog::property::types;
use olmsat_versions::range::Range;
use olmsat_versions::version::{self, Release, VersionRelease};
use serde_json::Value;

/// One `olm.channel` blob as v1 reads it: the blob and each entry's skipRange
/// parsed with blang's grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Channel {
    blob: declcfg::Channel,
    /// `skip_ranges[i]` is entry `i`'s skipRange parsed (`None` when it has
    /// none, it is empty or blang cannot parse it: then it makes no edge).
    skip_ranges: Vec<Option<Range>>,
}

impl V1Channel {
    fn new(blob: declcfg::Channel) -> V1Channel {
        let skip_ranges = blob
            .entries
            .iter()
            .map(|e| {
                e.skip_range
                    .as_deref()
                    .filter(|r| !r.is_empty())
                    .and_then(|r| Range::parse(r).ok())
            })
            .collect();
        V1Channel { blob, skip_ranges }
    }

    /// The `olm.channel` blob.
    pub fn blob(&self) -> &declcfg::Channel {
        &self.blob
    }

    /// The channel name.
    pub fn name(&self) -> &str {
        &self.blob.name
    }

    /// The entries in written order, each with its parsed skipRange (`None`
    /// when it has none or blang cannot parse it).
    pub fn entries(&self) -> impl Iterator<Item = (&ChannelEntry, Option<&Range>)> {
        self.blob
            .entries
            .iter()
            .zip(self.skip_ranges.iter().map(Option::as_ref))
    }

    /// Whether the channel has an entry named `bundle`.
    pub fn contains(&self, bundle: &str) -> bool {
        self.blob.entries.iter().any(|e| e.name == bundle)
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

/// One `olm.bundle` blob as v1 reads it: the blob, its version as
/// operator-controller reads it, the install modes it supports and the
/// channel entries of its package that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Bundle {
    blob: declcfg::Bundle,
    version: BundleVersion,
    version_text: String,
    install_modes: Option<Vec<String>>,
    /// (channel index, entry index) in its [`PackageSlice`] of every entry
    /// naming it; set when the slice is indexed.
    memberships: Vec<(u32, u32)>,
}

impl V1Bundle {
    fn new(blob: declcfg::Bundle, release_gate: bool) -> V1Bundle {
        let (version, version_text) = read_version(&blob.name, &blob.properties, release_gate);
        let install_modes = install_modes(&blob.properties);
        V1Bundle {
            blob,
            version,
            version_text,
            install_modes,
            memberships: Vec::new(),
        }
    }

    /// The `olm.bundle` blob.
    pub fn blob(&self) -> &declcfg::Bundle {
        &self.blob
    }

    /// The bundle name.
    pub fn name(&self) -> &str {
        &self.blob.name
    }

    /// Its version, read as operator-controller reads it (see [`read_version`]).
    pub fn version(&self) -> &BundleVersion {
        &self.version
    }

    /// The `olm.package` version as written (empty when there is none).
    pub fn version_text(&self) -> &str {
        &self.version_text
    }

    /// The `olm.csv.metadata` install mode types the bundle supports, when
    /// the property says.
    pub fn install_modes(&self) -> Option<&[String]> {
        self.install_modes.as_deref()
    }

    /// The property types the bundle declares, in order.
    pub fn property_types(&self) -> impl Iterator<Item = &str> {
        self.blob.properties.iter().map(|p| p.type_.as_str())
    }
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

impl Deprecations {
    fn read(d: &Deprecation) -> Deprecations {
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
        out
    }
}

/// Everything a catalog holds for one package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageSlice {
    /// Channels, in load order.
    channels: Vec<V1Channel>,
    /// Bundles, in load order.
    bundles: Vec<V1Bundle>,
    /// The package's `olm.deprecations` blob (the last one loaded), read.
    deprecations: Option<Deprecations>,
}

impl PackageSlice {
    /// Record in each bundle the entries naming it, once the channels and
    /// bundles are final; `places` holds each bundle's place by name.
    fn index(&mut self, places: &HashMap<String, usize>) {
        let mut memberships: Vec<Vec<(u32, u32)>> = vec![Vec::new(); self.bundles.len()];
        for (ci, ch) in self.channels.iter().enumerate() {
            for (ei, e) in ch.blob.entries.iter().enumerate() {
                if let Some(&bi) = places.get(e.name.as_str()) {
                    memberships[bi].push((index_u32(ci), index_u32(ei)));
                }
            }
        }
        for (b, m) in self.bundles.iter_mut().zip(memberships) {
            b.memberships = m;
        }
    }

    /// The channels, in load order.
    pub fn channels(&self) -> &[V1Channel] {
        &self.channels
    }

    /// The bundles, in load order.
    pub fn bundles(&self) -> &[V1Bundle] {
        &self.bundles
    }

    /// The package's `olm.deprecations` blob (the last one loaded), if any.
    pub fn deprecations(&self) -> Option<&Deprecations> {
        self.deprecations.as_ref()
    }

    /// The entries naming `bundle` (one of this slice's
    /// [`bundles`](PackageSlice::bundles)), each with the index of its
    /// channel and its parsed skipRange.
    pub fn entries_of<'a>(
        &'a self,
        bundle: &'a V1Bundle,
    ) -> impl Iterator<Item = (usize, &'a ChannelEntry, Option<&'a Range>)> + 'a {
        bundle.memberships.iter().filter_map(|&(ci, ei)| {
            let ch = self.channels.get(ci as usize)?;
            Some((
                ci as usize,
                ch.blob.entries.get(ei as usize)?,
                ch.skip_ranges.get(ei as usize)?.as_ref(),
            ))
        })
    }

    /// The indexes of the channels with an entry naming `bundle` (one of this
    /// slice's [`bundles`](PackageSlice::bundles)), in channel order.
    pub fn channels_of<'a>(&'a self, bundle: &'a V1Bundle) -> impl Iterator<Item = usize> + 'a {
        bundle.memberships.iter().map(|&(ci, _)| ci as usize)
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

/// One package's slice while it is built, with each channel's and bundle's
/// place by name (for [`upsert`]).
#[derive(Default)]
struct Building {
    slice: PackageSlice,
    channel_places: HashMap<String, usize>,
    bundle_places: HashMap<String, usize>,
}

/// The package `name`'s slice in the making: every package some blob names
/// has one.
fn building<'a>(packages: &'a mut BTreeMap<String, Building>, name: &str) -> &'a mut Building {
    packages.entry(name.to_owned()).or_default()
}

/// Replace the element with `item`'s name (keeping its place) or append it;
/// `places` holds each name's place in `list`.
fn upsert<T>(
    list: &mut Vec<T>,
    places: &mut HashMap<String, usize>,
    item: T,
    name: impl Fn(&T) -> &str,
) {
    match places.get(name(&item)).copied() {
        Some(i) => list[i] = item,
        None => {
            places.insert(name(&item).to_owned(), list.len());
            list.push(item);
        }
    }
}

impl CatalogContent {
    /// Index a loaded catalog, copying its channel and bundle blobs (see
    /// [`CatalogContent::from_owned`] to take them instead).
    pub fn from_config(cfg: &DeclarativeConfig, release_gate: bool) -> CatalogContent {
        CatalogContent::build(
            cfg.packages.iter().map(|p| p.name.as_str()),
            cfg.channels.iter().cloned(),
            cfg.bundles.iter().cloned(),
            &cfg.deprecations,
            &cfg.others,
            release_gate,
        )
    }

    /// Index a loaded catalog, taking its channel and bundle blobs.
    pub fn from_owned(cfg: DeclarativeConfig, release_gate: bool) -> CatalogContent {
        let DeclarativeConfig {
            packages,
            channels,
            bundles,
            deprecations,
            others,
        } = cfg;
        CatalogContent::build(
            packages.iter().map(|p| p.name.as_str()),
            channels,
            bundles,
            &deprecations,
            &others,
            release_gate,
        )
    }

    fn build<'a>(
        package_names: impl Iterator<Item = &'a str>,
        channels: impl IntoIterator<Item = declcfg::Channel>,
        bundles: impl IntoIterator<Item = declcfg::Bundle>,
        deprecations: &[Deprecation],
        others: &[Meta],
        release_gate: bool,
    ) -> CatalogContent {
        let mut packages: BTreeMap<String, Building> = BTreeMap::new();
        for name in package_names {
            building(&mut packages, name);
        }
        for c in channels {
            let b = building(&mut packages, &c.package);
            upsert(
                &mut b.slice.channels,
                &mut b.channel_places,
                V1Channel::new(c),
                V1Channel::name,
            );
        }
        for blob in bundles {
            let b = building(&mut packages, &blob.package);
            upsert(
                &mut b.slice.bundles,
                &mut b.bundle_places,
                V1Bundle::new(blob, release_gate),
                V1Bundle::name,
            );
        }
        for d in deprecations {
            building(&mut packages, &d.package).slice.deprecations = Some(Deprecations::read(d));
        }
        for m in others.iter().filter(|m| !m.package.is_empty()) {
            building(&mut packages, &m.package);
        }
        let packages = packages
            .into_iter()
            .map(|(name, b)| {
                let mut slice = b.slice;
                slice.index(&b.bundle_places);
                (name, slice)
            })
            .collect();
        CatalogContent { packages }
    }

    /// The package's slice; `None` when no blob (an `olm.package`, channel,
    /// bundle, deprecation or other blob) names it.
    pub fn package(&self, name: &str) -> Option<&PackageSlice> {
        self.packages.get(name)
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

    /// The catalogd cache's view: blobs grouped by their `package`, a later
    /// blob with the same name replacing an earlier one in its place, the last
    /// deprecations blob winning, a package present when any blob names it.
    #[test]
    fn catalogd_view() {
        let yaml = "schema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v1\n---\nschema: olm.channel\npackage: p\nname: fast\nentries:\n- name: p.v1\n---\nschema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v2\n  replaces: p.v1\n  skipRange: '<2.0.0'\n- name: p.v3\n  skipRange: 'not a range'\n---\nschema: olm.bundle\nname: p.v1\npackage: p\nimage: old\nproperties:\n- type: olm.package\n  value: {packageName: p, version: 1.0.0}\n---\nschema: olm.bundle\nname: p.v2\npackage: p\nimage: i2\nproperties:\n- type: olm.package\n  value: {packageName: p, version: 2.0.0+3}\n- type: olm.csv.metadata\n  value: {installModes: [{type: AllNamespaces, supported: true}, {type: OwnNamespace, supported: false}]}\n---\nschema: olm.bundle\nname: p.v1\npackage: p\nimage: new\nproperties: []\n---\nschema: olm.deprecations\npackage: p\nentries:\n- reference: {schema: olm.package}\n  message: first\n---\nschema: olm.deprecations\npackage: p\nentries:\n- reference: {schema: olm.bundle, name: p.v1}\n  message: second\n---\nschema: other\npackage: q\n";
        let files = olmsat_catalog::CatalogFiles::from_bytes("catalog.yaml", yaml.as_bytes());
        let borrowed = CatalogContent::from_config(files.config(), false);
        let owned = CatalogContent::from_owned(files.config().clone(), false);
        assert_eq!(borrowed.package_names().collect::<Vec<_>>(), ["p", "q"]);
        assert_eq!(owned.package_names().collect::<Vec<_>>(), ["p", "q"]);
        assert_eq!(borrowed.package("p"), owned.package("p"));
        assert!(borrowed.package("r").is_none());
        let q = borrowed.package("q").unwrap();
        assert!(q.channels().is_empty() && q.bundles().is_empty());

        let p = borrowed.package("p").unwrap();
        let channels: Vec<&str> = p.channels().iter().map(V1Channel::name).collect();
        assert_eq!(channels, ["stable", "fast"]);
        let stable: Vec<(&str, Option<&str>, bool)> = p.channels()[0]
            .entries()
            .map(|(e, r)| (e.name.as_str(), e.replaces.as_deref(), r.is_some()))
            .collect();
        assert_eq!(
            stable,
            [("p.v2", Some("p.v1"), true), ("p.v3", None, false)]
        );
        let bundles: Vec<(&str, &str, &str)> = p
            .bundles()
            .iter()
            .map(|b| (b.name(), b.blob().image.as_str(), b.version_text()))
            .collect();
        assert_eq!(bundles, [("p.v1", "new", ""), ("p.v2", "i2", "2.0.0+3")]);
        assert!(matches!(
            p.bundles()[0].version(),
            BundleVersion::Invalid(_)
        ));
        assert_eq!(
            p.bundles()[1].install_modes(),
            Some(&["AllNamespaces".to_owned()][..])
        );
        assert_eq!(p.bundles()[0].install_modes(), None);
        let deprecations = p.deprecations().unwrap();
        assert_eq!(deprecations.package, None);
        assert_eq!(
            deprecations.bundles.get("p.v1").map(String::as_str),
            Some("second")
        );
        // p.v1 is named by the fast channel only now; p.v2 by stable.
        let of = |b: usize| -> Vec<usize> {
            let b = &p.bundles()[b];
            let entries: Vec<usize> = p.entries_of(b).map(|(ci, _, _)| ci).collect();
            assert_eq!(p.channels_of(b).collect::<Vec<_>>(), entries);
            entries
        };
        assert_eq!(of(0), [1]);
        assert_eq!(of(1), [0]);
        // An entry naming no bundle (p.v3) is in no bundle's list.
        assert_eq!(p.channels()[0].entries().count(), 2);
        for b in p.bundles() {
            assert!(p.entries_of(b).all(|(_, e, _)| e.name == b.name()));
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
