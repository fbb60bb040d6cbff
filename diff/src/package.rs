//! The changes and findings of one package: package, default channel,
//! deprecations, bundles, then each channel in both catalogs.

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::bundle;
use super::change::{Change, ChangeKind};
use super::channel::View;
use super::PackageDiff;
use super::{finding, sort_key};
use olmsat_catalog::model::{Channel, Package};
use olmsat_findings::{Diagnostic, Rule};
use olmsat_graph::upgrade::{version_in_name, OlmPath};
use olmsat_versions::version;

/// Compare the OLD and NEW versions of package `name`; `r0` are NEW's
/// validation errors about it.
pub(crate) fn compare(
    name: &str,
    old: Option<&Package>,
    new: Option<&Package>,
    r0: Vec<Diagnostic>,
) -> PackageDiff {
    let mut changes = Vec::new();
    let mut findings = r0;
    match (old, new) {
        (Some(o), None) => {
            changes.push(Change::new(ChangeKind::PackageRemoved));
            // Subsumes every other finding for the package.
            findings.push(
                finding(
                Rule::PackageRemoved,
                    name,
                    format!(
                        "package {name} with {} channel(s) and {} bundle(s) was removed: its subscriptions can no longer resolve or upgrade",
                        o.channels().len(),
                        o.bundles().len()
                    ),
                )
                .was_at(&o.location),
            );
        }
        (None, Some(n)) => {
            changes.push(Change::new(ChangeKind::PackageAdded));
            for ch in n.channels() {
                let view = View::new(n, ch);
                new_dead_ends(name, &ch.name, None, &view, &mut findings);
            }
        }
        (Some(o), Some(n)) => both(name, o, n, &mut changes, &mut findings),
        (None, None) => {}
    }
    changes.sort();
    changes.dedup();
    findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    findings.dedup();
    PackageDiff {
        name: name.to_owned(),
        changes,
        findings,
        allowed: Vec::new(),
    }
}

fn both(
    name: &str,
    o: &Package,
    n: &Package,
    changes: &mut Vec<Change>,
    findings: &mut Vec<Diagnostic>,
) {
    if o.default_channel != n.default_channel {
        changes.push(
            Change::new(ChangeKind::DefaultChannelChanged)
                .old(&o.default_channel)
                .new_value(&n.default_channel),
        );
        findings.push(
            finding(
                Rule::DefaultChannelChanged,
                name,
                format!(
                    "default channel changed from {} to {}: new subscriptions without a channel get {}",
                    o.default_channel, n.default_channel, n.default_channel
                ),
            )
            .channel(&n.default_channel)
            .was_at(&o.location)
            .at(&n.location),
        );
    }
    deprecations(o, n, changes);
    // Bundles, catalog-wide.
    for b in o.bundles() {
        if n.bundle(&b.name).is_none() {
            changes.push(Change::new(ChangeKind::BundleRemoved).bundle(&b.name));
        }
    }
    for b in n.bundles() {
        if o.bundle(&b.name).is_none() {
            changes.push(Change::new(ChangeKind::BundleAdded).bundle(&b.name));
        }
    }
    let changed: Vec<Diagnostic> = o
        .bundles()
        .par_iter()
        .filter_map(|ob| {
            let nb = n.bundle(&ob.name)?;
            let what = bundle::difference(ob, nb)?;
            Some(
                finding(
                    Rule::BundleChanged,
                    name,
                    format!("{} changed: {what}", ob.name),
                )
                .bundle(&ob.name)
                .was_at(&ob.location)
                .at(&nb.location),
            )
        })
        .collect();
    findings.extend(changed);
    // Channels.
    let old_views: Vec<View<'_>> = o.channels().iter().map(|c| View::new(o, c)).collect();
    let mut new_views: Option<Vec<View<'_>>> = None;
    for oc in o.channels() {
        if n.channel(&oc.name).is_none() {
            changes.push(Change::new(ChangeKind::ChannelRemoved).channel(&oc.name));
            if !oc.entries().is_empty() {
                let remaining = new_views
                    .get_or_insert_with(|| n.channels().iter().map(|c| View::new(n, c)).collect());
                findings.push(removed_channel(name, o, oc, n, remaining));
            }
        }
    }
    let switchers = Switchers::of(&old_views);
    for (nc, nv) in n.channels().iter().map(|c| (c, View::new(n, c))) {
        match o.channels().iter().position(|c| c.name == nc.name) {
            None => {
                changes.push(Change::new(ChangeKind::ChannelAdded).channel(&nc.name));
                new_dead_ends(name, &nc.name, None, &nv, findings);
            }
            Some(i) => {
                let oc = &o.channels()[i];
                channel(
                    name,
                    (o, oc, &old_views[i]),
                    (n, nc, &nv),
                    &switchers,
                    changes,
                    findings,
                )
            }
        }
    }
    // Every finding points into NEW, where the package still is: at its
    // channel's declaration, or the package's when the channel is gone.
    for f in findings.iter_mut().filter(|f| f.location.is_none()) {
        let at = f
            .channel
            .as_deref()
            .and_then(|c| n.channel(c))
            .map_or(&n.location, |c| &c.location);
        f.location = Some(at.clone());
    }
}

/// R3 for a removed channel: `channel-retired` (a warning) when users on
/// every entry can switch to a remaining channel that takes them to its head,
/// naming those channels; `channel-removed` (an error) naming the entries
/// that no remaining channel upgrades.
fn removed_channel(
    pkg: &str,
    o: &Package,
    oc: &Channel,
    n: &Package,
    remaining: &[View<'_>],
) -> Diagnostic {
    use std::collections::BTreeMap;
    let mut names: Vec<&str> = oc.entries().iter().map(|e| e.name.as_str()).collect();
    let count = names.len();
    let mut seen = BTreeSet::new();
    names.retain(|x| seen.insert(*x));
    // Channels to switch to -> the entries they take.
    let mut covered: BTreeMap<Vec<&str>, Vec<&str>> = BTreeMap::new();
    let mut uncovered = Vec::new();
    for x in names {
        let version = o.bundle(x).and_then(|b| b.version.as_ref());
        let to: Vec<&str> = remaining
            .iter()
            .filter(|v| {
                v.target_name() == Some(x)
                    || v.olm_path(x, version)
                        .is_some_and(|p| p.reaches_head() && !p.steps.is_empty())
            })
            .map(|v| v.graph.channel().name.as_str())
            .collect();
        if to.is_empty() {
            uncovered.push(x);
        } else {
            covered.entry(to).or_default().push(x);
        }
    }
    let entries = if count == 1 { "entry" } else { "entries" };
    let c = &oc.name;
    let f = if uncovered.is_empty() {
        let ways: Vec<String> = covered
            .iter()
            .map(|(to, xs)| format!("{} -> {}", xs.join(", "), to.join(" or ")))
            .collect();
        finding(
            Rule::ChannelRetired,
            pkg,
            format!(
                "channel {c} with {count} {entries} was removed, but users on every entry can switch their subscription to a channel that takes them to its head ({}); subscriptions to {c} must be edited: OLM v0 finds no operators in a channel that is gone",
                ways.join("; ")
            ),
        )
    } else {
        finding(
            Rule::ChannelRemoved,
            pkg,
            format!(
                "channel {c} with {count} {entries} was removed: subscriptions to it can no longer upgrade, and no remaining channel takes {} to a head",
                uncovered.join(", ")
            ),
        )
    };
    f.channel(c).at(&n.location).was_at(&oc.location)
}

/// Channel switchers (spec B.2 positions (c)): per bundle of OLD, the
/// channels it is an entry of, and whether it is the head of one of them
/// (users at the end of a channel move on only by switching).
struct Switchers<'m> {
    channels: std::collections::BTreeMap<&'m str, (Vec<&'m str>, bool)>,
}

impl<'m> Switchers<'m> {
    fn of(views: &[View<'m>]) -> Switchers<'m> {
        let mut channels: std::collections::BTreeMap<&'m str, (Vec<&'m str>, bool)> =
            Default::default();
        for v in views {
            let c = v.graph.channel().name.as_str();
            let target = v.target_name();
            for x in v.entry_names() {
                let e = channels.entry(x).or_default();
                e.0.push(c);
                e.1 |= target == Some(x) && !v.several_heads();
            }
        }
        Switchers { channels }
    }
}

fn deprecations(o: &Package, n: &Package, changes: &mut Vec<Change>) {
    use olmsat_catalog::declcfg::schema;
    type Entry<'a> = (&'a str, Option<&'a str>, &'a str);
    fn entries(p: &Package) -> BTreeSet<Entry<'_>> {
        let d = &p.deprecations;
        let mut out: BTreeSet<(&str, Option<&str>, &str)> = BTreeSet::new();
        if let Some(m) = &d.package {
            out.insert((schema::PACKAGE, None, m.as_str()));
        }
        for (c, m) in &d.channels {
            out.insert((schema::CHANNEL, Some(c.as_str()), m.as_str()));
        }
        for (b, m) in &d.bundles {
            out.insert((schema::BUNDLE, Some(b.as_str()), m.as_str()));
        }
        out
    }
    let (a, b) = (entries(o), entries(n));
    let change = |kind: ChangeKind, (s, what, m): (&str, Option<&str>, &str)| {
        let mut c = Change::new(kind);
        match s {
            schema::CHANNEL => c = c.channel(what.unwrap_or_default()),
            schema::BUNDLE => c = c.bundle(what.unwrap_or_default()),
            _ => {}
        }
        let v = format!("{s}: {m}");
        if kind == ChangeKind::DeprecationRemoved {
            c.old(v)
        } else {
            c.new_value(v)
        }
    };
    for &e in a.difference(&b) {
        changes.push(change(ChangeKind::DeprecationRemoved, e));
    }
    for &e in b.difference(&a) {
        changes.push(change(ChangeKind::DeprecationAdded, e));
    }
}

/// `name (version)`, or the name alone.
fn with_version(view: &View<'_>, n: olmsat_graph::upgrade::NodeIndex) -> String {
    match view.version(n) {
        Some(v) => format!("{} ({v})", view.name(n)),
        None => view.name(n).to_owned(),
    }
}

fn channel<'m>(
    pkg: &str,
    (op, oc, ov): (&'m Package, &'m Channel, &View<'m>),
    (np, nc, nv): (&'m Package, &'m Channel, &View<'m>),
    switchers: &Switchers<'m>,
    changes: &mut Vec<Change>,
    findings: &mut Vec<Diagnostic>,
) {
    let c = nc.name.as_str();
    // Head.
    if ov.target_name() != nv.target_name() {
        let mut ch = Change::new(ChangeKind::HeadChanged).channel(c);
        if let Some(t) = ov.target {
            ch = ch.old(with_version(ov, t));
        }
        if let Some(t) = nv.target {
            ch = ch.new_value(with_version(nv, t));
        }
        changes.push(ch);
    }
    let (old_entries, new_entries) = (ov.entry_set(), nv.entry_set());
    for &x in old_entries.difference(&new_entries) {
        changes.push(Change::new(ChangeKind::EntryRemoved).channel(c).bundle(x));
    }
    for &x in new_entries.difference(&old_entries) {
        changes.push(Change::new(ChangeKind::EntryAdded).channel(c).bundle(x));
    }
    for &x in old_entries.intersection(&new_entries) {
        let (Some(a), Some(b)) = (oc.entry(x), nc.entry(x)) else {
            continue;
        };
        if a.replaces != b.replaces {
            let mut ch = Change::new(ChangeKind::ReplacesChanged)
                .channel(c)
                .bundle(x);
            if let Some(r) = &a.replaces {
                ch = ch.old(r);
            }
            if let Some(r) = &b.replaces {
                ch = ch.new_value(r);
            }
            changes.push(ch);
        }
        let (sa, sb): (BTreeSet<&str>, BTreeSet<&str>) = (
            a.skips.iter().map(String::as_str).collect(),
            b.skips.iter().map(String::as_str).collect(),
        );
        for s in sa.difference(&sb) {
            changes.push(
                Change::new(ChangeKind::SkipsRemoved)
                    .channel(c)
                    .bundle(x)
                    .old(*s),
            );
        }
        for s in sb.difference(&sa) {
            changes.push(
                Change::new(ChangeKind::SkipsAdded)
                    .channel(c)
                    .bundle(x)
                    .new_value(*s),
            );
        }
        if a.skip_range != b.skip_range {
            let mut ch = Change::new(ChangeKind::SkipRangeChanged)
                .channel(c)
                .bundle(x);
            if let Some(r) = &a.skip_range {
                ch = ch.old(r);
            }
            if let Some(r) = &b.skip_range {
                ch = ch.new_value(r);
            }
            changes.push(ch);
        }
    }

    // Bundles named by a stronger finding here get no olm-stuck.
    let mut flagged: BTreeSet<&str> = BTreeSet::new();
    let old_loc = |x: &str| oc.entry(x).map(|e| e.location.clone());
    let new_loc = |x: &str| nc.entry(x).map(|e| e.location.clone());
    let old_version = |x: &str| op.bundle(x).and_then(|b| b.version.as_ref());
    let target = nv.target_name().unwrap_or("(none)");

    // R1 stranded.
    for &x in old_entries.intersection(&new_entries) {
        if ov.reaches(x) && !nv.reaches(x) {
            flagged.insert(x);
            let mut f = finding(
                Rule::Stranded,
                pkg,
                format!(
                    "{x} reached the head {} in OLD; in NEW no edge path leads from it to {target}",
                    ov.target_name().unwrap_or("(none)")
                ),
            )
            .channel(c)
            .bundle(x);
            f.old_location = old_loc(x);
            f.location = new_loc(x);
            findings.push(f);
        }
    }
    // R2 removed entries.
    for &x in old_entries.difference(&new_entries) {
        let v = old_version(x);
        let shown = v.map_or(String::new(), |v| format!(" ({v})"));
        let mut f = match nv.edge_from(x, v) {
            Some((y, kind)) => {
                let mut f = finding(
                Rule::RemovedCovered,
                    pkg,
                    format!(
                        "{x}{shown} was removed from the channel; users on it upgrade to {} ({kind} {x})",
                        nv.name(y)
                    ),
                );
                f.location = nv
                    .graph
                    .channel()
                    .entry(nv.name(y))
                    .map(|e| e.location.clone());
                f
            }
            None => {
                flagged.insert(x);
                finding(
                Rule::RemovedUncovered,
                    pkg,
                    format!(
                        "{x}{shown} was removed from the channel and no entry of NEW replaces it, skips it or has a skipRange containing its version: users on it cannot upgrade"
                    ),
                )
            }
        }
        .channel(c)
        .bundle(x);
        f.old_location = old_loc(x);
        findings.push(f);
    }
    // R4 new dead ends.
    for x in new_dead_ends(pkg, c, Some(ov), nv, findings) {
        flagged.insert(x);
    }
    // R5 head regression: an error when OLM v0 moves the old head's users
    // down to the new head.
    if let (Some(ot), Some(nt)) = (ov.target, nv.target) {
        if let (Some(a), Some(b)) = (ov.version(ot), nv.version(nt)) {
            if version::compare(b, a).is_lt() {
                let old_head = ov.name(ot);
                let downgrades = old_head != nv.name(nt)
                    && nv
                        .olm_path(old_head, Some(a))
                        .is_some_and(|p| p.reaches_head() && !p.steps.is_empty());
                let mut detail = format!(
                    "the head went back from {} to {}",
                    with_version(ov, ot),
                    with_version(nv, nt)
                );
                if downgrades {
                    detail.push_str(&format!(
                        ": {} upgrades from {old_head}, so OLM v0 moves every user on {old_head} down to {b}",
                        nv.name(nt)
                    ));
                }
                if !b.pre.is_empty() && (b.major, b.minor, b.patch) == (a.major, a.minor, a.patch) {
                    let base = semver::Version::new(b.major, b.minor, b.patch);
                    detail.push_str(&format!(
                        " ({b} is a prerelease of {base} in semver, so it sorts below {a}; {base}+{} or {}.{}.{} is probably meant)",
                        b.pre,
                        b.major,
                        b.minor,
                        b.patch + 1
                    ));
                }
                let mut f = finding(Rule::HeadRegression, pkg, detail)
                    .channel(c)
                    .bundle(nv.name(nt));
                if downgrades {
                    f.severity = olmsat_findings::Severity::Error;
                }
                f.old_location = old_loc(old_head);
                f.location = new_loc(nv.name(nt));
                findings.push(f);
            }
        }
    }
    // R7 edge shrink.
    for &x in old_entries.intersection(&new_entries) {
        if !nv.reaches(x) {
            continue;
        }
        let now: BTreeSet<&str> = nv.out_edges(x).into_iter().map(|(y, _)| y).collect();
        for (y, kind) in ov.out_edges(x) {
            if !now.contains(y) {
                let mut f = finding(
                    Rule::EdgeShrink,
                    pkg,
                    format!("edge {x} -> {y} ({kind}) was removed; {x} still reaches {target}"),
                )
                .channel(c)
                .bundle(x);
                f.old_location = old_loc(y);
                f.location = new_loc(x);
                findings.push(f);
            }
        }
    }
    // R8 / R9: OLM v0's real path, from the channel's entries; R8 / R10 from
    // its pruned predecessors and channel switchers, when the channel changed.
    olm_paths(pkg, c, op, np, ov, nv, &flagged, findings);
    if !same_entries(oc, nc) {
        other_positions(
            pkg,
            (op, oc, ov),
            (np, nc, nv),
            switchers,
            &flagged,
            findings,
        );
    }
}

/// Whether two channels declare the same entries with the same edges.
fn same_entries(a: &Channel, b: &Channel) -> bool {
    a.entries().len() == b.entries().len()
        && a.entries().iter().zip(b.entries()).all(|(x, y)| {
            x.name == y.name
                && x.replaces == y.replaces
                && x.skips == y.skips
                && x.skip_range == y.skip_range
        })
}

/// Whether OLM v0 lost the way from a position: OLD's path reached the head
/// and NEW's stops short, or OLD's made a step and NEW's makes none.
fn lost(before: &OlmPath<'_>, after: &OlmPath<'_>) -> bool {
    !after.reaches_head()
        && (before.reaches_head() || (!before.steps.is_empty() && after.steps.is_empty()))
}

/// R8 for the pruned predecessors of channel C (names an entry replaces or
/// skips that are no bundle of the package: clusters still run them) and its
/// critical channel switchers (heads of other channels that move on only by
/// switching to C); R10 `switch-lost` for the other switchers.
fn other_positions<'m>(
    pkg: &str,
    (op, oc, ov): (&'m Package, &'m Channel, &View<'m>),
    (_, nc, nv): (&'m Package, &'m Channel, &View<'m>),
    switchers: &Switchers<'m>,
    flagged: &BTreeSet<&str>,
    findings: &mut Vec<Diagnostic>,
) {
    let c = nc.name.as_str();
    if nv.several_heads() || ov.several_heads() {
        return;
    }
    let head = nv.target_name().unwrap_or("(none)");
    // Where the finding is: the OLD entry that names (or covers) the
    // position, and the same entry in NEW (the channel when it is gone).
    let places = |by: &str| {
        (
            oc.entry(by).map(|e| e.location.clone()),
            nc.entry(by).map_or(&nc.location, |e| &e.location).clone(),
        )
    };
    // (b) pruned predecessors.
    let mut pruned: Vec<(&str, &str)> = Vec::new();
    for e in oc.entries() {
        for p in e.replaces.iter().chain(&e.skips) {
            if op.bundle(p).is_none() && ov.entry(p).is_none() && !flagged.contains(p.as_str()) {
                pruned.push((p.as_str(), e.name.as_str()));
            }
        }
    }
    pruned.sort_unstable();
    pruned.dedup_by_key(|(p, _)| *p);
    for (x, by) in pruned {
        let version = version_in_name(x).map(|(_, v)| v);
        let (Some(before), Some(after)) = (
            ov.olm_path(x, version.as_ref()),
            nv.olm_path(x, version.as_ref()),
        ) else {
            continue;
        };
        if !lost(&before, &after) {
            continue;
        }
        let (old_at, new_at) = places(by);
        let mut f = finding(
            Rule::OlmStuck,
            pkg,
            format!(
                "{x} is a pruned predecessor (no bundle of the package, but {by} {} it, so clusters still run it): OLM v0 took it to the head in OLD ({}) but stops short of {head} in NEW ({}): {}",
                if oc.entry(by).is_some_and(|e| e.replaces.as_deref() == Some(x)) { "replaces" } else { "skips" },
                ov.path_text(x, &before),
                nv.path_text(x, &after),
                nv.blocking(x, version.as_ref(), &after)
            ),
        )
        .channel(c)
        .bundle(x)
        .at(&new_at);
        f.old_location = old_at;
        findings.push(f);
    }
    // (c) channel switchers.
    for (&x, (from, critical)) in &switchers.channels {
        if ov.entry(x).is_some() || nv.entry(x).is_some() || flagged.contains(x) {
            continue;
        }
        let from: Vec<&str> = from.iter().copied().filter(|f| *f != c).collect();
        if from.is_empty() {
            continue;
        }
        let version = op.bundle(x).and_then(|b| b.version.as_ref());
        let Some((y, kind)) = ov.edge_from(x, version) else {
            continue;
        };
        let y = ov.name(y);
        let (old_at, new_at) = places(y);
        let shown = version.map_or(String::new(), |v| format!(" ({v})"));
        let f = if *critical {
            let (Some(before), Some(after)) = (ov.olm_path(x, version), nv.olm_path(x, version))
            else {
                continue;
            };
            if !lost(&before, &after) {
                continue;
            }
            finding(
                Rule::OlmStuck,
                pkg,
                format!(
                    "{x}{shown}, the head of channel {}, moves on only by switching to {c}: OLM v0 took it to the head in OLD ({}) but stops short of {head} in NEW ({}): {}",
                    from.join(", "),
                    ov.path_text(x, &before),
                    nv.path_text(x, &after),
                    nv.blocking(x, version, &after)
                ),
            )
        } else {
            if nv.edge_from(x, version).is_some() {
                continue;
            }
            finding(
                Rule::SwitchLost,
                pkg,
                format!(
                    "users on {x}{shown} in channel {} could switch to {c} in OLD ({y} {kind} {x}); in NEW no entry of {c} replaces it, skips it or has a skipRange containing its version",
                    from.join(", ")
                ),
            )
        };
        let mut f = f.channel(c).bundle(x).at(&new_at);
        f.old_location = old_at;
        findings.push(f);
    }
}

/// R4: entries of NEW's channel with no edge to any entry, other than the
/// target, that are new in the channel or had an edge in OLD. Returns their names.
fn new_dead_ends<'m>(
    pkg: &str,
    c: &str,
    ov: Option<&View<'_>>,
    nv: &View<'m>,
    findings: &mut Vec<Diagnostic>,
) -> Vec<&'m str> {
    let mut out = Vec::new();
    let Some(target) = nv.target_name() else {
        return out;
    };
    for x in nv.entry_names() {
        if x == target || !nv.out_edges(x).is_empty() {
            continue;
        }
        let qualifies = match ov {
            None => true,
            Some(ov) => ov.entry(x).is_none() || !ov.out_edges(x).is_empty(),
        };
        if !qualifies {
            continue;
        }
        let had = ov.is_some_and(|ov| ov.entry(x).is_some());
        let mut f = finding(
                Rule::NewDeadEnd,
            pkg,
            format!(
                "{x} {} no edge to any entry of the channel and is not its head {target}: users on it cannot upgrade",
                if had { "had an upgrade edge in OLD and now has" } else { "is new and has" }
            ),
        )
        .channel(c)
        .bundle(x);
        f.location = nv.graph.channel().entry(x).map(|e| e.location.clone());
        if let Some(ov) = ov {
            f.old_location = ov.graph.channel().entry(x).map(|e| e.location.clone());
        }
        findings.push(f);
        out.push(x);
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn olm_paths(
    pkg: &str,
    c: &str,
    op: &Package,
    np: &Package,
    ov: &View<'_>,
    nv: &View<'_>,
    flagged: &BTreeSet<&str>,
    findings: &mut Vec<Diagnostic>,
) {
    // Not evaluated on a channel with several heads: OLM cannot serve it.
    if nv.several_heads() || ov.several_heads() {
        return;
    }
    let same_target = ov.target_name().is_some() && ov.target_name() == nv.target_name();
    let results: Vec<Diagnostic> = ov
        .entry_names()
        .collect::<Vec<_>>()
        .into_par_iter()
        .filter(|x| !flagged.contains(x))
        .filter_map(|x| {
            let old_version = op.bundle(x).and_then(|b| b.version.as_ref());
            let before = ov.olm_path(x, old_version)?;
            if !before.reaches_head() {
                return None;
            }
            // An installed CSV keeps its version after its bundle is gone.
            let version = np
                .bundle(x)
                .and_then(|b| b.version.as_ref())
                .or(old_version);
            let after = nv.olm_path(x, version)?;
            let old_at = ov.graph.channel().entry(x).map(|e| e.location.clone());
            let new_at = nv.graph.channel().entry(x).map(|e| e.location.clone());
            if !after.reaches_head() {
                let mut f = finding(
                Rule::OlmStuck,
                    pkg,
                    format!(
                        "OLM v0 took {x} to the head in OLD ({}) but stops short of {} in NEW ({}): {}",
                        ov.path_text(x, &before),
                        nv.target_name().unwrap_or("(none)"),
                        nv.path_text(x, &after),
                        nv.blocking(x, version, &after)
                    ),
                )
                .channel(c)
                .bundle(x);
                f.old_location = old_at;
                f.location = new_at.or_else(|| after.steps.last().map(|s| s.edge.location().clone()));
                return Some(f);
            }
            if same_target && after.steps.len() > before.steps.len() {
                let mut f = finding(
                Rule::PathLonger,
                    pkg,
                    format!(
                        "OLM v0 takes {} step(s) from {x} to the head in NEW ({}), {} in OLD ({})",
                        after.steps.len(),
                        nv.path_text(x, &after),
                        before.steps.len(),
                        ov.path_text(x, &before)
                    ),
                )
                .channel(c)
                .bundle(x);
                f.old_location = old_at;
                f.location = new_at;
                return Some(f);
            }
            None
        })
        .collect();
    findings.extend(results);
}
