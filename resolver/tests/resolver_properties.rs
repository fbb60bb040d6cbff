//! Property tests of resolution on random small catalogs, judged by an independent
//! model of OLM's rules (not the encoder): one bundle per subscribed package from
//! its channel, every requirement of every chosen bundle met by a chosen bundle, at
//! most one bundle per package and one provider per API. A resolved answer must
//! pass; an unsatisfiable one is confirmed by trying every set of bundles.
//! Some bundles carry the legacy `olm.deprecated` property: never chosen, and
//! named in OLM's message by their full identifier.

use olmsat_catalog::load::load_bytes;
use olmsat_catalog::model::Model;
use olmsat_resolver::cluster::{ClusterState, Subscription};
use olmsat_resolver::resolve::{resolve, CatalogInput, Input, Options, Outcome};
use proptest::prelude::*;
use serde_json::json;

#[derive(Debug, Clone)]
struct B {
    pkg: usize,
    idx: usize,
    provides: Vec<usize>,
    requires: Vec<usize>,
    deprecated: bool,
}

fn name(b: &B) -> String {
    format!("p{}.v{}.0.0", b.pkg, b.idx + 1)
}

fn catalog_text(pkgs: usize, bundles: &[B]) -> String {
    let mut out = String::new();
    for p in 0..pkgs {
        out.push_str(
            &json!({"schema": "olm.package", "name": format!("p{p}"), "defaultChannel": "stable"})
                .to_string(),
        );
        let mut entries = Vec::new();
        let mut prev: Option<String> = None;
        for b in bundles.iter().filter(|b| b.pkg == p) {
            let mut e = json!({"name": name(b)});
            if let Some(r) = &prev {
                e["replaces"] = json!(r);
            }
            prev = Some(name(b));
            entries.push(e);
        }
        out.push_str(&json!({"schema": "olm.channel", "name": "stable", "package": format!("p{p}"), "entries": entries}).to_string());
        for b in bundles.iter().filter(|b| b.pkg == p) {
            let mut props = vec![
                json!({"type": "olm.package", "value": {"packageName": format!("p{p}"), "version": format!("{}.0.0", b.idx + 1)}}),
            ];
            for g in &b.provides {
                props.push(json!({"type": "olm.gvk", "value": {"group": "g", "version": "v1", "kind": format!("K{g}")}}));
            }
            for g in &b.requires {
                props.push(json!({"type": "olm.gvk.required", "value": {"group": "g", "version": "v1", "kind": format!("K{g}")}}));
            }
            if b.deprecated {
                props.push(json!({"type": "olm.deprecated", "value": {}}));
            }
            out.push_str(&json!({"schema": "olm.bundle", "name": name(b), "package": format!("p{p}"), "image": "quay.io/x/y:1", "properties": props}).to_string());
        }
    }
    out
}

/// The independent model: is `chosen` (indices into `bundles`) a valid install set?
fn valid(bundles: &[B], subs: &[usize], chosen: &[usize]) -> bool {
    let pick = |i: &usize| &bundles[*i];
    if chosen.iter().any(|i| pick(i).deprecated) {
        return false;
    }
    for &s in subs {
        if chosen.iter().filter(|i| pick(i).pkg == s).count() != 1 {
            return false;
        }
    }
    let mut pkgs: Vec<usize> = chosen.iter().map(|i| pick(i).pkg).collect();
    pkgs.sort_unstable();
    if pkgs.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let mut gvks: Vec<usize> = chosen
        .iter()
        .flat_map(|i| pick(i).provides.clone())
        .collect();
    gvks.sort_unstable();
    if gvks.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    chosen.iter().all(|i| {
        pick(i)
            .requires
            .iter()
            .all(|g| chosen.iter().any(|j| pick(j).provides.contains(g)))
    })
}

fn arb_world() -> impl Strategy<Value = (usize, Vec<B>, Vec<usize>)> {
    (1usize..4)
        .prop_flat_map(|pkgs| {
            let bundle = (
                0..pkgs,
                prop::collection::vec(0usize..3, 0..2),
                prop::collection::vec(0usize..3, 0..2),
                prop::bool::weighted(0.2),
            );
            (
                Just(pkgs),
                prop::collection::vec(bundle, 1..7),
                prop::collection::vec(0..pkgs, 1..3),
            )
        })
        .prop_map(|(pkgs, raw, mut subs)| {
            let mut counts = vec![0usize; pkgs];
            let bundles = raw
                .into_iter()
                .map(|(pkg, provides, requires, deprecated)| {
                    let idx = counts[pkg];
                    counts[pkg] += 1;
                    B {
                        pkg,
                        idx,
                        provides,
                        requires,
                        deprecated,
                    }
                })
                .collect::<Vec<_>>();
            subs.sort_unstable();
            subs.dedup();
            subs.retain(|s| counts[*s] > 0);
            (pkgs, bundles, subs)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn resolutions_obey_olm_rules((pkgs, bundles, subs) in arb_world()) {
        prop_assume!(!subs.is_empty());
        let loaded = load_bytes("random.json", catalog_text(pkgs, &bundles).as_bytes());
        prop_assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let (model, _) = Model::build(loaded.config);
        let cluster = ClusterState {
            subscriptions: subs
                .iter()
                .map(|s| Subscription {
                    name: format!("p{s}"),
                    namespace: "ns".into(),
                    package: format!("p{s}"),
                    channel: "stable".into(),
                    source: "cat".into(),
                    source_namespace: String::new(),
                    starting_csv: String::new(),
                    installed_csv: String::new(),
                    manual_approval: false,
                    location: olmsat_encoding::location::Location::new(std::sync::Arc::from("t"), 0),
                })
                .collect(),
            ..ClusterState::default()
        };
        let input = Input { catalogs: vec![CatalogInput { name: "cat".into(), model }], cluster, global_namespace: "olm".into(), allow_missing_catalogs: false };
        let r = resolve(&input, "ns", Options::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        match r.outcome {
            Outcome::Resolved { operators, .. } => {
                let chosen: Vec<usize> = operators
                    .iter()
                    .map(|o| bundles.iter().position(|b| name(b) == o.name).expect("a catalog bundle"))
                    .collect();
                prop_assert!(valid(&bundles, &subs, &chosen), "invalid answer {:?}", operators);
            }
            Outcome::Unsatisfiable { constraints, .. } => {
                prop_assert!(!constraints.is_empty());
                // OLM names a deprecated bundle by its identifier.
                for c in constraints.iter().filter(|c| c.ends_with(" is deprecated")) {
                    let id = c.trim_start_matches("bundle ").trim_end_matches(" is deprecated");
                    let bundle = id.strip_prefix("cat/ns/stable/");
                    prop_assert!(
                        bundle.is_some_and(|n| bundles.iter().any(|b| b.deprecated && name(b) == n)),
                        "{c:?} does not name a deprecated bundle by its identifier"
                    );
                }
                let n = bundles.len();
                for bits in 0u32..(1 << n) {
                    let chosen: Vec<usize> = (0..n).filter(|i| bits & (1 << i) != 0).collect();
                    prop_assert!(!valid(&bundles, &subs, &chosen), "unsatisfiable, yet {:?} is valid ({:?})", chosen, constraints);
                }
            }
        }
    }
}
