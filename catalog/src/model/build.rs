//! [`Model::build`]: opm's `ConvertToModel` checks, with its texts, and the
//! assembly of the packages.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use super::bundles::{MadeBundles, SortedBundles};
use super::deprecations::apply_deprecation;
use super::{Bundle, Channel, Deprecations, Model, Package};
use crate::chain::{self, ChainAnalysis};
use crate::declcfg::BundleReading;
use crate::declcfg::DeclarativeConfig;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

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
        // A valid DNS-1123 subdomain that is not a label has dots (the
        // length was checked above): Kubernetes' check says just that.
        let subdomain = !b.is_empty()
            && name.split('.').all(|l| {
                let l = l.as_bytes();
                !l.is_empty()
                    && l.iter()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                    && l[0] != b'-'
                    && l[l.len() - 1] != b'-'
            });
        errs.push(if subdomain {
            "must not contain dots".to_owned()
        } else {
            DNS1123_LABEL_MSG.to_owned()
        });
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
            if let Some(first) = pkgs.get(&p.name) {
                diags.push(
                    Diagnostic::new(
                        Rule::DuplicatePackage,
                        format!(
                            "duplicate package {:?} (also declared at {}: keep one olm.package blob)",
                            p.name, first.location
                        ),
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
                        format!("invalid package name {:?}: [{}]", p.name, errs.join(" ")),
                    )
                    .at(&p.location)
                    .package(&p.name),
                );
            }
            pkgs.insert(
                p.name.clone(),
                Package {
                    default_channel: p.default_channel,
                    description: p.description,
                    icon: p.icon,
                    properties: p.properties,
                    ..Package::empty(p.name, p.location)
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
                    properties: c.properties,
                    location: c.location,
                    ..Channel::analysed(c.name, entries, chain)
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
        for d in cfg.deprecations.into_iter().enumerate() {
            apply_deprecation(d, &pkgs, &channels, &bundles, &mut deprecations, &mut diags);
        }

        // Assemble packages, linking bundles and channels.
        let mut out = Vec::with_capacity(pkgs.len());
        for (name, mut pkg) in pkgs {
            let mut chans = channels.remove(&name).unwrap_or_default();
            let pbundles = bundles.remove(&name).unwrap_or_default();
            // The default channel opm synthesizes has no entries: it lists
            // no bundle.
            if !pkg.default_channel.is_empty() && !chans.contains_key(&pkg.default_channel) {
                chans.insert(
                    pkg.default_channel.clone(),
                    Channel::synthesized(pkg.default_channel.clone(), pkg.location.clone()),
                );
            }
            pkg.set_contents(chans.into_values().collect(), pbundles);
            let mut missing: BTreeSet<&str> = BTreeSet::new();
            let mut first_missing: Option<&Location> = None;
            for ch in &pkg.channels {
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
            for b in &pkg.bundles {
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
            pkg.deprecations = deprecations.remove(&name).unwrap_or_default();
            out.push(pkg);
        }
        (Model { packages: out }, diags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

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
