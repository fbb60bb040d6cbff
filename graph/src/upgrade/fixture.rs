//! Hand-made packages for the upgrade-graph tests.
//!
//! Each spec string is one bundle: `[flags]name[@version][<replaces][|skip1,skip2][;skipRange]`
//! (the `<` and `|` parts are the shorthand of the chain tests, read by [`entry`]). Flags:
//! `!` the bundle is not in channel `stable` (it is in channel `other`), `^` it
//! carries the legacy `olm.deprecated` property. Entry `i` of `stable` is at
//! line `i + 1` of file `stable.yaml`.

use std::sync::Arc;

use olmsat_catalog::declcfg::ChannelEntry;
use olmsat_catalog::model::{Bundle, Channel, Deprecations, Package};
use olmsat_catalog::property::PropertyValue;
use olmsat_encoding::location::Location;

struct Spec {
    in_stable: bool,
    legacy_deprecated: bool,
    version: Option<semver::Version>,
    entry: ChannelEntry,
}

fn parse(spec: &str) -> Spec {
    let mut rest = spec;
    let mut in_stable = true;
    let mut legacy_deprecated = false;
    loop {
        if let Some(r) = rest.strip_prefix('!') {
            in_stable = false;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('^') {
            legacy_deprecated = true;
            rest = r;
        } else {
            break;
        }
    }
    let (rest, range) = match rest.split_once(';') {
        Some((a, r)) => (a, Some(r.to_owned())),
        None => (rest, None),
    };
    let name_end = rest.find(['<', '|']).unwrap_or(rest.len());
    let (head, edges) = rest.split_at(name_end);
    let (name, version) = match head.split_once('@') {
        Some((n, v)) => (n, semver::Version::parse(v).ok()),
        None => (head, None),
    };
    let shorthand = format!("{name}{edges}");
    let mut entry = entry(&shorthand);
    entry.skip_range = range;
    Spec {
        in_stable,
        legacy_deprecated,
        version,
        entry,
    }
}

fn channel(name: &str, mut entries: Vec<ChannelEntry>) -> Channel {
    let file: Arc<str> = Arc::from(format!("{name}.yaml"));
    for (i, e) in entries.iter_mut().enumerate() {
        e.location = Location::new(file.clone(), u32::try_from(i + 1).unwrap_or(0));
    }
    let mut channel = Channel::new(name, entries);
    channel.location = Location::new(file, 0);
    channel
}

/// A package `p` with channel `stable` (and `other` when a spec has `!`).
pub(crate) fn package(specs: &[&str]) -> Package {
    package_with(specs, Deprecations::default())
}

/// [`package`] with deprecations.
pub(crate) fn package_with(specs: &[&str], deprecations: Deprecations) -> Package {
    let specs: Vec<Spec> = specs.iter().map(|s| parse(s)).collect();
    let bundles: Vec<Bundle> = specs
        .iter()
        .filter(|s| s.version.is_some() || !s.in_stable || s.legacy_deprecated)
        .map(|s| Bundle {
            name: s.entry.name.clone(),
            image: String::new(),
            version: s.version.clone(),
            release: None,
            properties: Vec::new(),
            values: if s.legacy_deprecated {
                vec![PropertyValue::Deprecated]
            } else {
                Vec::new()
            },
            related_images: Vec::new(),
            location: Location::new(Arc::from("bundles.yaml"), 0),
            channels: Arc::from([if s.in_stable { "stable" } else { "other" }.to_owned()]),
        })
        .collect();
    let stable: Vec<ChannelEntry> = specs
        .iter()
        .filter(|s| s.in_stable)
        .map(|s| s.entry.clone())
        .collect();
    let other: Vec<ChannelEntry> = specs
        .iter()
        .filter(|s| !s.in_stable)
        .map(|s| s.entry.clone())
        .collect();
    let mut channels = vec![channel("stable", stable)];
    if !other.is_empty() {
        channels.insert(0, channel("other", other));
    }
    let mut package = Package::new("p", channels, bundles);
    package.default_channel = "stable".to_owned();
    package.location = Location::new(Arc::from("package.yaml"), 1);
    package.deprecations = deprecations;
    package
}

/// The `stable` channel of a fixture package.
pub(crate) fn stable(p: &Package) -> &Channel {
    &p.channels()[p.channels().len() - 1]
}

/// A channel entry from the chain tests' shorthand: `name`, `name<replaced`,
/// `name|skip1,skip2` or `name<replaced|skip1`.
fn entry(spec: &str) -> ChannelEntry {
    let (rest, skips) = match spec.split_once('|') {
        Some((r, k)) => (r, k.split(',').map(str::to_owned).collect()),
        None => (spec, Vec::new()),
    };
    let (name, replaces) = match rest.split_once('<') {
        Some((n, r)) => (n, Some(r.to_owned())),
        None => (rest, None),
    };
    ChannelEntry {
        name: name.to_owned(),
        replaces,
        skips,
        skip_range: None,
        location: olmsat_catalog::Location::new(std::sync::Arc::from("t"), 0),
    }
}
