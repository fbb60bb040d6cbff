//! The catalog as packages, channels and bundles: what validation, upgrade graphs
//! and the resolver work on.
//!
//! [`Model::build`] follows opm's `ConvertToModel` but never stops at the first
//! problem: each is reported as a [`Diagnostic`] with opm's text, and the model
//! keeps what it can (the first of duplicates, bundles with unparseable versions
//! without a version), so later checks still run and every error is reported.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

// foldhash: fast, and seeded per process like the standard hasher.
use foldhash::{HashMap, HashMapExt};
use rayon::prelude::*;

use crate::chain::{self, ChainAnalysis};
use crate::declcfg::{
    schema, ChannelEntry, DeclarativeConfig, Deprecation, Icon, Property, RelatedImage,
};
use crate::diagnostic::{Diagnostic, Rule};
use crate::load::blob::BundleReading;
use crate::location::Location;
use crate::name_index::NameIndex;
use crate::property::{self, PlainPackage, PropertyValue};
use crate::version::{self, Release};

/// All packages of a catalog, sorted by name.
#[derive(Debug, Default)]
pub struct Model {
    /// Packages, sorted by name, unique.
    pub packages: Vec<Package>,
}

impl Model {
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
    /// Channels sorted by name.
    pub channels: Vec<Channel>,
    /// Bundles sorted by name (one per `olm.bundle` blob).
    pub bundles: Vec<Bundle>,
    /// Deprecation messages from `olm.deprecations`.
    pub deprecations: Deprecations,
    /// `bundles` by name, for lookups in constant time.
    pub(crate) index: NameIndex,
}

impl Package {
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
#[derive(Debug)]
pub struct Channel {
    /// Name.
    pub name: String,
    /// Entries in input order, names unique.
    pub entries: Vec<ChannelEntry>,
    /// Channel properties.
    pub properties: Vec<Property>,
    /// Where the `olm.channel` blob is (the package's, for a default channel with no blob).
    pub location: Location,
    /// True for a default channel that has no `olm.channel` blob (opm synthesizes
    /// an empty one, which then fails validation).
    pub synthesized: bool,
    /// Head and replaces chain.
    pub chain: ChainAnalysis,
    /// Per entry, the position of its bundle in the package's `bundles`
    /// (`None` when the package has no bundle of that name).
    pub entry_bundles: Vec<Option<usize>>,
}

impl Channel {
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
    /// by the same channels share one list.
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

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

fn dns1123_label_errors(name: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if name.len() > 63 {
        errs.push("must be no more than 63 characters".to_owned());
    }
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-';
    if !ok {
        errs.push(DNS1123_LABEL_MSG.to_owned());
    }
    errs
}

impl Model {
    /// Build the model from a loaded config, reporting every problem opm's
    /// `ConvertToModel` checks (with its texts) instead of stopping at the first.
    pub fn build(cfg: DeclarativeConfig) -> (Model, Vec<Diagnostic>) {
        Self::build_reading(cfg, BundleReading::Full)
    }

    /// [`Model::build`] for a config whose bundles were loaded as `reading`
    /// says. After a [`BundleReading::Graph`] reading, each bundle's
    /// `olm.package` property is read (its version and release, and its
    /// problems, as usual) and then dropped: the bundle keeps only its
    /// `olm.deprecated` property, which with the version is all upgrade
    /// graphs use, and a large catalog's model takes less memory.
    pub fn build_reading(
        cfg: DeclarativeConfig,
        reading: BundleReading,
    ) -> (Model, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut pkgs: BTreeMap<String, Package> = BTreeMap::new();
        for p in cfg.packages {
            if p.name.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Rule::PackageNameMissing,
                        "config contains package with no name",
                    )
                    .at(&p.location),
                );
                continue;
            }
            if pkgs.contains_key(&p.name) {
                diags.push(
                    Diagnostic::new(
                        Rule::DuplicatePackage,
                        format!("duplicate package {:?}", p.name),
                    )
                    .at(&p.location)
                    .package(&p.name),
                );
                continue;
            }
            let errs = dns1123_label_errors(&p.name);
            if !errs.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Rule::InvalidPackageName,
                        format!("invalid package name {:?}: [{}]", p.name, errs.join(", ")),
                    )
                    .at(&p.location)
                    .package(&p.name),
                );
            }
            pkgs.insert(
                p.name.clone(),
                Package {
                    name: p.name,
                    default_channel: p.default_channel,
                    description: p.description,
                    icon: p.icon,
                    properties: p.properties,
                    location: p.location,
                    channels: Vec::new(),
                    bundles: Vec::new(),
                    deprecations: Deprecations::default(),
                    index: NameIndex::default(),
                },
            );
        }

        // Bundles are sorted into their packages first; then the chain
        // analyses (one per channel, long for long channels) run alongside
        // the making of the bundles (the bulk of the work, in parallel).
        // Diagnostics keep the order of opm's checks: channels, then bundles.
        let mut bundle_diags = Vec::new();
        let sorted = SortedBundles::new(cfg.bundles, &pkgs, &mut bundle_diags);
        let (analyses, made): (Vec<ChainAnalysis>, Vec<MadeBundles>) = rayon::join(
            || {
                cfg.channels
                    .par_iter()
                    .map(|c| chain::analyze(&c.entries))
                    .collect()
            },
            || sorted.make(reading),
        );
        let mut channels: BTreeMap<String, BTreeMap<String, Channel>> = BTreeMap::new();
        for (c, mut chain) in cfg.channels.into_iter().zip(analyses) {
            if !pkgs.contains_key(&c.package) {
                diags.push(
                    Diagnostic::new(
                        Rule::UnknownPackage,
                        format!("unknown package {:?} for channel {:?}", c.package, c.name),
                    )
                    .at(&c.location)
                    .package(&c.package)
                    .channel(&c.name),
                );
                continue;
            }
            if c.name.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Rule::ChannelNameMissing,
                        format!("package {:?} contains channel with no name", c.package),
                    )
                    .at(&c.location)
                    .package(&c.package),
                );
                continue;
            }
            let pc = channels.entry(c.package.clone()).or_default();
            if pc.contains_key(&c.name) {
                diags.push(
                    Diagnostic::new(
                        Rule::DuplicateChannel,
                        format!("package {:?} has duplicate channel {:?}", c.package, c.name),
                    )
                    .at(&c.location)
                    .package(&c.package)
                    .channel(&c.name),
                );
                continue;
            }
            // The analysis indexed the entries and found repeated names; only
            // then (rarely) are the entries filtered and analysed again.
            let mut entries = c.entries;
            if !chain.repeated.is_empty() {
                let mut repeated = vec![false; entries.len()];
                for &i in &chain.repeated {
                    repeated[i] = true;
                }
                let mut kept = Vec::with_capacity(entries.len() - chain.repeated.len());
                for (e, repeated) in entries.into_iter().zip(repeated) {
                    if repeated {
                        diags.push(
                            Diagnostic::new(
                                Rule::DuplicateChannelEntry,
                                format!(
                                    "invalid package {:?}, channel {:?}: duplicate entry {:?}",
                                    c.package, c.name, e.name
                                ),
                            )
                            .at(&e.location)
                            .package(&c.package)
                            .channel(&c.name)
                            .bundle(&e.name),
                        );
                        continue;
                    }
                    kept.push(e);
                }
                entries = kept;
                chain = chain::analyze(&entries);
            }
            pc.insert(
                c.name.clone(),
                Channel {
                    name: c.name,
                    entries,
                    properties: c.properties,
                    location: c.location,
                    synthesized: false,
                    chain,
                    entry_bundles: Vec::new(),
                },
            );
        }

        // Bundles.
        diags.append(&mut bundle_diags);
        let mut bundles: BTreeMap<String, Vec<Bundle>> = BTreeMap::new();
        for m in made {
            let (package, list) = m.report(&mut diags);
            bundles.insert(package, list);
        }

        // Deprecations.
        let mut deprecations: BTreeMap<String, Deprecations> = BTreeMap::new();
        for d in cfg.deprecations {
            apply_deprecation(d, &pkgs, &channels, &bundles, &mut deprecations, &mut diags);
        }

        // Assemble packages, linking bundles and channels.
        let mut out = Vec::with_capacity(pkgs.len());
        for (name, mut pkg) in pkgs {
            let mut chans = channels.remove(&name).unwrap_or_default();
            let mut pbundles = bundles.remove(&name).unwrap_or_default();
            // The package's bundles are indexed by name while each channel
            // entry's bundle is found in them.
            let (index, ()) = rayon::join(
                || NameIndex::new(&pbundles, |b| &b.name).0,
                || {
                    for ch in chans.values_mut() {
                        ch.entry_bundles = entry_bundles(&ch.entries, &pbundles);
                    }
                },
            );
            let mut missing: BTreeSet<&str> = BTreeSet::new();
            let mut first_missing: Option<&Location> = None;
            link_channels(&mut pbundles, &chans);
            for ch in chans.values() {
                for (e, bundle) in ch.entries.iter().zip(&ch.entry_bundles) {
                    if bundle.is_none()
                        && missing.insert(e.name.as_str())
                        && first_missing.is_none()
                    {
                        first_missing = Some(&e.location);
                    }
                }
            }
            if !missing.is_empty() {
                let names: Vec<&str> = missing.iter().copied().collect();
                let mut d = Diagnostic::new(
                    Rule::MissingBundle,
                    format!(
                        "no olm.bundle blobs found in package {:?} for olm.channel entries [{}]",
                        name,
                        names.join(" ")
                    ),
                )
                .package(&name);
                if let Some(l) = first_missing {
                    d = d.at(l);
                }
                diags.push(d);
            }
            for b in &pbundles {
                if b.channels.is_empty() {
                    diags.push(
                        Diagnostic::new(
                            Rule::BundleNotInChannel,
                            format!(
                                "package {:?}, bundle {:?} not found in any channel entries",
                                name, b.name
                            ),
                        )
                        .at(&b.location)
                        .package(&name)
                        .bundle(&b.name),
                    );
                }
            }
            if !pkg.default_channel.is_empty() && !chans.contains_key(&pkg.default_channel) {
                chans.insert(
                    pkg.default_channel.clone(),
                    Channel {
                        name: pkg.default_channel.clone(),
                        entries: Vec::new(),
                        properties: Vec::new(),
                        location: pkg.location.clone(),
                        synthesized: true,
                        chain: ChainAnalysis::default(),
                        entry_bundles: Vec::new(),
                    },
                );
            }
            pkg.channels = chans.into_values().collect();
            pkg.bundles = pbundles;
            pkg.index = index;
            pkg.deprecations = deprecations.remove(&name).unwrap_or_default();
            out.push(pkg);
        }
        (Model { packages: out }, diags)
    }
}

/// Lists at least this long are worked through on all threads.
const PARALLEL_ITEMS: usize = 4096;

/// The position in `bundles` (unique names, in name order) of each entry's
/// bundle.
///
/// Channels mostly list entries in version order, which is often name order
/// too: the bundle after the previous entry's is tried first, then the name
/// is found by binary search. A long channel is worked through in slices on
/// all threads.
fn entry_bundles(entries: &[ChannelEntry], bundles: &[Bundle]) -> Vec<Option<usize>> {
    debug_assert!(bundles.windows(2).all(|w| w[0].name < w[1].name));
    let find_slice = |slice: &[ChannelEntry]| {
        let mut previous: Option<usize> = None;
        slice
            .iter()
            .map(|e| {
                let next = previous.map(|k| k + 1);
                let found = match next {
                    Some(k) if bundles.get(k).is_some_and(|b| b.name == e.name) => Some(k),
                    _ => {
                        let at = bundles.partition_point(|b| b.name < e.name);
                        bundles
                            .get(at)
                            .is_some_and(|b| b.name == e.name)
                            .then_some(at)
                    }
                };
                previous = found;
                found
            })
            .collect::<Vec<_>>()
    };
    if entries.len() >= PARALLEL_ITEMS {
        entries
            .par_chunks(PARALLEL_ITEMS)
            .map(find_slice)
            .flatten_iter()
            .collect()
    } else {
        find_slice(entries)
    }
}

/// Give each bundle the names of the channels that list it, in channel name
/// order. Bundles listed by the same channels share one list (in a long
/// channel, almost every bundle has the same list as the one before it).
fn link_channels(bundles: &mut [Bundle], chans: &BTreeMap<String, Channel>) {
    // The channels of bundle `i` are `listed[start[i]..start[i + 1]]`.
    let mut start = vec![0usize; bundles.len() + 1];
    for &i in chans
        .values()
        .flat_map(|ch| ch.entry_bundles.iter().flatten())
    {
        start[i + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut listed = vec![0usize; start[bundles.len()]];
    for (c, ch) in chans.values().enumerate() {
        for &i in ch.entry_bundles.iter().flatten() {
            listed[next[i]] = c;
            next[i] += 1;
        }
    }
    let names: Vec<&String> = chans.keys().collect();
    let mut shared: HashMap<&[usize], Arc<[String]>> = HashMap::new();
    let mut previous: Option<(&[usize], Arc<[String]>)> = None;
    for (i, b) in bundles.iter_mut().enumerate() {
        let set = &listed[start[i]..start[i + 1]];
        let list = match &previous {
            Some((p, list)) if *p == set => Arc::clone(list),
            _ => {
                let list = shared
                    .entry(set)
                    .or_insert_with(|| set.iter().map(|&c| names[c].clone()).collect());
                Arc::clone(list)
            }
        };
        b.channels = Arc::clone(&list);
        previous = Some((set, list));
    }
}

/// The bundles of a config that belong to a known package, each package's in
/// name order, with the problems that dropped the others; see
/// [`SortedBundles::new`].
struct SortedBundles {
    /// The kept bundles, package after package (the package with the most
    /// first), each package's in name order.
    bundles: Vec<crate::declcfg::Bundle>,
    /// The packages, in the order of `bundles`.
    runs: Vec<PackageRun>,
}

/// One package's stretch of [`SortedBundles::bundles`].
struct PackageRun {
    package: String,
    len: usize,
    /// Duplicate-bundle errors, each with how many of the package's bundles
    /// were kept before it.
    duplicates: Vec<(usize, Diagnostic)>,
}

/// One package's bundles, made, with their problems; see [`MadeBundles::report`].
struct MadeBundles {
    package: String,
    bundles: Vec<Bundle>,
    duplicates: Vec<(usize, Diagnostic)>,
    /// Each bundle's own problems, by its position in `bundles`, in order.
    problems: Vec<(usize, Vec<Diagnostic>)>,
}

impl SortedBundles {
    /// Sort `input` into its packages in place: bundles without a package or
    /// of an unknown package are reported in `diags` and dropped; of bundles
    /// sharing a name, the first in input order stays and the others are
    /// reported when the package's bundles are.
    fn new(
        mut input: Vec<crate::declcfg::Bundle>,
        pkgs: &BTreeMap<String, Package>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut listed: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        // Bundles mostly come package by package: a run of one package's
        // bundles is gathered without looking the package up for each.
        let mut run: Option<(&str, Vec<usize>)> = None;
        for (i, b) in input.iter().enumerate() {
            if let Some((package, positions)) = &mut run {
                if *package == b.package {
                    positions.push(i);
                    continue;
                }
            }
            if b.package.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Rule::BundlePackageMissing,
                        format!("package name must be set for bundle {:?}", b.name),
                    )
                    .at(&b.location)
                    .bundle(&b.name),
                );
                continue;
            }
            if !pkgs.contains_key(&b.package) {
                diags.push(
                    Diagnostic::new(
                        Rule::UnknownPackage,
                        format!("unknown package {:?} for bundle {:?}", b.package, b.name),
                    )
                    .at(&b.location)
                    .package(&b.package)
                    .bundle(&b.name),
                );
                continue;
            }
            if let Some((package, positions)) = run.take() {
                listed.entry(package).or_default().extend(positions);
            }
            run = Some((b.package.as_str(), vec![i]));
        }
        if let Some((package, positions)) = run {
            listed.entry(package).or_default().extend(positions);
        }
        let mut runs: Vec<(PackageRun, Vec<usize>)> = Vec::with_capacity(listed.len());
        for (package, mut positions) in listed {
            // A total order: any sort gives the same list.
            let order = |&a: &usize, &b: &usize| input[a].name.cmp(&input[b].name).then(a.cmp(&b));
            if positions.len() >= PARALLEL_ITEMS {
                positions.par_sort_unstable_by(order);
            } else {
                positions.sort_unstable_by(order);
            }
            let mut kept: Vec<usize> = Vec::with_capacity(positions.len());
            let mut duplicates = Vec::new();
            for i in positions {
                let b = &input[i];
                if kept.last().is_some_and(|&k| input[k].name == b.name) {
                    duplicates.push((
                        kept.len(),
                        Diagnostic::new(
                            Rule::DuplicateBundle,
                            format!("package {:?} has duplicate bundle {:?}", package, b.name),
                        )
                        .at(&b.location)
                        .package(package)
                        .bundle(&b.name),
                    ));
                    continue;
                }
                kept.push(i);
            }
            let run = PackageRun {
                package: package.to_owned(),
                len: kept.len(),
                duplicates,
            };
            runs.push((run, kept));
        }
        // The largest package first: it keeps the list all are made in.
        runs.sort_by(|(a, _), (b, _)| b.len.cmp(&a.len).then_with(|| a.package.cmp(&b.package)));
        let order: Vec<usize> = runs
            .iter()
            .flat_map(|(_, kept)| kept.iter().copied())
            .collect();
        let len = order.len();
        permute(&mut input, order);
        input.truncate(len);
        SortedBundles {
            bundles: input,
            runs: runs.into_iter().map(|(run, _)| run).collect(),
        }
    }

    /// Make every bundle, in parallel, and hand each package its list, in
    /// package name order.
    fn make(self, reading: BundleReading) -> Vec<MadeBundles> {
        let SortedBundles { bundles, runs } = self;
        let problems = std::sync::Mutex::new(Vec::new());
        let mut all: Vec<Bundle> = bundles
            .into_par_iter()
            .enumerate()
            .map(|(i, b)| {
                let (bundle, found) = make_bundle(b, reading);
                if !found.is_empty() {
                    problems
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((i, found));
                }
                bundle
            })
            .collect();
        let mut problems = problems
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        problems.sort_unstable_by_key(|(i, _)| *i);
        // Each package's stretch, from the last: the tail is split off (the
        // first package keeps the list).
        let mut made = Vec::with_capacity(runs.len());
        let mut end = all.len();
        for run in runs.into_iter().rev() {
            let start = end - run.len;
            let list = if start == 0 {
                std::mem::take(&mut all)
            } else {
                all.split_off(start)
            };
            let from = problems.partition_point(|(i, _)| *i < start);
            let own = problems
                .drain(from..)
                .map(|(i, found)| (i - start, found))
                .collect();
            made.push(MadeBundles {
                package: run.package,
                bundles: list,
                duplicates: run.duplicates,
                problems: own,
            });
            end = start;
        }
        made.sort_by(|a, b| a.package.cmp(&b.package));
        made
    }
}

impl MadeBundles {
    /// Append the package's problems to `diags` in the order opm meets them:
    /// bundle by bundle in name order, each bundle's own problems, and a
    /// duplicate's error where the duplicate comes. Gives the package's name
    /// and its bundles.
    fn report(self, diags: &mut Vec<Diagnostic>) -> (String, Vec<Bundle>) {
        let mut duplicates = self.duplicates.into_iter().peekable();
        for (k, found) in self.problems {
            while let Some((_, d)) = duplicates.next_if(|(before, _)| *before <= k) {
                diags.push(d);
            }
            diags.extend(found);
        }
        diags.extend(duplicates.map(|(_, d)| d));
        (self.package, self.bundles)
    }
}

/// Reorder `v` in place so that it starts with the elements at the positions
/// `order` names (each at most once), in that order; the others follow.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    let mut placed = vec![false; v.len()];
    for &i in &order {
        placed[i] = true;
    }
    order.extend((0..v.len()).filter(|&i| !placed[i]));
    // Position `t` takes the element now at `order[t]`: follow each cycle,
    // carrying its first element along until the place it belongs.
    let mut done = placed;
    done.fill(false);
    for t in 0..v.len() {
        let mut at = t;
        while !done[at] {
            done[at] = true;
            let from = order[at];
            if from == t {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// A model bundle from a config bundle, with its own problems.
fn make_bundle(b: crate::declcfg::Bundle, reading: BundleReading) -> (Bundle, Vec<Diagnostic>) {
    // Read for a graph, a bundle usually has only its `olm.package`
    // property left, which the model drops once it is read: its members are
    // read in place, with nothing made of them but the version.
    let plain = match b.properties.as_slice() {
        [p] if reading == BundleReading::Graph => property::plain_package(p),
        _ => None,
    };
    let (version, release, properties, values, diagnostics) = match plain {
        Some(plain) => {
            let mut diagnostics = Vec::new();
            let (version, release) = package_facts(&b, plain, &mut diagnostics);
            image_facts(&b, &mut diagnostics);
            (version, release, Vec::new(), Vec::new(), diagnostics)
        }
        None => {
            let BundleFacts {
                mut values,
                version,
                release,
                diagnostics,
            } = bundle_facts(&b);
            let mut properties = b.properties;
            let is_package = |v: &PropertyValue| matches!(v, PropertyValue::Package { .. });
            if reading == BundleReading::Graph && values.iter().any(is_package) {
                (properties, values) = properties
                    .into_iter()
                    .zip(values)
                    .filter(|(_, v)| !is_package(v))
                    .unzip();
            }
            (version, release, properties, values, diagnostics)
        }
    };
    let bundle = Bundle {
        name: b.name,
        image: b.image,
        version,
        release,
        properties,
        values,
        related_images: b.related_images,
        location: b.location,
        channels: Arc::default(),
    };
    (bundle, diagnostics)
}

/// What one bundle's own content says: its typed properties, version and
/// release, and the problems found in them (in opm's order).
#[derive(Default)]
struct BundleFacts {
    values: Vec<PropertyValue>,
    version: Option<semver::Version>,
    release: Option<Release>,
    diagnostics: Vec<Diagnostic>,
}

fn bundle_facts(b: &crate::declcfg::Bundle) -> BundleFacts {
    let mut diags = Vec::new();
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    let values = match property::parse_all(&b.properties) {
        Ok(v) => v,
        Err(e) => {
            diags.push(ctx(Diagnostic::new(
                Rule::InvalidProperty,
                format!("parse properties for bundle {:?}: {e}", b.name),
            )));
            b.properties
                .iter()
                .map(|p| property::parse(p).unwrap_or(PropertyValue::Other))
                .collect()
        }
    };
    let mut pkg_props = values.iter().filter_map(|v| match v {
        PropertyValue::Package {
            package_name,
            version,
            release,
        } => Some((package_name, version, release)),
        _ => None,
    });
    let mut version = None;
    let mut release = None;
    let first = pkg_props.next();
    let others = pkg_props.count();
    if first.is_none() || others > 0 {
        diags.push(ctx(Diagnostic::new(
            Rule::PackagePropertyCount,
            format!(
                "package {:?} bundle {:?} must have exactly 1 {:?} property, found {}",
                b.package,
                b.name,
                property::types::PACKAGE,
                usize::from(first.is_some()) + others
            ),
        )));
    } else if let Some((package_name, ver, rel)) = first {
        let plain = PlainPackage {
            package_name,
            version: ver,
            release: rel,
        };
        (version, release) = package_facts(b, plain, &mut diags);
    }
    image_facts(b, &mut diags);
    BundleFacts {
        values,
        version,
        release,
        diagnostics: diags,
    }
}

/// The version and release of a bundle's one `olm.package` property, and
/// their problems, appended to `diags`.
fn package_facts(
    b: &crate::declcfg::Bundle,
    package: PlainPackage<'_>,
    diags: &mut Vec<Diagnostic>,
) -> (Option<semver::Version>, Option<Release>) {
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    let PlainPackage {
        package_name,
        version: ver,
        release: rel,
    } = package;
    if package_name != b.package {
        diags.push(ctx(Diagnostic::new(
            Rule::PackagePropertyMismatch,
            format!(
                "package {:?} does not match {:?} property {:?}",
                b.package,
                property::types::PACKAGE,
                package_name
            ),
        )));
    }
    let mut version = None;
    match version::parse_strict(ver) {
        Ok(v) => version = Some(v),
        Err(e) => diags.push(ctx(Diagnostic::new(
            Rule::InvalidVersion,
            format!("error parsing bundle {:?} version {:?}: {e}", b.name, ver),
        ))),
    }
    let mut release = None;
    match version::parse_release(rel) {
        Ok(r) => release = r,
        Err(e) => diags.push(ctx(Diagnostic::new(
            Rule::InvalidVersion,
            format!(
                "error parsing bundle {:?} release version {:?}: {e}",
                b.name, rel
            ),
        ))),
    }
    (version, release)
}

/// The problems of a bundle's image references, appended to `diags`.
fn image_facts(b: &crate::declcfg::Bundle, diags: &mut Vec<Diagnostic>) {
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    if let Err(e) = crate::image_ref::validate_if_set(&b.image) {
        diags.push(ctx(Diagnostic::new(
            Rule::InvalidImage,
            format!(
                "package {:?} bundle {:?} image: invalid image pull spec {:?}: {e}",
                b.package, b.name, b.image
            ),
        )));
    }
    for (i, ri) in b.related_images.iter().enumerate() {
        if let Err(e) = crate::image_ref::validate_if_set(&ri.image) {
            diags.push(ctx(Diagnostic::new(Rule::InvalidImage, format!(
                "package {:?} bundle {:?} relatedImages[{i}].image: invalid image pull spec {:?}: {e}",
                b.package, b.name, ri.image
            ))));
        }
    }
}

fn apply_deprecation(
    d: Deprecation,
    pkgs: &BTreeMap<String, Package>,
    channels: &BTreeMap<String, BTreeMap<String, Channel>>,
    bundles: &BTreeMap<String, Vec<Bundle>>,
    out: &mut BTreeMap<String, Deprecations>,
    diags: &mut Vec<Diagnostic>,
) {
    let err = |m: String| Diagnostic::new(Rule::InvalidDeprecation, m).at(&d.location);
    if d.package.is_empty() {
        diags.push(err(format!(
            "package name must be set for deprecation item {}",
            go_deprecation(&d)
        )));
        return;
    }
    if !pkgs.contains_key(&d.package) {
        diags.push(
            err(format!(
                "cannot apply deprecations to an unknown package {:?}",
                d.package
            ))
            .package(&d.package),
        );
        return;
    }
    if out.contains_key(&d.package) {
        diags.push(
            err(format!(
                "expected a maximum of one deprecation per package: {:?}",
                d.package
            ))
            .package(&d.package),
        );
        return;
    }
    let mut deps = Deprecations {
        location: Some(d.location.clone()),
        ..Deprecations::default()
    };
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, e) in d.entries.iter().enumerate() {
        let perr = |m: String| err(m).package(&d.package);
        if e.schema.is_empty() {
            diags.push(perr(format!(
                "schema must be set for deprecation entry [{i}] for package {:?}",
                d.package
            )));
            continue;
        }
        if !seen.insert((e.schema.clone(), e.name.clone())) {
            diags.push(perr(format!(
                "duplicate deprecation entry {} for package {:?}",
                go_reference(&e.schema, &e.name),
                d.package
            )));
            continue;
        }
        match e.schema.as_str() {
            schema::BUNDLE => {
                let found = bundles
                    .get(&d.package)
                    .is_some_and(|b| b.binary_search_by(|x| x.name.cmp(&e.name)).is_ok());
                if !found {
                    diags.push(perr(format!(
                        "cannot deprecate bundle {:?} for package {:?}: bundle not found",
                        e.name, d.package
                    )));
                    continue;
                }
                deps.bundles.insert(e.name.clone(), e.message.clone());
            }
            schema::CHANNEL => {
                if !channels
                    .get(&d.package)
                    .is_some_and(|c| c.contains_key(&e.name))
                {
                    diags.push(perr(format!(
                        "cannot deprecate channel {:?} for package {:?}: channel not found",
                        e.name, d.package
                    )));
                    continue;
                }
                deps.channels.insert(e.name.clone(), e.message.clone());
            }
            schema::PACKAGE => {
                if !e.name.is_empty() {
                    diags.push(perr(format!(
                        "package name must be empty for deprecated package {:?} (specified {:?})",
                        d.package, e.name
                    )));
                    continue;
                }
                deps.package = Some(e.message.clone());
            }
            _ => {
                diags.push(perr(format!(
                    "cannot deprecate object {} referenced by entry {} for package {:?}: object schema unknown",
                    go_reference(&e.schema, &e.name),
                    go_entry(e),
                    d.package
                )));
                continue;
            }
        }
    }
    out.insert(d.package.clone(), deps);
}

fn go_reference(schema: &str, name: &str) -> String {
    format!("declcfg.PackageScopedReference{{Schema:{schema:?}, Name:{name:?}}}")
}

fn go_entry(e: &crate::declcfg::DeprecationEntry) -> String {
    format!("{{{{{} {}}} {}}}", e.schema, e.name, e.message)
}

fn go_deprecation(d: &Deprecation) -> String {
    let entries: Vec<String> = d.entries.iter().map(go_entry).collect();
    format!(
        "{{{} {} [{}]}}",
        schema::DEPRECATIONS,
        d.package,
        entries.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `permute` puts the named elements first, in the order named, and
        /// keeps the others, in their order, after them.
        #[test]
        fn permute_reorders_in_place(
            (len, order) in (0usize..40).prop_flat_map(|len| {
                (Just(len), Just((0..len).collect::<Vec<_>>()).prop_shuffle())
            }),
            keep in 0usize..40,
        ) {
            let order: Vec<usize> = order.into_iter().take(keep.min(len)).collect();
            let mut expected: Vec<usize> = order.clone();
            expected.extend((0..len).filter(|i| !order.contains(i)));
            let mut v: Vec<usize> = (0..len).collect();
            permute(&mut v, order);
            prop_assert_eq!(v, expected);
        }
    }

    fn named(name: &str) -> Bundle {
        Bundle {
            name: name.to_owned(),
            image: String::new(),
            version: None,
            release: None,
            properties: Vec::new(),
            values: Vec::new(),
            related_images: Vec::new(),
            location: Location::default(),
            channels: Arc::default(),
        }
    }

    fn entry(name: &str) -> ChannelEntry {
        ChannelEntry {
            name: name.to_owned(),
            replaces: None,
            skips: Vec::new(),
            skip_range: None,
            location: Location::default(),
        }
    }

    /// Each entry's bundle by testing every bundle.
    fn entry_bundles_by_search(entries: &[ChannelEntry], bundles: &[Bundle]) -> Vec<Option<usize>> {
        entries
            .iter()
            .map(|e| bundles.iter().position(|b| b.name == e.name))
            .collect()
    }

    proptest! {
        /// Entries find their bundles in any order, and missing ones are
        /// missing.
        #[test]
        fn entries_find_their_bundles(
            names in proptest::collection::btree_set("[a-e]{1,3}", 0..30),
            picks in proptest::collection::vec((any::<bool>(), "[a-e]{1,3}", 0usize..40), 0..40),
        ) {
            let names: Vec<&String> = names.iter().collect();
            let bundles: Vec<Bundle> = names.iter().map(|n| named(n)).collect();
            // An entry is a bundle's name (often the one after the previous
            // entry's) or any name.
            let entries: Vec<ChannelEntry> = picks
                .iter()
                .enumerate()
                .map(|(k, (near, any, at))| match names.len() {
                    0 => entry(any),
                    len if *near => entry(names[(k + at % 3) % len]),
                    len => entry(names[at % len]),
                })
                .collect();
            prop_assert_eq!(
                entry_bundles(&entries, &bundles),
                entry_bundles_by_search(&entries, &bundles)
            );
        }
    }

    #[test]
    fn long_channels_find_their_bundles_in_slices() {
        let names: Vec<String> = (0..3 * PARALLEL_ITEMS)
            .map(|i| format!("b{i:06}"))
            .collect();
        let bundles: Vec<Bundle> = names.iter().map(|n| named(n)).collect();
        // Runs in name order, runs backwards, and names of no bundle.
        let mut entries: Vec<ChannelEntry> = Vec::new();
        for i in 0..names.len() {
            match i % 1000 {
                0..=599 => entries.push(entry(&names[i])),
                600..=899 => entries.push(entry(&names[names.len() - 1 - i])),
                _ => entries.push(entry(&format!("{}x", names[i]))),
            }
        }
        let found = entry_bundles(&entries, &bundles);
        assert_eq!(found, entry_bundles_by_search(&entries, &bundles));
        assert_eq!(found.iter().filter(|f| f.is_none()).count(), 1200);
    }

    fn bundle(name: &str, package: &str, version: &str) -> String {
        format!(
            r#"{{"schema":"olm.bundle","name":"{name}","package":"{package}","image":"","properties":[{{"type":"olm.package","value":{{"packageName":"{package}","version":"{version}"}}}}]}}"#
        )
    }

    /// Each bundle lists the channels that list it, in name order; bundles
    /// listed by the same channels share one list.
    #[test]
    fn bundles_are_sorted_into_packages_however_they_come() {
        let mut docs = vec![
            r#"{"schema":"olm.package","name":"a"}"#.to_owned(),
            r#"{"schema":"olm.package","name":"b"}"#.to_owned(),
        ];
        // Runs of a package, another package between, a bundle of no
        // package and one of an unknown package among them.
        for (name, package) in [
            ("a.v2", "a"),
            ("a.v1", "a"),
            ("b.v1", "b"),
            ("z.v1", ""),
            ("a.v3", "a"),
            ("u.v1", "u"),
            ("b.v0", "b"),
            ("a.v0", "a"),
        ] {
            docs.push(bundle(name, package, "1.0.0"));
        }
        let loaded = crate::load::load_bytes("c.json", docs.join("\n").as_bytes());
        let (model, diags) = Model::build(loaded.config);
        let names = |p: &Package| p.bundles.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&model.packages[0]), ["a.v0", "a.v1", "a.v2", "a.v3"]);
        assert_eq!(names(&model.packages[1]), ["b.v0", "b.v1"]);
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            &messages[..2],
            [
                "package name must be set for bundle \"z.v1\"",
                "unknown package \"u\" for bundle \"u.v1\""
            ]
        );
    }

    #[test]
    fn bundles_know_their_channels() {
        let mut docs = vec![r#"{"schema":"olm.package","name":"a"}"#.to_owned()];
        for v in ["a.v1", "a.v2", "a.v3", "a.v4"] {
            docs.push(bundle(v, "a", &format!("{}.0.0", &v[3..])));
        }
        let channel = |name: &str, entries: &[&str]| {
            let entries: Vec<String> = entries
                .iter()
                .map(|e| format!(r#"{{"name":"{e}"}}"#))
                .collect();
            format!(
                r#"{{"schema":"olm.channel","name":"{name}","package":"a","entries":[{}]}}"#,
                entries.join(",")
            )
        };
        docs.push(channel("stable", &["a.v1", "a.v2", "a.v3"]));
        docs.push(channel("fast", &["a.v3", "a.v2"]));
        let loaded = crate::load::load_bytes("c.json", docs.join("\n").as_bytes());
        let (model, _) = Model::build(loaded.config);
        let bundles = &model.packages[0].bundles;
        let lists: Vec<(&str, Vec<&str>)> = bundles
            .iter()
            .map(|b| {
                (
                    b.name.as_str(),
                    b.channels.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            lists,
            [
                ("a.v1", vec!["stable"]),
                ("a.v2", vec!["fast", "stable"]),
                ("a.v3", vec!["fast", "stable"]),
                ("a.v4", vec![]),
            ]
        );
        assert!(Arc::ptr_eq(&bundles[1].channels, &bundles[2].channels));
        assert!(!Arc::ptr_eq(&bundles[0].channels, &bundles[1].channels));
    }

    /// A bundle needs exactly one `olm.package` property: none, two or three
    /// are each reported with the count, and one alone gives the version.
    #[test]
    fn a_bundle_has_exactly_one_package_property() {
        let pkg = r#"{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}"#;
        for count in 0..4 {
            let properties = vec![pkg; count].join(",");
            let text = format!(
                "{}\n{}",
                r#"{"schema":"olm.package","name":"a"}"#,
                format_args!(
                    r#"{{"schema":"olm.bundle","name":"a.v1","package":"a","image":"","properties":[{properties}]}}"#
                )
            );
            let loaded = crate::load::load_bytes("c.json", text.as_bytes());
            let (model, diags) = Model::build(loaded.config);
            let wrong: Vec<&str> = diags
                .iter()
                .map(|d| d.message.as_str())
                .filter(|m| m.contains("must have exactly 1"))
                .collect();
            let version = model.packages[0].bundles[0].version.clone();
            if count == 1 {
                assert!(wrong.is_empty(), "{wrong:?}");
                assert_eq!(version, Some(semver::Version::new(1, 0, 0)));
            } else {
                let expected = format!(
                    "package \"a\" bundle \"a.v1\" must have exactly 1 \"olm.package\" property, found {count}"
                );
                assert_eq!(wrong, [expected.as_str()]);
                assert_eq!(version, None);
            }
        }
    }

    /// Problems come package by package (by name), bundle by bundle (by
    /// name): each bundle's own, and a duplicate's where the duplicate comes.
    #[test]
    fn bundle_problems_come_in_package_and_name_order() {
        let mut docs = vec![
            r#"{"schema":"olm.package","name":"b"}"#.to_owned(),
            r#"{"schema":"olm.package","name":"a"}"#.to_owned(),
        ];
        for (name, package, version) in [
            ("b.v2", "b", "bad-2"),
            ("a.v3", "a", "3.0.0"),
            ("a.v1", "a", "bad-1"),
            ("a.v1", "a", "1.0.0"),
            ("a.v2", "a", "bad-2"),
            ("a.v3", "a", "bad-3b"),
            ("x.v1", "x", "1.0.0"),
            ("b.v1", "b", "1.0.0"),
        ] {
            docs.push(bundle(name, package, version));
        }
        let loaded = crate::load::load_bytes("c.json", docs.join("\n").as_bytes());
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let (model, diags) = Model::build(loaded.config);
        let seen: Vec<String> = diags
            .iter()
            .filter(|d| d.message.contains("bundle"))
            .filter(|d| !d.message.contains("not found in any channel"))
            .map(|d| {
                let first = d.message.split(':').next().unwrap_or_default().to_owned();
                format!("{first} @{}", d.location.as_ref().map_or(0, |l| l.line))
            })
            .collect();
        assert_eq!(
            seen,
            [
                "unknown package \"x\" for bundle \"x.v1\" @9",
                "error parsing bundle \"a.v1\" version \"bad-1\" @5",
                "package \"a\" has duplicate bundle \"a.v1\" @6",
                "error parsing bundle \"a.v2\" version \"bad-2\" @7",
                "package \"a\" has duplicate bundle \"a.v3\" @8",
                "error parsing bundle \"b.v2\" version \"bad-2\" @3",
            ]
        );
        let names = |p: &str| -> Vec<String> {
            model
                .package(p)
                .map(|p| p.bundles.iter().map(|b| b.name.clone()).collect())
                .unwrap_or_default()
        };
        assert_eq!(names("a"), ["a.v1", "a.v2", "a.v3"]);
        assert_eq!(names("b"), ["b.v1", "b.v2"]);
        let a = model.package("a").and_then(|p| p.bundle("a.v3"));
        assert_eq!(
            a.and_then(|b| b.version.as_ref()).map(|v| v.to_string()),
            Some("3.0.0".into())
        );
    }
}
