//! Validation of a catalog with opm's rules and message texts, reporting every
//! problem (not only the first) plus warnings for mistakes opm lets through.
//!
//! The rules are those of opm's `ConvertToModel` (see [`Model::build`]) and
//! `Model.Validate`: package (default channel set and present, at least one
//! channel, unique versions), channel (at least one bundle, a single head, no
//! cycle in the replaces chain, no stranded bundles), bundle (normalized name with a
//! release, no empty skip, parseable skipRange, an image or bundle objects, no build
//! metadata with a release), and deprecation messages.

use std::collections::{BTreeMap, BTreeSet};

use crate::load::Loaded;
use crate::model::{Bundle, Channel, Model, Package};
use crate::property::{types, PropertyValue};
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::index::VersionIndex;
use olmsat_versions::range::{self, Range};

/// The outcome of validating a catalog.
#[derive(Debug, Default)]
pub struct Report {
    /// Errors: the catalog is invalid when there is at least one.
    pub errors: Vec<Diagnostic>,
    /// Warnings: never make a catalog invalid.
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// Whether the catalog passed (no errors).
    pub fn passed(&self) -> bool {
        self.errors.is_empty()
    }

    fn push_all(&mut self, diags: Vec<Diagnostic>) {
        for d in diags {
            if d.is_error() {
                self.errors.push(d);
            } else {
                self.warnings.push(d);
            }
        }
    }

    fn finish(mut self) -> Self {
        self.errors.sort();
        self.errors.dedup();
        self.warnings.sort();
        self.warnings.dedup();
        self
    }
}

/// Validate loaded catalog input: load problems, conversion problems and model
/// problems, all reported, sorted by file and line. Returns the model too, for
/// callers that go on to use it.
///
/// A file that could not be read completely (a syntax error, a bad blob) makes the
/// model checks of every package with a blob in that file meaningless: the missing
/// blob would show up as follow-on errors. Those packages are named in a warning
/// and their model checks are skipped; every other package is checked.
pub fn validate(loaded: Loaded) -> (Model, Report) {
    let mut report = Report::default();
    let tainted_files: BTreeSet<std::sync::Arc<str>> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .filter_map(|d| d.location.as_ref().map(|l| l.file.clone()))
        .collect();
    let tainted = tainted_packages(&loaded.config, &tainted_files);
    report.push_all(loaded.diagnostics);
    let (model, diags) = Model::build(loaded.config);
    let mut model_diags = diags;
    model_diags.extend(validate_model(&model));
    let mut skipped: BTreeSet<&str> = BTreeSet::new();
    for d in model_diags {
        let pkg_tainted = d.package.as_deref().is_some_and(|p| tainted.contains(p));
        let file_tainted = d
            .location
            .as_ref()
            .is_some_and(|l| tainted_files.contains(&l.file));
        if pkg_tainted || (file_tainted && d.package.is_none()) {
            if let Some(p) = d.package.as_deref().and_then(|p| tainted.get(p)) {
                skipped.insert(p);
            }
            continue;
        }
        report.push_all(vec![d]);
    }
    for p in skipped {
        report.warnings.push(
            Diagnostic::new(
                Rule::ModelChecksSkipped,
                "model checks skipped for this package: some of its catalog files could not be read completely (see the errors above)",
            )
            .package(p),
        );
    }
    (model, report.finish())
}

/// Packages with a blob in one of `files`.
fn tainted_packages(
    cfg: &crate::declcfg::DeclarativeConfig,
    files: &BTreeSet<std::sync::Arc<str>>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if files.is_empty() {
        return out;
    }
    let hit = |l: &olmsat_encoding::location::Location| files.contains(&l.file);
    for p in &cfg.packages {
        if hit(&p.location) {
            out.insert(p.name.clone());
        }
    }
    for c in &cfg.channels {
        if hit(&c.location) {
            out.insert(c.package.clone());
        }
    }
    for b in &cfg.bundles {
        if hit(&b.location) {
            out.insert(b.package.clone());
        }
    }
    for d in &cfg.deprecations {
        if hit(&d.location) {
            out.insert(d.package.clone());
        }
    }
    out
}

/// The checks of opm's `Model.Validate`, and olmsat's warnings.
pub fn validate_model(model: &Model) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    // Packages are independent: check them in parallel, report in package order.
    let per_package: Vec<Vec<Diagnostic>> = model
        .packages()
        .par_iter()
        .map(|pkg| {
            let mut out = Vec::new();
            validate_package(pkg, &mut out);
            out
        })
        .collect();
    per_package.concat()
}

fn validate_package(pkg: &Package, out: &mut Vec<Diagnostic>) {
    let perr = |rule: Rule, m: &str| {
        Diagnostic::new(rule, m)
            .at(&pkg.location)
            .package(&pkg.name)
    };
    if pkg.default_channel.is_empty() {
        out.push(perr(
            Rule::DefaultChannelMissing,
            "default channel must be set",
        ));
    }
    if pkg.channels().is_empty() {
        out.push(perr(
            Rule::NoChannels,
            "package must contain at least one channel",
        ));
    }
    if let Some(dup) = duplicate_versions(pkg) {
        out.push(perr(Rule::DuplicateVersions, &dup));
    }
    if pkg.deprecations.package.as_deref() == Some("") {
        out.push(
            perr(
                Rule::DeprecationMessageMissing,
                "invalid deprecation: message must be set",
            )
            .at(pkg.deprecations.location.as_ref().unwrap_or(&pkg.location)),
        );
    }
    for ch in pkg.channels() {
        validate_channel(pkg, ch, out);
    }
    warn_build_metadata_only(pkg, out);
    warn_control_characters(pkg, out);
}

/// Warn about names that hold control characters (ESC, BEL, ...): printed
/// raw, they would drive the terminal of whoever lists the catalog.
fn warn_control_characters(pkg: &Package, out: &mut Vec<Diagnostic>) {
    let has = |name: &str| name.chars().any(char::is_control);
    let message = |what: &str, name: &str| {
        format!("{what} name {name:?} holds control characters; they are shown escaped")
    };
    if has(&pkg.name) {
        out.push(
            Diagnostic::new(Rule::ControlCharacterInName, message("package", &pkg.name))
                .at(&pkg.location)
                .package(&pkg.name),
        );
    }
    for ch in pkg.channels().iter().filter(|c| has(&c.name)) {
        out.push(
            Diagnostic::new(Rule::ControlCharacterInName, message("channel", &ch.name))
                .at(&ch.location)
                .package(&pkg.name)
                .channel(&ch.name),
        );
    }
    for b in pkg.bundles().iter().filter(|b| has(&b.name)) {
        out.push(
            Diagnostic::new(Rule::ControlCharacterInName, message("bundle", &b.name))
                .at(&b.location)
                .package(&pkg.name)
                .bundle(&b.name),
        );
    }
}

/// opm: `duplicate versions found in bundles: [{1.0.0: [a, b]}]`, over every
/// bundle in any channel, by version string (build metadata included) plus release.
fn duplicate_versions(pkg: &Package) -> Option<String> {
    let mut by_version: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for b in pkg.bundles() {
        if b.channels.is_empty() {
            continue;
        }
        let Some(v) = &b.version else { continue };
        let key = match &b.release {
            Some(r) => format!("{v}-{r}"),
            None => v.to_string(),
        };
        by_version.entry(key).or_default().insert(&b.name);
    }
    let dups: Vec<String> = by_version
        .into_iter()
        .filter(|(_, names)| names.len() > 1)
        .map(|(v, names)| {
            format!(
                "{{{v}: [{}]}}",
                names.into_iter().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    (!dups.is_empty()).then(|| format!("duplicate versions found in bundles: [{}]", dups.join(" ")))
}

fn validate_channel(pkg: &Package, ch: &Channel, out: &mut Vec<Diagnostic>) {
    let cerr = |rule: Rule, m: String| {
        Diagnostic::new(rule, m)
            .at(&ch.location)
            .package(&pkg.name)
            .channel(&ch.name)
    };
    if ch.entries().is_empty() {
        let mut msg = "channel must contain at least one bundle".to_owned();
        if ch.is_synthesized() {
            msg.push_str(
                " (the package's defaultChannel names a channel that has no olm.channel blob)",
            );
        }
        out.push(cerr(Rule::EmptyChannel, msg));
    } else if let Some(e) = &ch.chain().error {
        let mut d = cerr(chain_rule(e), e.to_string());
        if let Some(hint) = chain_hint(ch) {
            d.message.push_str(&hint);
        }
        out.push(d);
    }
    if pkg
        .deprecations
        .channels
        .get(&ch.name)
        .is_some_and(String::is_empty)
    {
        out.push(cerr(
            Rule::DeprecationMessageMissing,
            "invalid deprecation: message must be set".to_owned(),
        ));
    }
    let names: BTreeSet<&str> = ch.entries().iter().map(|e| e.name.as_str()).collect();
    // The entries by version, made at the first skipRange.
    let mut by_version: Option<VersionIndex<'_>> = None;
    for e in ch.entries() {
        let berr = |rule: Rule, m: String| {
            Diagnostic::new(rule, m)
                .at(&e.location)
                .package(&pkg.name)
                .channel(&ch.name)
                .bundle(&e.name)
        };
        let bwarn = |rule: Rule, m: String| {
            Diagnostic::new(rule, m)
                .at(&e.location)
                .package(&pkg.name)
                .channel(&ch.name)
                .bundle(&e.name)
        };
        if e.name.is_empty() {
            out.push(berr(Rule::BundleNameMissing, "name must be set".to_owned()));
        }
        let bundle = pkg.bundle(&e.name);
        if let Some(b) = bundle {
            if let (Some(v), Some(r)) = (&b.version, &b.release) {
                let normalized = format!("{}-v{}-{}", pkg.name, v, r);
                if e.name != normalized {
                    out.push(berr(
                        Rule::NameNotNormalized,
                        format!(
                            "name {:?} does not match normalized name {:?}",
                            e.name, normalized
                        ),
                    ));
                }
                if !v.build.is_empty() {
                    out.push(berr(
                        Rule::BuildMetadataWithRelease,
                        "cannot use build metadata in version with a release version".to_owned(),
                    ));
                }
            }
        }
        for (i, s) in e.skips.iter().enumerate() {
            if s.is_empty() {
                out.push(berr(Rule::EmptySkip, format!("skip[{i}] is empty")));
            }
        }
        if let Some(sr) = &e.skip_range {
            match Range::parse(sr) {
                Err(err) => {
                    let mut msg = format!("invalid skipRange {sr:?}: {err}");
                    if let Some(h) = range::hint(sr) {
                        msg.push_str(&format!(" (blang/semver would accept {h:?})"));
                    }
                    out.push(berr(Rule::InvalidSkiprange, msg));
                }
                Ok(r) => {
                    let by_version = by_version.get_or_insert_with(|| {
                        VersionIndex::new(ch.entries().iter().enumerate().filter_map(|(i, e)| {
                            pkg.bundle(&e.name)
                                .and_then(|b| b.version.as_ref())
                                .map(|v| (i, v))
                        }))
                    });
                    let matches_any = by_version
                        .matching(&r)
                        .any(|other| ch.entries()[other].name != e.name);
                    // A range reaching below the channel's lowest version is
                    // the usual way to skip versions pruned from the catalog.
                    let for_pruned = by_version
                        .lowest()
                        .is_some_and(|lowest| reaches_below(&r, lowest));
                    if !matches_any && !for_pruned {
                        out.push(bwarn(
                            Rule::SkiprangeMatchesNothing,
                            format!(
                                "skipRange {sr:?} matches no other bundle in channel {:?}",
                                ch.name
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(b) = bundle {
            if b.image.is_empty()
                && !b
                    .values
                    .iter()
                    .any(|v| matches!(v, PropertyValue::BundleObject(_)))
            {
                out.push(berr(
                    Rule::BundleImageMissing,
                    "bundle image must be set".to_owned(),
                ));
            }
        }
        if pkg
            .deprecations
            .bundles
            .get(&e.name)
            .is_some_and(String::is_empty)
        {
            out.push(berr(
                Rule::DeprecationMessageMissing,
                "invalid deprecation: message must be set".to_owned(),
            ));
        }
        if let Some(r) = &e.replaces {
            if pkg.bundle(r).is_none() && !names.contains(&r[..]) {
                let version = bundle.and_then(|b| b.version.as_ref());
                if let Some(why) = replaces_mistake(pkg, r, version) {
                    out.push(bwarn(
                        Rule::ReplacesNotFound,
                        format!(
                            "replaces {r:?}, which is not a bundle of package {:?} in this catalog{why}",
                            pkg.name
                        ),
                    ));
                }
            }
        }
        if let Some(b) = bundle {
            warn_property_typos(pkg, ch, b, out);
        }
    }
}

/// Why a `replaces` of `missing`, a name that is no bundle of the package,
/// looks like a mistake, by an entry at `version`; `None` when it reads as the
/// normal pruned tail of a channel (a lower version, pruned from the catalog:
/// clusters still run it and upgrade through this edge, so it must stay).
///
/// A mistake: the version in the name (after its last `.v`) is not lower than
/// the entry's, or a bundle of the package has that version under another
/// name, or the name has no version and a bundle's name is within two edits.
fn replaces_mistake(
    pkg: &Package,
    missing: &str,
    version: Option<&semver::Version>,
) -> Option<String> {
    use olmsat_versions::version::{compare, parse_strict};
    let named = missing
        .rsplit_once(".v")
        .and_then(|(_, v)| parse_strict(v).ok());
    let names = || pkg.bundles().iter().map(|b| b.name.as_str());
    let mean = |candidates: Vec<&str>| {
        olmsat_findings::suggest::closest(missing, candidates)
            .first()
            .map(|c| format!("; did you mean {c:?}?"))
            .unwrap_or_default()
    };
    match (&named, version) {
        (Some(n), Some(v)) if compare(n, v).is_ge() => {
            // Bundles below the entry: what a replaces can mean.
            let lower: Vec<&str> = pkg
                .bundles()
                .iter()
                .filter(|b| b.version.as_ref().is_some_and(|bv| compare(bv, v).is_lt()))
                .map(|b| b.name.as_str())
                .collect();
            Some(format!(
                ": its version {n} is not lower than this entry's {v}, so it is no pruned predecessor{}",
                mean(lower)
            ))
        }
        (Some(n), _) => {
            let same: Vec<&str> = pkg
                .bundles()
                .iter()
                .filter(|b| b.version.as_ref().is_some_and(|bv| compare(bv, n).is_eq()))
                .map(|b| b.name.as_str())
                .collect();
            (!same.is_empty()).then(|| mean(same))
        }
        (None, _) => {
            let close: Vec<&str> = names()
                .filter(|b| olmsat_findings::suggest::edit_distance(missing, b) <= 2)
                .collect();
            (!close.is_empty()).then(|| mean(close))
        }
    }
}

/// Whether some comparator group of `range` admits versions below `lowest`:
/// its tightest lower bound (`>`, `>=` or `=`) is below `lowest`, or it has none.
fn reaches_below(range: &Range, lowest: &semver::Version) -> bool {
    use olmsat_versions::range::Op;
    range.groups().iter().any(|group| {
        let bound = group
            .iter()
            .filter(|c| matches!(c.op, Op::Ge | Op::Gt | Op::Eq))
            .map(|c| &c.version)
            .max_by(|a, b| olmsat_versions::version::compare(a, b));
        bound.is_none_or(|b| {
            olmsat_versions::version::compare(b, lowest) == std::cmp::Ordering::Less
        })
    })
}

/// The rule of a channel graph error.
fn chain_rule(e: &crate::chain::ChainError) -> Rule {
    use crate::chain::ChainError;
    match e {
        ChainError::NoHead => Rule::NoChannelHead,
        ChainError::MultipleHeads(_) => Rule::MultipleHeads,
        ChainError::Cycle(_) => Rule::ReplacesCycle,
        ChainError::Stranded(_) => Rule::StrandedBundles,
    }
}

fn chain_hint(ch: &Channel) -> Option<String> {
    use crate::chain::ChainError;
    match &ch.chain().error {
        Some(ChainError::MultipleHeads(_)) if ch.entries().iter().any(|e| e.skip_range.is_some()) => Some(
            " (skipRange does not link entries for this check: link them with replaces or skips)".to_owned(),
        ),
        _ => None,
    }
}

/// Property types that look like misspellings of `olm.*` types.
fn warn_property_typos(pkg: &Package, ch: &Channel, b: &Bundle, out: &mut Vec<Diagnostic>) {
    // Reported once per bundle: only from its first channel.
    if b.channels.first().map(String::as_str) != Some(ch.name.as_str()) {
        return;
    }
    for p in &b.properties {
        if types::KNOWN.contains(&p.type_.as_str()) {
            continue;
        }
        if let Some(known) = types::KNOWN.iter().find(|k| {
            k.eq_ignore_ascii_case(&p.type_)
                || (p.type_.starts_with("olm") && edit_distance(k, &p.type_) <= 2)
        }) {
            out.push(
                Diagnostic::new(
                    Rule::MisspelledPropertyType,
                    format!(
                    "property type {:?} looks like a misspelling of {known:?}; OLM ignores unknown property types",
                    p.type_
                ))
                .at(&b.location)
                .package(&pkg.name)
                .bundle(&b.name),
            );
        }
    }
}

/// Bundles whose versions differ only in build metadata: valid for opm, but
/// version order cannot tell them apart.
fn warn_build_metadata_only(pkg: &Package, out: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<String, Vec<&Bundle>> = BTreeMap::new();
    for b in pkg.bundles() {
        if let Some(v) = &b.version {
            if !v.build.is_empty() {
                let mut core = v.clone();
                core.build = semver::BuildMetadata::EMPTY;
                groups.entry(core.to_string()).or_default().push(b);
            }
        }
    }
    for (core, bs) in groups {
        let plain = pkg.bundles().iter().filter(|b| {
            b.version
                .as_ref()
                .is_some_and(|v| v.build.is_empty() && v.to_string() == core)
        });
        let mut names: Vec<&str> = bs
            .iter()
            .map(|b| b.name.as_str())
            .chain(plain.map(|b| b.name.as_str()))
            .collect();
        names.sort_unstable();
        if names.len() > 1 {
            out.push(
                Diagnostic::new(
                    Rule::BuildMetadataOnly,
                    format!(
                    "bundles {} have versions that differ only in build metadata ({core}+...); semver precedence cannot order them",
                    names.join(", ")
                ))
                .at(&bs[0].location)
                .package(&pkg.name),
            );
        }
    }
}

/// Levenshtein distance (small strings only).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skipRange that matches no other bundle of its channel is warned
    /// about, one that matches another (but maybe not itself) is not, one
    /// that matches only its own bundle counts as matching none, and one
    /// reaching below the channel's lowest version (for pruned versions) is
    /// not warned about.
    #[test]
    fn skip_ranges_that_match_no_other_bundle_are_reported() {
        let mut docs =
            vec![r#"{"schema":"olm.package","name":"a","defaultChannel":"stable"}"#.to_owned()];
        for v in ["1.0.0", "1.1.0", "2.0.0", "3.0.0"] {
            docs.push(format!(
                r#"{{"schema":"olm.bundle","name":"a.v{v}","package":"a","image":"i","properties":[{{"type":"olm.package","value":{{"packageName":"a","version":"{v}"}}}}]}}"#
            ));
        }
        docs.push(
            r#"{"schema":"olm.channel","name":"stable","package":"a","entries":[
                {"name":"a.v1.0.0","skipRange":">=0.1.0 <1.0.0"},
                {"name":"a.v1.1.0","replaces":"a.v1.0.0","skipRange":">=1.0.0 <1.1.0"},
                {"name":"a.v2.0.0","replaces":"a.v1.1.0","skipRange":"2.0.0"},
                {"name":"a.v3.0.0","replaces":"a.v2.0.0","skipRange":"<1.0.0 || >=1.1.0 <1.2.0"}
            ]}"#
            .to_owned(),
        );
        let loaded = crate::load::load_bytes("c.json", docs.join("\n").as_bytes());
        let (_, report) = validate(loaded);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let warned: Vec<String> = report
            .warnings
            .iter()
            .filter(|d| d.message.contains("matches no other bundle"))
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(
            warned,
            ["skipRange \"2.0.0\" matches no other bundle in channel \"stable\""]
        );
        assert!(report
            .warnings
            .iter()
            .all(|d| d.rule == Rule::SkiprangeMatchesNothing));
    }

    #[test]
    fn edit_distance_works() {
        assert_eq!(edit_distance("olm.gvk", "olm.gvk"), 0);
        assert_eq!(edit_distance("olm.skipRange", "olm.skiprange"), 1);
        assert_eq!(edit_distance("abc", ""), 3);
    }
}
