//! Properties of the queries on random channels, checked against a direct
//! transcription of OLM v0's choice rule over the raw entries.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::upgrade::fixture::{package, stable};
use olmsat_catalog::model::{Channel, Package};
use olmsat_versions::range::Range;

const VERSIONS: &[&str] = &[
    "1.0.0",
    "1.0.1",
    "1.0.1-1",
    "1.1.0-rc.1",
    "1.1.0",
    "1.2.0",
    "2.0.0",
];
const RANGES: &[&str] = &[
    "<1.1.0",
    ">=1.0.0 <1.2.0",
    "<2.0.0",
    ">=1.1.0-0",
    "1.0.x",
    "<1.0.1",
    ">=1.0.1-1 <1.0.1",
];

#[derive(Debug, Clone)]
struct EntrySpec {
    version: Option<usize>,
    replaces: Option<usize>,
    skips: Vec<usize>,
    range: Option<usize>,
    legacy: bool,
}

fn entry_spec(n: usize) -> impl Strategy<Value = EntrySpec> {
    (
        proptest::option::weighted(0.9, 0..VERSIONS.len()),
        proptest::option::weighted(0.7, 0..=n),
        proptest::collection::vec(0..=n, 0..=2),
        proptest::option::weighted(0.4, 0..RANGES.len()),
        proptest::bool::weighted(0.1),
    )
        .prop_map(|(version, replaces, skips, range, legacy)| EntrySpec {
            version,
            replaces,
            skips,
            range,
            legacy,
        })
}

fn channel_specs() -> impl Strategy<Value = Vec<String>> {
    (1usize..=7)
        .prop_flat_map(|n| proptest::collection::vec(entry_spec(n), n))
        .prop_map(|specs| {
            let n = specs.len();
            let name = |i: usize| {
                if i == n {
                    "gone".to_owned()
                } else {
                    format!("e{i}")
                }
            };
            specs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut out = String::new();
                    if s.legacy {
                        out.push('^');
                    }
                    out.push_str(&name(i));
                    if let Some(v) = s.version {
                        out.push('@');
                        out.push_str(VERSIONS[v]);
                    }
                    if let Some(r) = s.replaces {
                        out.push('<');
                        out.push_str(&name(r));
                    }
                    if !s.skips.is_empty() {
                        out.push('|');
                        let skips: Vec<String> = s.skips.iter().map(|k| name(*k)).collect();
                        out.push_str(&skips.join(","));
                    }
                    if let Some(r) = s.range {
                        out.push(';');
                        out.push_str(RANGES[r]);
                    }
                    out
                })
                .collect()
        })
}

/// OLM v0's rule written directly over the entries: the next bundle is the
/// first entry along the head's replaces chain that is not skipped, not the
/// current bundle, not `olm.deprecated`, and replaces, skips or range-contains
/// the current bundle. Returns the names visited and whether the head was reached.
fn oracle(
    p: &Package,
    ch: &Channel,
    name: Option<&str>,
    version: Option<&semver::Version>,
) -> (Vec<String>, bool) {
    let Some(head) = ch.chain().head else {
        return (Vec::new(), false);
    };
    let head_name = ch.entries()[head].name.as_str();
    if name == Some(head_name) {
        return (Vec::new(), true);
    }
    let mut cur_name: Option<String> = name.map(str::to_owned);
    let mut cur_version: Option<semver::Version> = version.cloned();
    let mut visited: BTreeSet<String> = cur_name.iter().cloned().collect();
    let mut out = Vec::new();
    loop {
        let next = ch
            .chain()
            .chain
            .iter()
            .map(|&i| &ch.entries()[i])
            .find(|e| {
                let legacy = p.bundle(&e.name).is_some_and(|b| b.legacy_deprecated());
                let by_name = cur_name.as_deref().is_some_and(|c| {
                    e.replaces.as_deref() == Some(c) || e.skips.iter().any(|s| s == c)
                });
                let by_range = match (&e.skip_range, &cur_version) {
                    (Some(r), Some(v)) => Range::parse(r).is_ok_and(|r| r.matches(v)),
                    _ => false,
                };
                !ch.chain().skipped.contains(&e.name)
                    && cur_name.as_deref() != Some(e.name.as_str())
                    && !legacy
                    && (by_name || by_range)
            });
        let Some(e) = next else {
            return (out, false);
        };
        out.push(e.name.clone());
        if e.name == head_name {
            return (out, true);
        }
        if !visited.insert(e.name.clone()) {
            return (out, false);
        }
        cur_name = Some(e.name.clone());
        cur_version = p.bundle(&e.name).and_then(|b| b.version.clone());
    }
}

fn check(specs: &[String]) -> Result<(), TestCaseError> {
    let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
    let p = package(&refs);
    let ch = stable(&p);
    let g = ChannelGraph::build(&p, ch);
    let mut starts: Vec<Start> = g.node_indices().map(|n| Start::node(&g, n)).collect();
    starts.push(Start::version(semver::Version::new(1, 0, 5)));
    starts.push(Start::version(
        semver::Version::parse("1.1.0-alpha").unwrap_or(semver::Version::new(0, 0, 0)),
    ));
    let hops = g.hops_to_head();
    for s in &starts {
        let path = g.olm_path(s);
        // Every step is an edge of the graph (or, from a version, a range match).
        for (i, st) in path.steps.iter().enumerate() {
            prop_assert!(g.olm_candidate(st.to));
            prop_assert_eq!(st.edge.declared_by.name.as_str(), g.node(st.to).name);
            match st.from {
                Some(f) => {
                    let kinds: Vec<EdgeKind> = g
                        .graph()
                        .edges_connecting(f, st.to)
                        .map(|e| e.weight().kind)
                        .collect();
                    prop_assert!(kinds.contains(&st.edge.kind), "step {} is not an edge", i);
                }
                None => {
                    prop_assert_eq!(i, 0);
                    prop_assert_eq!(st.edge.kind, EdgeKind::SkipRange);
                }
            }
        }
        // Same walk as the rule written over the raw entries.
        let (names, reached) = oracle(&p, ch, s.name.as_deref(), s.version.as_ref());
        let walked: Vec<String> = path
            .steps
            .iter()
            .map(|st| g.node(st.to).name.to_owned())
            .collect();
        prop_assert_eq!(&walked, &names);
        prop_assert_eq!(path.reaches_head(), reached);
        // Shortest paths are never longer than OLM's.
        if let Some(head) = g.head() {
            let shortest = g.shortest_path(s, head);
            if path.reaches_head() {
                let len = shortest.as_ref().map(Vec::len);
                prop_assert!(len.is_some_and(|l| l <= path.steps.len()));
            }
            if let Some(n) = s.node {
                prop_assert_eq!(shortest.as_ref().map(Vec::len), hops[n.index()]);
            }
            let all = g.all_paths(s, head, 64);
            if all.complete {
                prop_assert_eq!(all.paths.is_empty(), shortest.is_none());
            }
            if let (true, Some(first), Some(sp)) = (all.complete, all.paths.first(), &shortest) {
                prop_assert_eq!(first.len(), sp.len());
            }
            let reachable = g.reachable_from(s);
            prop_assert_eq!(
                shortest.is_some() && s.node != Some(head),
                reachable.contains(&head)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn olm_paths_follow_edges_and_the_choice_rule(specs in channel_specs()) {
        check(&specs)?;
    }
}
