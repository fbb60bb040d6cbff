//! Property test: requirements that print alike are still different
//! requirements. OLM prints a one-element `not` with the text of its inner
//! predicate, and a one-element `all` or `any` as that predicate too, so
//! random small catalogs here give bundles such look-alike requirements over
//! a few APIs (`olm.gvk.required`, and `olm.constraint` with `gvk`, `not`,
//! `all` and `any`), and each answer is judged by an independent model of
//! OLM's rules: one bundle per subscribed package, at most one per package
//! and one provider per API, and every requirement of every chosen bundle met
//! by a chosen bundle (itself included). A resolved answer must pass; an
//! unsatisfiable one is confirmed by trying every set of bundles.
//!
//! Fixed seed, bounded case count: the same cases run every time.

use olmsat_catalog::load::load_bytes;
use olmsat_catalog::model::Model;
use olmsat_resolver::cluster::{ClusterState, Subscription};
use olmsat_resolver::resolve::{resolve, CatalogInput, Input, Options, Outcome};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{json, Value};

/// A requirement over APIs `K0`, `K1`, ...
#[derive(Debug, Clone)]
enum Req {
    Gvk(usize),
    Not(Vec<Req>),
    All(Vec<Req>),
    Any(Vec<Req>),
}

impl Req {
    /// Whether a bundle providing `provides` meets it.
    fn met_by(&self, provides: &[usize]) -> bool {
        match self {
            Req::Gvk(k) => provides.contains(k),
            Req::Not(rs) => !rs.iter().any(|r| r.met_by(provides)),
            Req::All(rs) => rs.iter().all(|r| r.met_by(provides)),
            Req::Any(rs) => rs.iter().any(|r| r.met_by(provides)),
        }
    }

    /// As an `olm.constraint` value (or a member of a compound's list).
    fn constraint(&self) -> Value {
        let list =
            |rs: &[Req]| json!({"constraints": rs.iter().map(Req::constraint).collect::<Vec<_>>()});
        match self {
            Req::Gvk(k) => json!({"gvk": gvk(*k)}),
            Req::Not(rs) => json!({"failureMessage": "f", "not": list(rs)}),
            Req::All(rs) => json!({"failureMessage": "f", "all": list(rs)}),
            Req::Any(rs) => json!({"failureMessage": "f", "any": list(rs)}),
        }
    }
}

fn gvk(k: usize) -> Value {
    json!({"group": "g", "version": "v1", "kind": format!("K{k}")})
}

#[derive(Debug, Clone)]
struct B {
    pkg: usize,
    idx: usize,
    provides: Vec<usize>,
    /// Each requirement, and whether a plain API one is written as
    /// `olm.gvk.required` (else as an `olm.constraint`).
    requires: Vec<(Req, bool)>,
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
            for k in &b.provides {
                props.push(json!({"type": "olm.gvk", "value": gvk(*k)}));
            }
            for (r, plain) in &b.requires {
                match r {
                    Req::Gvk(k) if *plain => {
                        props.push(json!({"type": "olm.gvk.required", "value": gvk(*k)}));
                    }
                    _ => props.push(json!({"type": "olm.constraint", "value": r.constraint()})),
                }
            }
            out.push_str(&json!({"schema": "olm.bundle", "name": name(b), "package": format!("p{p}"), "image": "quay.io/x/y:1", "properties": props}).to_string());
        }
    }
    out
}

/// The independent model: is `chosen` (indices into `bundles`) a valid install set?
fn valid(bundles: &[B], subs: &[usize], chosen: &[usize]) -> bool {
    let pick = |i: &usize| &bundles[*i];
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
            .all(|(r, _)| chosen.iter().any(|j| r.met_by(&pick(j).provides)))
    })
}

/// Requirements over three APIs, nested at most twice, lists of one or two:
/// the one-element forms print as their inner predicate.
fn arb_req() -> impl Strategy<Value = Req> {
    let leaf = (0usize..3).prop_map(Req::Gvk);
    leaf.prop_recursive(2, 8, 2, |inner| {
        let list = prop::collection::vec(inner, 1..3);
        prop_oneof![
            list.clone().prop_map(Req::Not),
            list.clone().prop_map(Req::All),
            list.prop_map(Req::Any),
        ]
    })
}

fn arb_world() -> impl Strategy<Value = (usize, Vec<B>, Vec<usize>)> {
    (1usize..4)
        .prop_flat_map(|pkgs| {
            let bundle = (
                0..pkgs,
                prop::collection::vec(0usize..3, 0..2),
                prop::collection::vec((arb_req(), any::<bool>()), 0..3),
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
                .map(|(pkg, mut provides, requires)| {
                    let idx = counts[pkg];
                    counts[pkg] += 1;
                    provides.sort_unstable();
                    provides.dedup();
                    B {
                        pkg,
                        idx,
                        provides,
                        requires,
                    }
                })
                .collect::<Vec<_>>();
            subs.sort_unstable();
            subs.dedup();
            subs.retain(|s| counts[*s] > 0);
            (pkgs, bundles, subs)
        })
}

fn check(pkgs: usize, bundles: &[B], subs: &[usize]) -> Result<(), TestCaseError> {
    let loaded = load_bytes("random.json", catalog_text(pkgs, bundles).as_bytes());
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
    let input = Input {
        catalogs: vec![CatalogInput {
            name: "cat".into(),
            model,
        }],
        cluster,
        global_namespace: "olm".into(),
        allow_missing_catalogs: false,
    };
    let r = resolve(&input, "ns", Options::default())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    match r.outcome {
        Outcome::Resolved { operators, .. } => {
            let chosen: Vec<usize> = operators
                .iter()
                .map(|o| {
                    bundles
                        .iter()
                        .position(|b| name(b) == o.name)
                        .expect("a catalog bundle")
                })
                .collect();
            prop_assert!(
                valid(bundles, subs, &chosen),
                "invalid answer {:?}",
                operators
            );
        }
        Outcome::Unsatisfiable { constraints, .. } => {
            prop_assert!(!constraints.is_empty());
            let n = bundles.len();
            for bits in 0u32..(1 << n) {
                let chosen: Vec<usize> = (0..n).filter(|i| bits & (1 << i) != 0).collect();
                prop_assert!(
                    !valid(bundles, subs, &chosen),
                    "unsatisfiable, yet {:?} is valid ({:?})",
                    chosen,
                    constraints
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config {
        cases: 256,
        rng_seed: RngSeed::Fixed(11),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn look_alike_requirements_are_told_apart((pkgs, bundles, subs) in arb_world()) {
        prop_assume!(!subs.is_empty());
        check(pkgs, &bundles, &subs)?;
    }
}

/// The case of the issue: a bundle whose only requirement is `not {gvk X}`,
/// beside a bundle that requires X, with nothing providing X. OLM installs
/// the first (every bundle without X meets the `not`).
#[test]
fn a_not_beside_the_same_plain_requirement() {
    let bundles = vec![
        B {
            pkg: 0,
            idx: 0,
            provides: vec![],
            requires: vec![(Req::Not(vec![Req::Gvk(0)]), false)],
        },
        B {
            pkg: 1,
            idx: 0,
            provides: vec![],
            requires: vec![(Req::Gvk(0), true)],
        },
    ];
    check(2, &bundles, &[0]).expect("resolved as OLM resolves it");
    // And the text OLM prints for both is the same.
    let a = olmsat_resolver::predicate::parse_constraint(
        &Req::Not(vec![Req::Gvk(0)]).constraint().to_string(),
    )
    .expect("a predicate");
    let b = olmsat_resolver::predicate::parse_constraint(&Req::Gvk(0).constraint().to_string())
        .expect("a predicate");
    assert_eq!(a.to_string(), b.to_string());
    assert_ne!(a.key(), b.key());
}
