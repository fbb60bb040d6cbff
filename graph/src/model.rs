//! The catalog as packages, channels and bundles: what validation, upgrade graphs
//! and the resolver work on.
//!
//! [`Model::build`] follows opm's `ConvertToModel` but never stops at the first
//! problem: each is reported as a [`Diagnostic`] with opm's text, and the model
//! keeps what it can (the first of duplicates, bundles with unparseable versions
//! without a version), so later checks still run and every error is reported.

use std::collections::{BTreeMap, BTreeSet};

// foldhash: fast, and seeded per process like the standard hasher.

use rayon::prelude::*;

use crate::chain::{self, ChainAnalysis};
use crate::declcfg::{
    schema, ChannelEntry, DeclarativeConfig, Deprecation, Icon, Property, RelatedImage,
};
use crate::diagnostic::Diagnostic;
use crate::location::Location;
use crate::name_index::NameIndex;
use crate::property::{self, PropertyValue};
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
    /// Names of the channels that list this bundle, sorted.
    pub channels: Vec<String>,
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
        let mut diags = Vec::new();
        let mut pkgs: BTreeMap<String, Package> = BTreeMap::new();
        for p in cfg.packages {
            if p.name.is_empty() {
                diags.push(
                    Diagnostic::error("config contains package with no name").at(&p.location),
                );
                continue;
            }
            if pkgs.contains_key(&p.name) {
                diags.push(
                    Diagnostic::error(format!("duplicate package {:?}", p.name))
                        .at(&p.location)
                        .package(&p.name),
                );
                continue;
            }
            let errs = dns1123_label_errors(&p.name);
            if !errs.is_empty() {
                diags.push(
                    Diagnostic::error(format!(
                        "invalid package name {:?}: [{}]",
                        p.name,
                        errs.join(", ")
                    ))
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

        // Channels, and the checks of each bundle on its own: the chain
        // analyses (one per channel, long for long channels) run alongside the
        // bundle checks (the bulk of the work, in parallel, keeping the input
        // order for everything else).
        let (analyses, facts): (Vec<ChainAnalysis>, Vec<BundleFacts>) = rayon::join(
            || {
                cfg.channels
                    .par_iter()
                    .map(|c| chain::analyze(&c.entries))
                    .collect()
            },
            || cfg.bundles.par_iter().map(bundle_facts).collect(),
        );
        let mut channels: BTreeMap<String, BTreeMap<String, Channel>> = BTreeMap::new();
        for (c, mut chain) in cfg.channels.into_iter().zip(analyses) {
            if !pkgs.contains_key(&c.package) {
                diags.push(
                    Diagnostic::error(format!(
                        "unknown package {:?} for channel {:?}",
                        c.package, c.name
                    ))
                    .at(&c.location)
                    .package(&c.package)
                    .channel(&c.name),
                );
                continue;
            }
            if c.name.is_empty() {
                diags.push(
                    Diagnostic::error(format!(
                        "package {:?} contains channel with no name",
                        c.package
                    ))
                    .at(&c.location)
                    .package(&c.package),
                );
                continue;
            }
            let pc = channels.entry(c.package.clone()).or_default();
            if pc.contains_key(&c.name) {
                diags.push(
                    Diagnostic::error(format!(
                        "package {:?} has duplicate channel {:?}",
                        c.package, c.name
                    ))
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
                            Diagnostic::error(format!(
                                "invalid package {:?}, channel {:?}: duplicate entry {:?}",
                                c.package, c.name, e.name
                            ))
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
        // Per package, the input positions of its bundles (bundles are large:
        // they are moved once, into their package's sorted list).
        let mut listed: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, b) in cfg.bundles.iter().enumerate() {
            if b.package.is_empty() {
                diags.push(
                    Diagnostic::error(format!("package name must be set for bundle {:?}", b.name))
                        .at(&b.location)
                        .bundle(&b.name),
                );
                continue;
            }
            if !pkgs.contains_key(&b.package) {
                diags.push(
                    Diagnostic::error(format!(
                        "unknown package {:?} for bundle {:?}",
                        b.package, b.name
                    ))
                    .at(&b.location)
                    .package(&b.package)
                    .bundle(&b.name),
                );
                continue;
            }
            listed.entry(b.package.as_str()).or_default().push(i);
        }
        // Sort by name; of bundles sharing a name the first in input order stays
        // and the others are reported.
        let mut orders: Vec<(String, Vec<usize>)> = listed
            .into_iter()
            .map(|(package, mut order)| {
                order.sort_unstable_by(|&a, &b| {
                    cfg.bundles[a]
                        .name
                        .cmp(&cfg.bundles[b].name)
                        .then(a.cmp(&b))
                });
                (package.to_owned(), order)
            })
            .collect();
        // Each bundle is moved once, from the input list (left holding empty
        // values) into its package's sorted list.
        let mut input = cfg.bundles;
        let mut facts = facts;
        let mut bundles: BTreeMap<String, Vec<Bundle>> = BTreeMap::new();
        for (package, order) in orders.drain(..) {
            let mut kept: Vec<Bundle> = Vec::with_capacity(order.len());
            for i in order {
                let b = std::mem::take(&mut input[i]);
                let BundleFacts {
                    values,
                    version,
                    release,
                    diagnostics,
                } = std::mem::take(&mut facts[i]);
                if kept.last().is_some_and(|k| k.name == b.name) {
                    diags.push(
                        Diagnostic::error(format!(
                            "package {:?} has duplicate bundle {:?}",
                            package, b.name
                        ))
                        .at(&b.location)
                        .package(&package)
                        .bundle(&b.name),
                    );
                    continue;
                }
                diags.extend(diagnostics);
                kept.push(Bundle {
                    name: b.name,
                    image: b.image,
                    version,
                    release,
                    properties: b.properties,
                    values,
                    related_images: b.related_images,
                    location: b.location,
                    channels: Vec::new(),
                });
            }
            bundles.insert(package, kept);
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
            let (index, _) = NameIndex::new(&pbundles, |b| &b.name);
            let mut missing: BTreeSet<&str> = BTreeSet::new();
            let mut first_missing: Option<&Location> = None;
            for ch in chans.values_mut() {
                ch.entry_bundles = ch
                    .entries
                    .iter()
                    .map(|e| index.find(&pbundles, |b| &b.name, &e.name))
                    .collect();
            }
            // Each bundle's channel list, allocated at its final size.
            let mut memberships = vec![0u32; pbundles.len()];
            for &i in chans
                .values()
                .flat_map(|ch| ch.entry_bundles.iter().flatten())
            {
                memberships[i] = memberships[i].saturating_add(1);
            }
            for (b, &n) in pbundles.iter_mut().zip(&memberships) {
                b.channels.reserve_exact(n as usize);
            }
            for ch in chans.values() {
                for (e, &bundle) in ch.entries.iter().zip(&ch.entry_bundles) {
                    match bundle {
                        Some(i) => pbundles[i].channels.push(ch.name.clone()),
                        None => {
                            if missing.insert(e.name.as_str()) && first_missing.is_none() {
                                first_missing = Some(&e.location);
                            }
                        }
                    }
                }
            }
            if !missing.is_empty() {
                let names: Vec<&str> = missing.iter().copied().collect();
                let mut d = Diagnostic::error(format!(
                    "no olm.bundle blobs found in package {:?} for olm.channel entries [{}]",
                    name,
                    names.join(" ")
                ))
                .package(&name);
                if let Some(l) = first_missing {
                    d = d.at(l);
                }
                diags.push(d);
            }
            for b in &pbundles {
                if b.channels.is_empty() {
                    diags.push(
                        Diagnostic::error(format!(
                            "package {:?}, bundle {:?} not found in any channel entries",
                            name, b.name
                        ))
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
            diags.push(ctx(Diagnostic::error(format!(
                "parse properties for bundle {:?}: {e}",
                b.name
            ))));
            b.properties
                .iter()
                .map(|p| property::parse(p).unwrap_or(PropertyValue::Other))
                .collect()
        }
    };
    let pkg_props: Vec<(&String, &String, &String)> = values
        .iter()
        .filter_map(|v| match v {
            PropertyValue::Package {
                package_name,
                version,
                release,
            } => Some((package_name, version, release)),
            _ => None,
        })
        .collect();
    let mut version = None;
    let mut release = None;
    if pkg_props.len() != 1 {
        diags.push(ctx(Diagnostic::error(format!(
            "package {:?} bundle {:?} must have exactly 1 {:?} property, found {}",
            b.package,
            b.name,
            property::types::PACKAGE,
            pkg_props.len()
        ))));
    } else {
        let (pname, ver, rel) = pkg_props[0];
        if *pname != b.package {
            diags.push(ctx(Diagnostic::error(format!(
                "package {:?} does not match {:?} property {:?}",
                b.package,
                property::types::PACKAGE,
                pname
            ))));
        }
        match version::parse_strict(ver) {
            Ok(v) => version = Some(v),
            Err(e) => diags.push(ctx(Diagnostic::error(format!(
                "error parsing bundle {:?} version {:?}: {e}",
                b.name, ver
            )))),
        }
        match version::parse_release(rel) {
            Ok(r) => release = r,
            Err(e) => diags.push(ctx(Diagnostic::error(format!(
                "error parsing bundle {:?} release version {:?}: {e}",
                b.name, rel
            )))),
        }
    }
    if let Err(e) = crate::image_ref::validate_if_set(&b.image) {
        diags.push(ctx(Diagnostic::error(format!(
            "package {:?} bundle {:?} image: invalid image pull spec {:?}: {e}",
            b.package, b.name, b.image
        ))));
    }
    for (i, ri) in b.related_images.iter().enumerate() {
        if let Err(e) = crate::image_ref::validate_if_set(&ri.image) {
            diags.push(ctx(Diagnostic::error(format!(
                "package {:?} bundle {:?} relatedImages[{i}].image: invalid image pull spec {:?}: {e}",
                b.package, b.name, ri.image
            ))));
        }
    }
    BundleFacts {
        values,
        version,
        release,
        diagnostics: diags,
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
    let err = |m: String| Diagnostic::error(m).at(&d.location);
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
