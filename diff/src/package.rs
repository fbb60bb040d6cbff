//! The changes and findings of one package: package, default channel,
//! deprecations, bundles, then each channel in both catalogs.

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::bundle;
use super::change::{Change, ChangeKind};
use super::channel::View;
use super::finding::{Finding, Rule};
use super::PackageDiff;
use olmsat_catalog::model::{Channel, Package};
use olmsat_versions::version;

/// Compare the OLD and NEW versions of package `name`; `r0` are NEW's
/// validation errors about it.
pub(crate) fn compare(
    name: &str,
    old: Option<&Package>,
    new: Option<&Package>,
    r0: Vec<Finding>,
) -> PackageDiff {
    let mut changes = Vec::new();
    let mut findings = r0;
    match (old, new) {
        (Some(o), None) => {
            changes.push(Change::new(ChangeKind::PackageRemoved));
            // Subsumes every other finding for the package.
            findings.push(
                Finding::new(
                    Rule::PackageRemoved,
                    name,
                    format!(
                        "package {name} with {} channel(s) and {} bundle(s) was removed: its subscriptions can no longer resolve or upgrade",
                        o.channels().len(),
                        o.bundles().len()
                    ),
                )
                .old_at(&o.location),
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
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
    PackageDiff {
        name: name.to_owned(),
        changes,
        findings,
    }
}

fn both(
    name: &str,
    o: &Package,
    n: &Package,
    changes: &mut Vec<Change>,
    findings: &mut Vec<Finding>,
) {
    if o.default_channel != n.default_channel {
        changes.push(
            Change::new(ChangeKind::DefaultChannelChanged)
                .old(&o.default_channel)
                .new_value(&n.default_channel),
        );
        findings.push(
            Finding::new(
                Rule::DefaultChannelChanged,
                name,
                format!(
                    "default channel changed from {} to {}: new subscriptions without a channel get {}",
                    o.default_channel, n.default_channel, n.default_channel
                ),
            )
            .channel(&n.default_channel)
            .old_at(&o.location)
            .new_at(&n.location),
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
    let changed: Vec<Finding> = o
        .bundles()
        .par_iter()
        .filter_map(|ob| {
            let nb = n.bundle(&ob.name)?;
            let what = bundle::difference(ob, nb)?;
            Some(
                Finding::new(
                    Rule::BundleChanged,
                    name,
                    format!("{} changed: {what}", ob.name),
                )
                .bundle(&ob.name)
                .old_at(&ob.location)
                .new_at(&nb.location),
            )
        })
        .collect();
    findings.extend(changed);
    // Channels.
    for oc in o.channels() {
        if n.channel(&oc.name).is_none() {
            changes.push(Change::new(ChangeKind::ChannelRemoved).channel(&oc.name));
            if !oc.entries().is_empty() {
                findings.push(
                    Finding::new(
                        Rule::ChannelRemoved,
                        name,
                        format!(
                            "channel {} with {} {} was removed: subscriptions to it can no longer upgrade",
                            oc.name,
                            oc.entries().len(),
                            if oc.entries().len() == 1 { "entry" } else { "entries" }
                        ),
                    )
                    .channel(&oc.name)
                    .old_at(&oc.location),
                );
            }
        }
    }
    for nc in n.channels() {
        match o.channel(&nc.name) {
            None => {
                changes.push(Change::new(ChangeKind::ChannelAdded).channel(&nc.name));
                let view = View::new(n, nc);
                new_dead_ends(name, &nc.name, None, &view, findings);
            }
            Some(oc) => channel(name, o, oc, n, nc, changes, findings),
        }
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

fn channel(
    pkg: &str,
    op: &Package,
    oc: &Channel,
    np: &Package,
    nc: &Channel,
    changes: &mut Vec<Change>,
    findings: &mut Vec<Finding>,
) {
    let c = nc.name.as_str();
    let ov = View::new(op, oc);
    let nv = View::new(np, nc);
    // Head.
    if ov.target_name() != nv.target_name() {
        let mut ch = Change::new(ChangeKind::HeadChanged).channel(c);
        if let Some(t) = ov.target {
            ch = ch.old(with_version(&ov, t));
        }
        if let Some(t) = nv.target {
            ch = ch.new_value(with_version(&nv, t));
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
            let mut f = Finding::new(
                Rule::Stranded,
                pkg,
                format!(
                    "{x} reached the head {} in OLD; in NEW no edge path leads from it to {target}",
                    ov.target_name().unwrap_or("(none)")
                ),
            )
            .channel(c)
            .bundle(x);
            f.old = old_loc(x);
            f.new = new_loc(x);
            findings.push(f);
        }
    }
    // R2 removed entries.
    for &x in old_entries.difference(&new_entries) {
        let v = old_version(x);
        let shown = v.map_or(String::new(), |v| format!(" ({v})"));
        let mut f = match nv.edge_from(x, v) {
            Some((y, kind)) => {
                let mut f = Finding::new(
                    Rule::RemovedCovered,
                    pkg,
                    format!(
                        "{x}{shown} was removed from the channel; users on it upgrade to {} ({kind} {x})",
                        nv.name(y)
                    ),
                );
                f.new = nv
                    .graph
                    .channel()
                    .entry(nv.name(y))
                    .map(|e| e.location.clone());
                f
            }
            None => {
                flagged.insert(x);
                Finding::new(
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
        f.old = old_loc(x);
        findings.push(f);
    }
    // R4 new dead ends.
    for x in new_dead_ends(pkg, c, Some(&ov), &nv, findings) {
        flagged.insert(x);
    }
    // R5 head regression.
    if let (Some(ot), Some(nt)) = (ov.target, nv.target) {
        if let (Some(a), Some(b)) = (ov.version(ot), nv.version(nt)) {
            if version::compare(b, a).is_lt() {
                let mut f = Finding::new(
                    Rule::HeadRegression,
                    pkg,
                    format!(
                        "the head went back from {} to {}",
                        with_version(&ov, ot),
                        with_version(&nv, nt)
                    ),
                )
                .channel(c)
                .bundle(nv.name(nt));
                f.old = old_loc(ov.name(ot));
                f.new = new_loc(nv.name(nt));
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
                let mut f = Finding::new(
                    Rule::EdgeShrink,
                    pkg,
                    format!("edge {x} -> {y} ({kind}) was removed; {x} still reaches {target}"),
                )
                .channel(c)
                .bundle(x);
                f.old = old_loc(y);
                f.new = new_loc(x);
                findings.push(f);
            }
        }
    }
    // R8 / R9: OLM v0's real path.
    olm_paths(pkg, c, op, np, &ov, &nv, &flagged, findings);
}

/// R4: entries of NEW's channel with no edge to any entry, other than the
/// target, that are new in the channel or had an edge in OLD. Returns their names.
fn new_dead_ends<'m>(
    pkg: &str,
    c: &str,
    ov: Option<&View<'_>>,
    nv: &View<'m>,
    findings: &mut Vec<Finding>,
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
        let mut f = Finding::new(
            Rule::NewDeadEnd,
            pkg,
            format!(
                "{x} {} no edge to any entry of the channel and is not its head {target}: users on it cannot upgrade",
                if had { "had an upgrade edge in OLD and now has" } else { "is new and has" }
            ),
        )
        .channel(c)
        .bundle(x);
        f.new = nv.graph.channel().entry(x).map(|e| e.location.clone());
        if let Some(ov) = ov {
            f.old = ov.graph.channel().entry(x).map(|e| e.location.clone());
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
    findings: &mut Vec<Finding>,
) {
    // Not evaluated on a channel with several heads: OLM cannot serve it.
    if nv.several_heads() || ov.several_heads() {
        return;
    }
    let same_target = ov.target_name().is_some() && ov.target_name() == nv.target_name();
    let results: Vec<Finding> = ov
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
                let mut f = Finding::new(
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
                f.old = old_at;
                f.new = new_at.or_else(|| after.steps.last().map(|s| s.edge.location().clone()));
                return Some(f);
            }
            if same_target && after.steps.len() > before.steps.len() {
                let mut f = Finding::new(
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
                f.old = old_at;
                f.new = new_at;
                return Some(f);
            }
            None
        })
        .collect();
    findings.extend(results);
}
