//! Queries on hand-made channels.

use super::*;
use crate::upgrade::fixture::{package, package_with, stable};
use olmsat_catalog::model::{Deprecations, Package};

fn graph(p: &Package) -> ChannelGraph<'_> {
    ChannelGraph::build(p, stable(p))
}

fn start(g: &ChannelGraph<'_>, text: &str) -> Start {
    match g.resolve_start(text) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn node(g: &ChannelGraph<'_>, name: &str) -> NodeIndex {
    match g.node_index(name) {
        Some(n) => n,
        None => panic!("no node {name}"),
    }
}

/// `from->to kind` per step.
fn show(g: &ChannelGraph<'_>, s: &Start, steps: &[Step<'_>]) -> Vec<String> {
    steps
        .iter()
        .map(|st| {
            let from = st
                .from
                .map_or_else(|| s.label(), |f| g.node(f).name.to_owned());
            format!("{from}->{} {}", g.node(st.to).name, st.edge.kind)
        })
        .collect()
}

fn names(g: &ChannelGraph<'_>, nodes: &[NodeIndex]) -> Vec<String> {
    nodes.iter().map(|n| g.node(*n).name.to_owned()).collect()
}

fn successors(g: &ChannelGraph<'_>, from: &str) -> Vec<String> {
    let s = start(g, from);
    let steps = g.successors(&s);
    steps
        .iter()
        .map(|st| g.node(st.to).name.to_owned())
        .collect()
}

fn olm(g: &ChannelGraph<'_>, from: &str) -> (Vec<String>, OlmEnd) {
    let s = start(g, from);
    let p = g.olm_path(&s);
    (show(g, &s, &p.steps), p.end)
}

fn shortest(g: &ChannelGraph<'_>, from: &str, to: &str) -> Option<Vec<String>> {
    let s = start(g, from);
    g.shortest_path(&s, node(g, to)).map(|p| show(g, &s, &p))
}

#[test]
fn replaces_chain() {
    let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b", "d@1.3.0<c"]);
    let g = graph(&p);
    assert_eq!(successors(&g, "a"), vec!["b"]);
    assert_eq!(
        olm(&g, "a"),
        (
            vec![
                "a->b replaces".to_owned(),
                "b->c replaces".to_owned(),
                "c->d replaces".to_owned()
            ],
            OlmEnd::Head
        )
    );
    assert_eq!(olm(&g, "d"), (vec![], OlmEnd::Head));
    assert_eq!(
        shortest(&g, "a", "d").map(|p| p.len()),
        Some(3),
        "no shortcut in a plain chain"
    );
    let hops = g.hops_to_head();
    assert_eq!(hops[node(&g, "a").index()], Some(3));
    assert_eq!(hops[node(&g, "d").index()], Some(0));
    assert!(g.dead_ends().is_empty());
    assert_eq!(
        names(&g, &g.reachable_from(&start(&g, "b"))),
        vec!["c", "d"]
    );
    // Provenance: the declaring entry's place.
    let s = start(&g, "a");
    let steps = g.successors(&s);
    assert_eq!(
        steps.first().map(|st| st.edge.location().to_string()),
        Some("stable.yaml:2".to_owned())
    );
}

#[test]
fn skips_fan() {
    // d replaces c and skips a and b: a and b are never candidates.
    let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b", "d@1.3.0<c|a,b"]);
    let g = graph(&p);
    assert_eq!(
        successors(&g, "a"),
        vec!["d"],
        "b replaces a but is skipped"
    );
    assert_eq!(successors(&g, "b"), vec!["d", "c"], "head first");
    assert_eq!(olm(&g, "a"), (vec!["a->d skips".to_owned()], OlmEnd::Head));
    assert_eq!(olm(&g, "b"), (vec!["b->d skips".to_owned()], OlmEnd::Head));
    assert_eq!(shortest(&g, "a", "d"), Some(vec!["a->d skips".to_owned()]));
}

#[test]
fn skip_range_only_channel() {
    // opm sees three heads: OLM v0 refuses the channel, the graph has paths.
    let p = package(&["a@1.0.0", "b@1.1.0;<1.1.0", "c@1.2.0;<1.2.0"]);
    let g = graph(&p);
    assert!(g.head().is_none());
    assert_eq!(olm(&g, "a"), (vec![], OlmEnd::NoHead));
    assert!(g.successors(&start(&g, "a")).is_empty());
    assert_eq!(
        shortest(&g, "a", "c"),
        Some(vec!["a->c skipRange".to_owned()])
    );
    assert_eq!(
        g.dead_ends().len(),
        3,
        "without a head every entry is a dead end"
    );
}

#[test]
fn skip_range_jumps_to_the_head() {
    let p = package(&[
        "a@1.0.0;<1.0.0",
        "b@1.1.0<a;<1.1.0",
        "c@1.2.0<b;<1.2.0",
        "d@1.3.0<c;<1.3.0",
    ]);
    let g = graph(&p);
    assert_eq!(successors(&g, "a"), vec!["d", "c", "b"]);
    assert_eq!(
        olm(&g, "a"),
        (vec!["a->d skipRange".to_owned()], OlmEnd::Head)
    );
    // Both edges join a and b: replaces is reported.
    assert_eq!(
        shortest(&g, "a", "b"),
        Some(vec!["a->b replaces".to_owned()])
    );
}

#[test]
fn first_on_the_chain_not_the_highest_version() {
    // From y, x (3.0.0, replaces y) and h (2.0.0, skipRange) are candidates;
    // OLM takes h, first in channel order, though x has the higher version.
    let p = package(&["y@1.0.0", "x@3.0.0<y", "h@2.0.0<x;<1.5.0"]);
    let g = graph(&p);
    assert_eq!(successors(&g, "y"), vec!["h", "x"]);
    assert_eq!(
        olm(&g, "y"),
        (vec!["y->h skipRange".to_owned()], OlmEnd::Head)
    );
}

#[test]
fn off_chain_entries_are_never_offered() {
    // c skips b, so the chain is just c; a replaces x but is off the chain
    // (stranded): OLM never offers it, although the graph has x -> a -> b -> c.
    let p = package(&["x@1.0.0", "a@1.1.0<x", "b@1.2.0<a", "c@1.3.0<b|b"]);
    let g = graph(&p);
    assert_eq!(
        g.chain().error.as_ref().map(ToString::to_string).as_deref(),
        Some("channel contains one or more stranded bundles: a, x")
    );
    assert!(successors(&g, "x").is_empty());
    assert_eq!(g.not_offered(node(&g, "a")), Some(NotOffered::OffChain));
    assert_eq!(olm(&g, "x"), (vec![], OlmEnd::DeadEnd));
    assert_eq!(shortest(&g, "x", "c").map(|p| p.len()), Some(3));
    assert!(
        g.dead_ends().is_empty(),
        "every entry reaches the head in the graph"
    );
}

#[test]
fn entries_that_reach_nothing_are_dead_ends() {
    // a and b replace each other: h is the only head, and nothing leads from
    // the a/b loop to it.
    let p = package(&["h@2.0.0", "a@1.0.0<b", "b@1.1.0<a"]);
    let g = graph(&p);
    assert_eq!(g.head(), Some(node(&g, "h")));
    assert_eq!(names(&g, &g.dead_ends()), vec!["a", "b"]);
    assert_eq!(g.hops_to_head()[node(&g, "a").index()], None);
    assert_eq!(olm(&g, "a"), (vec![], OlmEnd::DeadEnd));
    assert!(shortest(&g, "a", "h").is_none());
}

#[test]
fn stuck_below_the_head_although_a_path_exists() {
    // c replaces and skips b: b is never a candidate, so from a (whose only
    // successor is b) OLM is stuck, while the graph has a -> b -> c.
    let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b|b"]);
    let g = graph(&p);
    assert_eq!(olm(&g, "a"), (vec![], OlmEnd::DeadEnd));
    let blocked = g.graph_successors(&start(&g, "a"));
    assert_eq!(blocked.len(), 1);
    assert_eq!(
        blocked.first().and_then(|st| g.not_offered(st.to)),
        Some(NotOffered::Skipped(vec!["c"]))
    );
    assert_eq!(g.not_offered(node(&g, "c")), None);
    assert_eq!(
        shortest(&g, "a", "c"),
        Some(vec!["a->b replaces".to_owned(), "b->c replaces".to_owned()])
    );
}

#[test]
fn legacy_deprecated_bundles_are_never_candidates() {
    let p = package(&["a@1.0.0", "^b@1.1.0<a", "c@1.2.0<b;<1.2.0"]);
    let g = graph(&p);
    assert_eq!(successors(&g, "a"), vec!["c"]);
    assert_eq!(
        g.not_offered(node(&g, "b")).map(|r| r.to_string()),
        Some("carries olm.deprecated".to_owned())
    );
    assert_eq!(
        olm(&g, "a"),
        (vec!["a->c skipRange".to_owned()], OlmEnd::Head)
    );
}

#[test]
fn loops_are_detected() {
    // h carries olm.deprecated, so from m the only candidate is l (its range
    // contains m's version), and from l it is m again.
    let p = package(&["l@1.0.0;>=2.0.0 <2.1.0", "m@2.0.0<l", "^h@3.0.0<m"]);
    let g = graph(&p);
    let (steps, end) = olm(&g, "m");
    assert_eq!(steps, vec!["m->l skipRange", "l->m replaces"]);
    assert_eq!(end, OlmEnd::Loop(node(&g, "m")));
}

#[test]
fn replaces_cycles_do_not_trap_path_searches() {
    let p = package(&["h<b", "b<c", "c<b"]);
    let g = graph(&p);
    assert!(matches!(
        g.chain().error,
        Some(olmsat_catalog::chain::ChainError::Cycle(_))
    ));
    assert_eq!(
        shortest(&g, "c", "h"),
        Some(vec!["c->b replaces".to_owned(), "b->h replaces".to_owned()])
    );
    let s = start(&g, "c");
    let all = g.all_paths(&s, node(&g, "h"), 10);
    assert!(all.complete);
    assert_eq!(all.paths.len(), 1);
    assert_eq!(names(&g, &g.reachable_from(&s)), vec!["h", "b"]);
}

#[test]
fn external_nodes_start_paths() {
    // b replaces a pruned bundle, c skips one of another channel.
    let p = package(&["b@1.1.0<gone", "c@1.2.0<b|old", "!old@1.0.0"]);
    let g = graph(&p);
    assert_eq!(
        olm(&g, "gone"),
        (
            vec!["gone->b replaces".to_owned(), "b->c replaces".to_owned()],
            OlmEnd::Head
        )
    );
    assert_eq!(
        olm(&g, "old"),
        (vec!["old->c skips".to_owned()], OlmEnd::Head)
    );
    assert!(g.node(node(&g, "gone")).is_external());
    // External nodes are not entries, so never dead ends.
    assert!(g.dead_ends().is_empty());
}

#[test]
fn pruned_versions_match_ranges() {
    let p = package(&[
        "b@1.1.0;>=1.0.0 <1.1.0",
        "c@1.2.0<b;>=1.0.0 <1.2.0",
        "d@1.3.0<c;>=1.2.0 <1.3.0",
    ]);
    let g = graph(&p);
    // 1.0.3 was installed and pruned: c's range contains it (b's too; c is first).
    let (steps, end) = olm(&g, "1.0.3");
    assert_eq!(steps, vec!["1.0.3->c skipRange", "c->d replaces"]);
    assert_eq!(end, OlmEnd::Head);
    // A prerelease of 1.2.0 is below 1.2.0, so c's range contains it too.
    assert_eq!(successors(&g, "1.2.0-rc.1"), vec!["c"]);
    // A version no range contains has nowhere to go.
    assert_eq!(olm(&g, "0.9.0"), (vec![], OlmEnd::DeadEnd));
    let s = start(&g, "0.9.0");
    assert!(g.shortest_path(&s, node(&g, "d")).is_none());
    assert!(g.reachable_from(&s).is_empty());
    // d's range starts at 1.2.0, so the shortest path has two hops too.
    assert_eq!(
        shortest(&g, "1.0.3", "d"),
        Some(vec![
            "1.0.3->c skipRange".to_owned(),
            "c->d replaces".to_owned()
        ])
    );
}

#[test]
fn olm_path_to_a_target_stops_there() {
    let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b"]);
    let g = graph(&p);
    let s = start(&g, "a");
    let path = g.olm_path_to(&s, node(&g, "b"));
    assert_eq!(show(&g, &s, &path.steps), vec!["a->b replaces"]);
    assert_eq!(path.end, OlmEnd::Target);
    assert!(!path.reaches_head());
    // A target OLM never passes: the walk goes on to the head.
    let path = g.olm_path_to(&s, node(&g, "a"));
    assert_eq!(path.end, OlmEnd::Target);
    assert!(path.steps.is_empty());
}

#[test]
fn all_paths_are_bounded_and_shortest_first() {
    // Every entry's range contains every lower version: 2^3 paths from a to e.
    let p = package(&[
        "a@1.0.0",
        "b@1.1.0<a;<1.1.0",
        "c@1.2.0<b;<1.2.0",
        "d@1.3.0<c;<1.3.0",
        "e@1.4.0<d;<1.4.0",
    ]);
    let g = graph(&p);
    let s = start(&g, "a");
    let e = node(&g, "e");
    let all = g.all_paths(&s, e, 100);
    assert!(all.complete);
    assert_eq!(all.paths.len(), 8);
    assert_eq!(all.paths[0].len(), 1);
    assert_eq!(all.paths[7].len(), 4);
    for p in &all.paths {
        assert_eq!(p.first().and_then(|st| st.from), Some(node(&g, "a")));
        assert_eq!(p.last().map(|st| st.to), Some(e));
        for w in p.windows(2) {
            assert_eq!(Some(w[0].to), w[1].from);
        }
    }
    let some = g.all_paths(&s, e, 3);
    assert!(!some.complete);
    assert_eq!(some.paths.len(), 3);
    let none = g.all_paths(&s, e, 0);
    assert!(!none.complete && none.paths.is_empty());
    // Paths to a node nothing reaches.
    let back = g.all_paths(&start(&g, "e"), node(&g, "a"), 5);
    assert!(back.complete && back.paths.is_empty());
}

#[test]
fn deprecations_are_on_nodes() {
    let mut d = Deprecations::default();
    d.bundles.insert("a".into(), "use b".into());
    let p = package_with(&["a@1.0.0", "^b@1.1.0<a", "c@1.2.0<b"], d);
    let g = graph(&p);
    let a = g.node(node(&g, "a"));
    assert_eq!(a.deprecation, Some("use b"));
    assert!(a.is_deprecated() && !a.legacy_deprecated);
    assert!(g.node(node(&g, "b")).legacy_deprecated);
    assert!(!g.node(node(&g, "c")).is_deprecated());
}

#[test]
fn a_hundred_thousand_entries_in_one_chain() {
    const N: usize = 100_000;
    let specs: Vec<String> = (0..N)
        .map(|i| {
            if i == 0 {
                "e0".to_owned()
            } else {
                format!("e{i}<e{}", i - 1)
            }
        })
        .collect();
    let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
    let p = package(&refs);
    let g = graph(&p);
    let tail = start(&g, "e0");
    let head = node(&g, &format!("e{}", N - 1));
    assert_eq!(g.head(), Some(head));
    let path = g.olm_path(&tail);
    assert_eq!((path.steps.len(), path.end), (N - 1, OlmEnd::Head));
    assert_eq!(g.shortest_path(&tail, head).map(|p| p.len()), Some(N - 1));
    let all = g.all_paths(&tail, head, 2);
    assert_eq!((all.paths.len(), all.complete), (1, true));
    assert_eq!(g.reachable_from(&tail).len(), N - 1);
    assert_eq!(g.hops_to_head()[0], Some(N - 1));
    assert!(g.dead_ends().is_empty());
}
