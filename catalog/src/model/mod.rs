//! The catalog as packages, channels and bundles: what validation, upgrade graphs
//! and the resolver work on.
//!
//! [`Model::build`] follows opm's `ConvertToModel` but never stops at the first
//! problem: each is reported as a [`Diagnostic`](crate::Diagnostic) with opm's text, and the model
//! keeps what it can (the first of duplicates, bundles with unparseable versions
//! without a version), so later checks still run and every error is reported.
//!
//! What the model derives from its input — the packages and channels in name
//! order, the bundles' name index, each channel's chain analysis, the
//! position of each entry's bundle, the channels that list each bundle — is
//! made when a [`Package`] or [`Channel`] is made and can only be read
//! afterwards: the lists it is derived from are reachable only through
//! shared references, so it can never go stale.
//!
//! The jobs are split: [`build`](Model::build) (opm's checks and the
//! assembly) in `build`, the making of bundles in parallel in `bundles`,
//! linking entries and bundles in `link`, deprecations in `deprecations`.

mod build;
mod bundles;
mod deprecations;
mod link;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::chain::{self, ChainAnalysis};
use crate::declcfg::{ChannelEntry, Icon, Property, RelatedImage};
use crate::name_index::NameIndex;
use crate::property::PropertyValue;
use olmsat_encoding::location::Location;
use olmsat_versions::version::Release;

/// All packages of a catalog, sorted by name.
#[derive(Debug, Default)]
pub struct Model {
    /// Packages, sorted by name, unique.
    packages: Vec<Package>,
}

impl Model {
    /// A model of `packages`, put in name order; of packages sharing a name
    /// the first is kept.
    pub fn new(mut packages: Vec<Package>) -> Model {
        packages.sort_by(|a, b| a.name.cmp(&b.name));
        packages.dedup_by(|later, first| later.name == first.name);
        Model { packages }
    }

    /// The packages, in name order, names unique.
    pub fn packages(&self) -> &[Package] {
        &self.packages
    }

    /// The package called `name`.
    pub fn package(&self, name: &str) -> Option<&Package> {
        self.packages
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.packages[i])
    }

    /// Number of bundles over all packages.
    pub fn bundle_count(&self) -> usize {
        self.packages.iter().map(|p| p.bundles.len()).sum()
    }
}

/// A package with its channels and bundles.
///
/// Its channels and bundles are fixed when it is made ([`Package::new`]):
/// the bundles' name index, each entry's bundle and each bundle's channels
/// are derived then and read through methods.
#[derive(Debug)]
pub struct Package {
    /// Name.
    pub name: String,
    /// Default channel name (empty when unset).
    pub default_channel: String,
    /// Description.
    pub description: String,
    /// Icon.
    pub icon: Option<Icon>,
    /// Package properties.
    pub properties: Vec<Property>,
    /// Where the `olm.package` blob is.
    pub location: Location,
    /// Deprecation messages from `olm.deprecations`.
    pub deprecations: Deprecations,
    /// Channels sorted by name, names unique.
    channels: Vec<Channel>,
    /// Bundles sorted by name, names unique (one per `olm.bundle` blob).
    bundles: Vec<Bundle>,
    /// `bundles` by name, for lookups in constant time.
    index: NameIndex,
}

impl Package {
    /// A package called `name` with `channels` and `bundles` (each put in
    /// name order; of those sharing a name the first is kept). Each channel
    /// entry is linked to its bundle and each bundle is given the channels
    /// that list it ([`Bundle::channels`] is overwritten). The other fields
    /// are empty: set them after.
    pub fn new(
        name: impl Into<String>,
        mut channels: Vec<Channel>,
        mut bundles: Vec<Bundle>,
    ) -> Package {
        channels.sort_by(|a, b| a.name.cmp(&b.name));
        channels.dedup_by(|later, first| later.name == first.name);
        bundles.sort_by(|a, b| a.name.cmp(&b.name));
        bundles.dedup_by(|later, first| later.name == first.name);
        let mut p = Package::empty(name.into(), Location::default());
        p.set_contents(channels, bundles);
        p
    }

    /// A package with no channels and no bundles yet.
    fn empty(name: String, location: Location) -> Package {
        Package {
            name,
            default_channel: String::new(),
            description: String::new(),
            icon: None,
            properties: Vec::new(),
            location,
            deprecations: Deprecations::default(),
            channels: Vec::new(),
            bundles: Vec::new(),
            index: NameIndex::default(),
        }
    }

    /// Give the package its channels and bundles (each in name order, names
    /// unique) and derive the links between them.
    fn set_contents(&mut self, mut channels: Vec<Channel>, mut bundles: Vec<Bundle>) {
        debug_assert!(channels.windows(2).all(|w| w[0].name < w[1].name));
        // The package's bundles are indexed by name while each channel
        // entry's bundle is found in them.
        let (index, ()) = rayon::join(
            || NameIndex::new(&bundles, |b| &b.name).0,
            || {
                for ch in &mut channels {
                    ch.entry_bundles = link::entry_bundles(&ch.entries, &bundles);
                }
            },
        );
        link::link_channels(&mut bundles, &channels);
        self.channels = channels;
        self.bundles = bundles;
        self.index = index;
    }

    /// The channels, in name order, names unique.
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// The bundles, in name order, names unique.
    pub fn bundles(&self) -> &[Bundle] {
        &self.bundles
    }

    /// The channel called `name`.
    pub fn channel(&self, name: &str) -> Option<&Channel> {
        self.channels
            .binary_search_by(|c| c.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.channels[i])
    }

    /// The bundle called `name`.
    pub fn bundle(&self, name: &str) -> Option<&Bundle> {
        self.bundle_index(name).map(|i| &self.bundles[i])
    }

    /// Index into [`Package::bundles`] of the bundle called `name`.
    pub fn bundle_index(&self, name: &str) -> Option<usize> {
        self.index.find(&self.bundles, |b| &b.name, name)
    }

    /// The default channel, when set and present.
    pub fn default_channel(&self) -> Option<&Channel> {
        self.channel(&self.default_channel)
    }
}

/// Deprecation messages of one package.
#[derive(Debug, Default, Clone)]
pub struct Deprecations {
    /// Message for the package itself.
    pub package: Option<String>,
    /// Messages per channel name.
    pub channels: BTreeMap<String, String>,
    /// Messages per bundle name.
    pub bundles: BTreeMap<String, String>,
    /// Where the `olm.deprecations` blob is.
    pub location: Option<Location>,
}

/// A channel: its entries and the head/chain analysis of its graph.
///
/// The entries are fixed when it is made ([`Channel::new`]); their analysis
/// and (once the channel is in a [`Package`]) the positions of their
/// bundles are derived then and read through methods.
#[derive(Debug)]
pub struct Channel {
    /// Name.
    pub name: String,
    /// Channel properties.
    pub properties: Vec<Property>,
    /// Where the `olm.channel` blob is (the package's, for a default channel with no blob).
    pub location: Location,
    /// Entries in input order, names unique.
    entries: Vec<ChannelEntry>,
    /// True for a default channel that has no `olm.channel` blob.
    synthesized: bool,
    /// Head and replaces chain of `entries`.
    chain: ChainAnalysis,
    /// Per entry, the position of its bundle in the package's `bundles`.
    entry_bundles: Vec<Option<usize>>,
}

impl Channel {
    /// A channel called `name` listing `entries` (of entries sharing a name
    /// the first is kept), with no properties.
    pub fn new(name: impl Into<String>, entries: Vec<ChannelEntry>) -> Channel {
        let chain = chain::analyze(&entries);
        let (entries, chain) = if chain.repeated.is_empty() {
            (entries, chain)
        } else {
            let mut repeated = vec![false; entries.len()];
            for &i in &chain.repeated {
                repeated[i] = true;
            }
            let kept: Vec<ChannelEntry> = entries
                .into_iter()
                .zip(repeated)
                .filter(|(_, r)| !r)
                .map(|(e, _)| e)
                .collect();
            let chain = chain::analyze(&kept);
            (kept, chain)
        };
        Channel::analysed(name.into(), entries, chain)
    }

    /// A channel of `entries` (names unique) with their `chain` analysis.
    fn analysed(name: String, entries: Vec<ChannelEntry>, chain: ChainAnalysis) -> Channel {
        debug_assert!(chain.repeated.is_empty());
        Channel {
            name,
            properties: Vec::new(),
            location: Location::default(),
            entry_bundles: vec![None; entries.len()],
            entries,
            synthesized: false,
            chain,
        }
    }

    /// The empty default channel opm makes for a package whose default
    /// channel has no `olm.channel` blob (it then fails validation).
    fn synthesized(name: String, location: Location) -> Channel {
        Channel {
            name,
            properties: Vec::new(),
            location,
            entries: Vec::new(),
            synthesized: true,
            chain: ChainAnalysis::default(),
            entry_bundles: Vec::new(),
        }
    }

    /// Entries in input order, names unique.
    pub fn entries(&self) -> &[ChannelEntry] {
        &self.entries
    }

    /// Whether this is a default channel that has no `olm.channel` blob
    /// (opm synthesizes an empty one, which then fails validation).
    pub fn is_synthesized(&self) -> bool {
        self.synthesized
    }

    /// Head and replaces chain of the entries.
    pub fn chain(&self) -> &ChainAnalysis {
        &self.chain
    }

    /// Per entry, the position of its bundle in [`Package::bundles`] of the
    /// package holding the channel (`None` when the package has no bundle of
    /// that name, and for every entry of a channel in no package).
    pub fn entry_bundles(&self) -> &[Option<usize>] {
        &self.entry_bundles
    }

    /// The entry called `name`.
    pub fn entry(&self, name: &str) -> Option<&ChannelEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The head entry, when the channel has exactly one.
    pub fn head(&self) -> Option<&ChannelEntry> {
        self.chain.head.map(|i| &self.entries[i])
    }
}

/// A bundle of a package.
#[derive(Debug)]
pub struct Bundle {
    /// Name.
    pub name: String,
    /// Image pull spec.
    pub image: String,
    /// Version from the `olm.package` property (`None` when missing or invalid).
    pub version: Option<semver::Version>,
    /// Release from the `olm.package` property.
    pub release: Option<Release>,
    /// Properties as written.
    pub properties: Vec<Property>,
    /// Interpreted properties, parallel to `properties` (`Other` where parsing failed).
    pub values: Vec<PropertyValue>,
    /// Related images.
    pub related_images: Vec<RelatedImage>,
    /// Where the `olm.bundle` blob is.
    pub location: Location,
    /// Names of the channels that list this bundle, sorted. Bundles listed
    /// by the same channels share one list. Set by the [`Package`] the
    /// bundle is put in (a package's bundles are read only through shared
    /// references, so there it always matches the package's channels).
    pub channels: Arc<[String]>,
}

impl Bundle {
    /// The interpreted properties with their raw forms.
    pub fn typed(&self) -> impl Iterator<Item = (&PropertyValue, &Property)> {
        self.values.iter().zip(self.properties.iter())
    }

    /// Whether the bundle carries the legacy `olm.deprecated` property.
    pub fn legacy_deprecated(&self) -> bool {
        self.values
            .iter()
            .any(|v| matches!(v, PropertyValue::Deprecated))
    }
}

#[cfg(test)]
mod tests {
    use super::link::tests::{entry, named};
    use super::*;

    fn entry_replacing(name: &str, replaces: &str) -> ChannelEntry {
        ChannelEntry {
            replaces: Some(replaces.to_owned()),
            ..entry(name)
        }
    }

    /// A channel keeps the first of entries sharing a name, analyses the
    /// rest, and has no bundles until it is in a package.
    #[test]
    fn a_channel_is_made_with_its_analysis() {
        let ch = Channel::new(
            "stable",
            vec![
                entry("a.v1"),
                entry_replacing("a.v2", "a.v1"),
                entry_replacing("a.v1", "a.v2"),
            ],
        );
        let names: Vec<&str> = ch.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a.v1", "a.v2"]);
        assert!(ch.chain().repeated.is_empty());
        assert_eq!(ch.head().map(|e| e.name.as_str()), Some("a.v2"));
        assert_eq!(ch.entry_bundles(), [None, None]);
        assert!(!ch.is_synthesized());
    }

    /// A package puts its channels and bundles in name order, keeps the
    /// first of each name, links each entry to its bundle and gives each
    /// bundle the channels that list it, whatever the bundles said before.
    #[test]
    fn a_package_links_its_channels_and_bundles() {
        let mut stale = named("a.v3");
        stale.channels = Arc::from(["nowhere".to_owned()]);
        let p = Package::new(
            "a",
            vec![
                Channel::new(
                    "stable",
                    vec![entry("a.v1"), entry_replacing("a.v2", "a.v1")],
                ),
                Channel::new("fast", vec![entry("a.v2"), entry("a.v9")]),
                Channel::new("stable", vec![entry("a.v3")]),
            ],
            vec![named("a.v2"), stale, named("a.v1"), named("a.v2")],
        );
        let channels: Vec<&str> = p.channels().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(channels, ["fast", "stable"]);
        let bundles: Vec<(&str, Vec<&str>)> = p
            .bundles()
            .iter()
            .map(|b| {
                (
                    b.name.as_str(),
                    b.channels.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            bundles,
            [
                ("a.v1", vec!["stable"]),
                ("a.v2", vec!["fast", "stable"]),
                ("a.v3", vec![]),
            ]
        );
        assert_eq!(
            p.channel("fast").map(Channel::entry_bundles),
            Some(&[Some(1), None][..])
        );
        assert_eq!(
            p.channel("stable").map(Channel::entry_bundles),
            Some(&[Some(0), Some(1)][..])
        );
        for (i, b) in p.bundles().iter().enumerate() {
            assert_eq!(p.bundle_index(&b.name), Some(i));
        }
        assert_eq!(p.bundle_index("a.v9"), None);
        let model = Model::new(vec![
            Package::new("b", vec![], vec![]),
            p,
            Package::new("b", vec![], vec![named("b.v1")]),
        ]);
        let names: Vec<&str> = model.packages().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(model.package("b").map(|p| p.bundles().len()), Some(0));
        assert_eq!(model.bundle_count(), 3);
    }
}
