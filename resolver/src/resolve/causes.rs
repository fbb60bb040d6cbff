//! The reason first: an unsatisfiable core's tree summarised as one sentence
//! per root cause, each with what would fix it. A requirement that fails the
//! same way for several candidates of a subscription is one cause ("required
//! by every candidate of …"), not one per candidate.
//!
//! Causes are told apart by the constraints' origins (a deprecation, a
//! requirement and what it asks for, the very constraint that rules a
//! candidate out), never by their sentences: a renderer words them last.

use std::collections::BTreeSet;

use super::explain::{subscription_hint, CoreCandidate, CoreRequirement, CoreSubscription};
use super::origin::{Encoded, Origin, Requirement};
use super::render::Render;
use super::Cause;
use crate::solve::AppliedConstraint;

/// Why one candidate is out, as far as the tree says.
#[derive(Debug, Clone)]
enum Why<'a> {
    /// Nothing offered meets a requirement.
    Nothing(&'a Requirement),
    /// Something meets a requirement, but every such bundle is ruled out by
    /// these constraints.
    AllOut(&'a Requirement, BTreeSet<AppliedConstraint>),
    /// The candidate is deprecated.
    Deprecated,
    /// Another constraint rules the candidate out directly.
    Direct(AppliedConstraint),
}

impl PartialEq for Why<'_> {
    /// The same reason: the same requirement (by what it asks for, not how
    /// it prints) failing the same way, or the same constraint.
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &Requirement, b: &Requirement| a.predicate.key() == b.predicate.key();
        match (self, other) {
            (Why::Nothing(a), Why::Nothing(b)) => {
                same(a, b) && a.skipped == b.skipped && a.unseen == b.unseen
            }
            (Why::AllOut(a, x), Why::AllOut(b, y)) => same(a, b) && x == y,
            (Why::Deprecated, Why::Deprecated) => true,
            (Why::Direct(a), Why::Direct(b)) => a == b,
            _ => false,
        }
    }
}

/// The origin of constraint `at`.
fn origin(enc: &Encoded, at: AppliedConstraint) -> Option<&Origin> {
    enc.problem
        .variables
        .get(at.variable)?
        .constraints
        .get(at.constraint)
        .map(|c| &c.origin)
}

/// The reasons a candidate is out.
fn whys<'a>(enc: &'a Encoded, c: &CoreCandidate) -> Vec<Why<'a>> {
    let mut out = Vec::new();
    for r in &c.requirements {
        out.extend(requirement_why(enc, r));
    }
    for &at in &c.ruled_out {
        out.push(match origin(enc, at) {
            Some(Origin::Deprecated) => Why::Deprecated,
            _ => Why::Direct(at),
        });
    }
    out
}

fn requirement_why<'a>(enc: &'a Encoded, r: &CoreRequirement) -> Option<Why<'a>> {
    let Some(Origin::Requirement(requirement)) = origin(enc, r.constraint) else {
        return None;
    };
    if r.providers.is_empty() {
        return Some(Why::Nothing(requirement));
    }
    if r.providers.iter().all(|p| !p.ruled_out.is_empty()) {
        let reasons = r
            .providers
            .iter()
            .flat_map(|p| p.ruled_out.iter().copied())
            .collect();
        return Some(Why::AllOut(requirement, reasons));
    }
    None
}

/// Which candidates of subscription `s` a cause concerns, in words.
fn subject(enc: &Encoded, names: &[&str], s: &CoreSubscription) -> String {
    let total = s.candidates.len();
    let (name, package) = enc.interner.subscription(s.var).unwrap_or_default();
    let package = if package.is_empty() {
        String::new()
    } else {
        format!(" (package {package})")
    };
    match names {
        [one] if total == 1 => {
            format!("{one}, the only candidate of subscription {name}{package}")
        }
        _ if names.len() == total => {
            format!("every candidate of subscription {name}{package}")
        }
        _ => format!(
            "{} ({} of the {total} candidates of subscription {name})",
            names.join(", "),
            names.len(),
        ),
    }
}

/// At most three reasons, then how many more.
fn listed(reasons: &[String]) -> String {
    let mut out = reasons
        .iter()
        .take(3)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if reasons.len() > 3 {
        out.push_str(&format!("; and {} more", reasons.len() - 3));
    }
    out
}

fn cause(
    enc: &Encoded,
    why: &Why,
    names: &[&str],
    s: &CoreSubscription,
    render: &dyn Render,
) -> Cause {
    let who = subject(enc, names, s);
    match why {
        Why::Nothing(r) => {
            let needs = r.predicate.brief();
            if let Some(u) = r.unseen.first() {
                let (bundle, catalog, namespace) = (&u.bundle, &u.catalog, &u.namespace);
                return Cause {
                    summary: format!(
                        "nothing the namespace sees provides {needs}, required by {who}"
                    ),
                    hint: Some(format!(
                        "{bundle} in catalog {catalog} provides it, but that catalog is in namespace {namespace}, which this namespace does not see; if {namespace} is your cluster's global catalog namespace (openshift-marketplace on OpenShift), give --global-namespace {namespace}"
                    )),
                };
            }
            if !r.skipped.is_empty() {
                return Cause {
                    summary: format!(
                        "only bundles that OLM never offers provide {needs}, required by {who}"
                    ),
                    hint: Some(format!(
                        "{} provide{} it, but each is skipped by another entry of its channel, and OLM offers no skipped entry as a dependency; use a catalog whose channel heads provide it",
                        r.skipped.join(", "),
                        if r.skipped.len() == 1 { "s" } else { "" }
                    )),
                };
            }
            Cause {
                summary: format!("nothing in the given catalogs provides {needs}, required by {who}"),
                hint: Some(
                    "add a catalog that has an operator providing it (--catalog NAME=DIR), or install one that does"
                        .to_owned(),
                ),
            }
        }
        Why::AllOut(r, reasons) => {
            let reasons: BTreeSet<String> =
                reasons.iter().map(|&at| render.sentence(enc, at)).collect();
            let reasons: Vec<String> = reasons.into_iter().collect();
            Cause {
                summary: format!(
                    "every bundle that provides {}, required by {who}, is ruled out: {}",
                    r.predicate.brief(),
                    listed(&reasons)
                ),
                hint: None,
            }
        }
        Why::Deprecated => Cause {
            summary: format!("{who} is deprecated"),
            hint: Some(
                "subscribe to a channel or version that is not deprecated (`olmsat list bundles` shows them)"
                    .to_owned(),
            ),
        },
        Why::Direct(at) => Cause {
            summary: format!("{} (ruling out {who})", render.sentence(enc, *at)),
            hint: None,
        },
    }
}

/// Whether constraint `at` is one of the invariants: at most one provider
/// of an API, or one bundle of a package.
fn is_invariant(enc: &Encoded, at: AppliedConstraint) -> bool {
    matches!(
        origin(enc, at),
        Some(Origin::OneProviderPerApi(_) | Origin::OneBundlePerPackage(_))
    )
}

/// Subscriptions of the tree that subscribe to one package, with the
/// package: two Subscriptions to one package in a namespace ask OLM for two
/// operators of it, and it installs at most one. Their names sorted; the
/// packages in order.
fn same_package<'e>(enc: &'e Encoded, tree: &[CoreSubscription]) -> Vec<(&'e str, Vec<&'e str>)> {
    let mut by_package: Vec<(&str, Vec<&str>)> = Vec::new();
    for s in tree {
        let Some((name, package)) = enc.interner.subscription(s.var) else {
            continue;
        };
        if package.is_empty() {
            continue;
        }
        match by_package.iter_mut().find(|(p, _)| *p == package) {
            Some((_, names)) => names.push(name),
            None => by_package.push((package, vec![name])),
        }
    }
    by_package.retain(|(_, names)| names.len() > 1);
    for (_, names) in &mut by_package {
        names.sort_unstable();
    }
    by_package.sort();
    by_package
}

/// `A and B`, `A, B and C`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The root causes of an unsatisfiable answer, one per distinct reason of
/// each subscription in the tree, in the tree's order, worded by `render`.
/// Subscriptions to one package come first, as one cause: the clashes
/// between their candidates (one provider per API, one bundle per package)
/// follow from it and are not causes of their own.
pub(super) fn of(
    enc: &Encoded,
    tree: &[CoreSubscription],
    namespace: &str,
    render: &dyn Render,
) -> Vec<Cause> {
    let mut out: Vec<Cause> = Vec::new();
    let mut push = |c: Cause| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    let pairs = same_package(enc, tree);
    for (package, names) in &pairs {
        let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        push(Cause {
            summary: format!(
                "subscriptions {} {} subscribe to package {package} in namespace {namespace}: OLM installs at most one operator of a package in a namespace, so their candidates clash",
                and_list(names),
                if names.len() == 2 { "both" } else { "all" }
            ),
            hint: Some(format!(
                "keep one Subscription per package in a namespace: delete {} or {}",
                quoted[..quoted.len() - 1].join(", "),
                quoted[quoted.len() - 1]
            )),
        });
    }
    let paired = |name: &str| pairs.iter().any(|(_, names)| names.contains(&name));
    for s in tree {
        let clashing = enc
            .interner
            .subscription(s.var)
            .is_some_and(|(name, _)| paired(name));
        let hint = subscription_hint(enc, s.var);
        for &at in &s.ruled_out {
            push(Cause {
                summary: render.sentence(enc, at),
                hint: hint.map(str::to_owned),
            });
        }
        // Each distinct reason with the candidates it rules out, in the order
        // first met (candidates are in preference order).
        let mut groups: Vec<(Why, Vec<&str>)> = Vec::new();
        for c in &s.candidates {
            let name = enc.name(c.var);
            for why in whys(enc, c) {
                // The clash of the two Subscriptions' candidates is said.
                let follows = match &why {
                    Why::Direct(at) => is_invariant(enc, *at),
                    Why::AllOut(_, reasons) => reasons.iter().all(|&at| is_invariant(enc, at)),
                    _ => false,
                };
                if clashing && follows {
                    continue;
                }
                match groups.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, names)) => {
                        if !names.contains(&name) {
                            names.push(name);
                        }
                    }
                    None => groups.push((why, vec![name])),
                }
            }
        }
        for (why, names) in &groups {
            push(cause(enc, why, names, s, render));
        }
    }
    if out.is_empty() {
        out.push(Cause {
            summary: "the constraints in OLM's message cannot all hold together".to_owned(),
            hint: Some("--explain shows them as a tree from each subscription".to_owned()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ConstraintKind::{self, Dependency, Mandatory, Prohibited};
    use crate::resolve::explain::unsat_tree;
    use crate::resolve::origin::fixture::{bundle, encoded, requires_k, subscription};
    use crate::resolve::origin::{Missing, NoCandidates, Subject};
    use crate::resolve::render::{Olm, Readable};
    use crate::resolve::UnseenProvider;

    /// The causes of an encoding whose every constraint is in the core.
    #[allow(clippy::type_complexity)]
    fn causes(vars: Vec<((String, Subject), Vec<(ConstraintKind, Origin)>)>) -> Vec<Cause> {
        let (enc, core) = encoded(vars);
        of(&enc, &unsat_tree(&enc, &core), "ns", &Readable)
    }

    fn subscribed(candidates: Vec<usize>) -> Vec<(ConstraintKind, Origin)> {
        let exists = || Origin::Subscription { name: "s".into() };
        vec![(Mandatory, exists()), (Dependency(candidates), exists())]
    }

    #[test]
    fn a_requirement_every_candidate_shares_is_one_cause() {
        let causes = causes(vec![
            (subscription(), subscribed(vec![1, 2])),
            (
                bundle("p.v2"),
                vec![(Dependency(vec![]), requires_k("p.v2"))],
            ),
            (
                bundle("p.v1"),
                vec![(Dependency(vec![]), requires_k("p.v1"))],
            ),
        ]);
        assert_eq!(causes.len(), 1, "{causes:#?}");
        assert_eq!(
            causes[0].summary,
            "nothing in the given catalogs provides `g/v K`, required by every candidate of subscription s (package p)"
        );
        assert!(causes[0]
            .hint
            .as_deref()
            .is_some_and(|h| h.starts_with("add a catalog")));
    }

    #[test]
    fn different_reasons_name_their_candidates() {
        let texts: Vec<String> = causes(vec![
            (subscription(), subscribed(vec![1, 2])),
            (bundle("p.v2"), vec![(Prohibited, Origin::Deprecated)]),
            (
                bundle("p.v1"),
                vec![(Dependency(vec![]), requires_k("p.v1"))],
            ),
        ])
        .into_iter()
        .map(|c| c.summary)
        .collect();
        assert_eq!(
            texts,
            [
                "p.v2 (1 of the 2 candidates of subscription s) is deprecated",
                "nothing in the given catalogs provides `g/v K`, required by p.v1 (1 of the 2 candidates of subscription s)",
            ]
        );
    }

    #[test]
    fn a_provider_in_an_unseen_namespace_names_the_flag() {
        let mut r = requires_k("p.v1");
        if let Origin::Requirement(q) = &mut r {
            q.unseen = vec![UnseenProvider {
                bundle: "dep.v1".into(),
                catalog: "redhat".into(),
                namespace: "openshift-marketplace".into(),
            }];
        }
        let c = &causes(vec![
            (subscription(), subscribed(vec![1])),
            (bundle("p.v1"), vec![(Dependency(vec![]), r)]),
        ])[0];
        assert_eq!(
            c.summary,
            "nothing the namespace sees provides `g/v K`, required by p.v1, the only candidate of subscription s (package p)"
        );
        assert!(c
            .hint
            .as_deref()
            .is_some_and(|h| h.ends_with("give --global-namespace openshift-marketplace")));
    }

    #[test]
    fn skipped_providers_are_named() {
        let mut r = requires_k("p.v1");
        if let Origin::Requirement(q) = &mut r {
            q.skipped = vec!["dep.v1".into()];
        }
        let c = &causes(vec![
            (subscription(), subscribed(vec![1])),
            (bundle("p.v1"), vec![(Dependency(vec![]), r)]),
        ])[0];
        assert!(c
            .summary
            .starts_with("only bundles that OLM never offers provide"));
        assert!(c
            .hint
            .as_deref()
            .is_some_and(|h| h.starts_with("dep.v1 provides it, but each is skipped")));
    }

    #[test]
    fn an_invalid_subscription_is_its_own_cause_with_its_hint() {
        let invalid = Origin::NoCandidates(Box::new(NoCandidates {
            subscription: "s".into(),
            missing: Missing::Package {
                package: "p".into(),
            },
            hint: Some("catalog \"c\" has these packages, closest first: q".into()),
        }));
        let causes = causes(vec![(
            subscription(),
            vec![
                (Mandatory, Origin::Subscription { name: "s".into() }),
                (Prohibited, invalid),
            ],
        )]);
        assert_eq!(causes.len(), 1);
        assert_eq!(
            causes[0].summary,
            "no operators found in package p in the catalog referenced by subscription s"
        );
        assert_eq!(
            causes[0].hint.as_deref(),
            Some("catalog \"c\" has these packages, closest first: q")
        );
    }

    #[test]
    fn two_subscriptions_to_one_package_are_the_cause() {
        let sub = |name: &str| {
            (
                format!("subscription:{name}"),
                Subject::Subscription {
                    name: name.into(),
                    package: "p".into(),
                },
            )
        };
        let exists = |name: &str| Origin::Subscription { name: name.into() };
        let one = || Origin::OneBundlePerPackage("p".into());
        let causes = causes(vec![
            (
                sub("b"),
                vec![(Mandatory, exists("b")), (Dependency(vec![3]), exists("b"))],
            ),
            (
                sub("a"),
                vec![(Mandatory, exists("a")), (Dependency(vec![2]), exists("a"))],
            ),
            (bundle("p.v1"), vec![]),
            (bundle("p.v2"), vec![]),
            (
                ("p".to_owned(), Subject::Invariant),
                vec![
                    (Mandatory, one()),
                    (ConstraintKind::AtMost(1, vec![2, 3]), one()),
                ],
            ),
        ]);
        assert_eq!(causes.len(), 1, "{causes:#?}");
        assert_eq!(
            causes[0].summary,
            "subscriptions a and b both subscribe to package p in namespace ns: OLM installs at most one operator of a package in a namespace, so their candidates clash"
        );
        assert_eq!(
            causes[0].hint.as_deref(),
            Some("keep one Subscription per package in a namespace: delete \"a\" or \"b\"")
        );
    }

    /// OLM's sentences, except that a deprecation and every requirement are
    /// worded otherwise.
    struct Reworded;

    impl Render for Reworded {
        fn sentence(&self, enc: &Encoded, at: AppliedConstraint) -> String {
            match origin(enc, at) {
                Some(Origin::Deprecated) => format!("{} was withdrawn", enc.name(at.variable)),
                Some(Origin::Requirement(r)) => format!("{} needs something", r.bundle),
                _ => Olm.sentence(enc, at),
            }
        }
    }

    #[test]
    fn the_wording_of_an_origin_does_not_decide_the_cause() {
        let (enc, core) = encoded(vec![
            (subscription(), subscribed(vec![1, 2, 3])),
            (bundle("p.v3"), vec![(Prohibited, Origin::Deprecated)]),
            (
                bundle("p.v2"),
                vec![(Dependency(vec![]), requires_k("p.v2"))],
            ),
            (
                bundle("p.v1"),
                vec![(Dependency(vec![]), requires_k("p.v1"))],
            ),
        ]);
        let tree = unsat_tree(&enc, &core);
        let olm = of(&enc, &tree, "ns", &Olm);
        // The sentences differ ...
        assert_ne!(
            Olm.sentence(&enc, core[2]),
            Reworded.sentence(&enc, core[2])
        );
        assert_ne!(
            Olm.sentence(&enc, core[3]),
            Reworded.sentence(&enc, core[3])
        );
        // ... the causes do not: the deprecation is found as one, and the
        // requirement the two other candidates share as another.
        assert_eq!(of(&enc, &tree, "ns", &Reworded), olm);
        assert_eq!(of(&enc, &tree, "ns", &Readable), olm);
        let summaries: Vec<&str> = olm.iter().map(|c| c.summary.as_str()).collect();
        assert_eq!(
            summaries,
            [
                "p.v3 (1 of the 3 candidates of subscription s) is deprecated",
                "nothing in the given catalogs provides `g/v K`, required by p.v2, p.v1 (2 of the 3 candidates of subscription s)",
            ]
        );
    }

    #[test]
    fn a_reason_that_rules_out_every_provider_is_worded_by_the_renderer() {
        let (enc, core) = encoded(vec![
            (subscription(), subscribed(vec![1])),
            (
                bundle("p.v1"),
                vec![(Dependency(vec![2]), requires_k("p.v1"))],
            ),
            (bundle("dep.v1"), vec![(Prohibited, Origin::Deprecated)]),
        ]);
        let tree = unsat_tree(&enc, &core);
        let summary = |render: &dyn Render| of(&enc, &tree, "ns", render)[0].summary.clone();
        let prefix = "every bundle that provides `g/v K`, required by p.v1, the only candidate of subscription s (package p), is ruled out: ";
        assert_eq!(
            summary(&Readable),
            format!("{prefix}bundle dep.v1 is deprecated")
        );
        assert_eq!(
            summary(&Olm),
            format!("{prefix}bundle c/ns/stable/dep.v1 is deprecated")
        );
        assert_eq!(summary(&Reworded), format!("{prefix}dep.v1 was withdrawn"));
    }
}
