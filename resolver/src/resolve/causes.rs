//! The reason first: an unsatisfiable core's tree summarised as one sentence
//! per root cause, each with what would fix it. A requirement that fails the
//! same way for several candidates of a subscription is one cause ("required
//! by every candidate of …"), not one per candidate.

use std::collections::BTreeSet;

use super::{CandidateNode, Cause, RequirementNode, SubscriptionNode};

/// Why one candidate is out, as far as the tree says.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    /// Nothing offered meets a requirement.
    Nothing {
        needs: String,
        skipped: Vec<String>,
        unseen: Vec<(String, String, String)>,
    },
    /// Something meets a requirement, but every such bundle is ruled out.
    AllOut { needs: String, reasons: Vec<String> },
    /// The candidate is deprecated.
    Deprecated,
    /// Another constraint rules the candidate out directly.
    Direct(String),
}

/// The bundle name at the end of a variable id (`catalog/ns/channel/name`).
pub(super) fn bundle_of(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// The reasons a candidate is out.
fn whys(c: &CandidateNode) -> Vec<Why> {
    let mut out = Vec::new();
    for r in &c.requirements {
        out.extend(requirement_why(r));
    }
    let deprecated = format!("bundle {} is deprecated", bundle_of(&c.id));
    for m in &c.ruled_out {
        out.push(if *m == deprecated {
            Why::Deprecated
        } else {
            Why::Direct(m.clone())
        });
    }
    out
}

fn requirement_why(r: &RequirementNode) -> Option<Why> {
    let needs = if r.needs.is_empty() {
        r.requirement.clone()
    } else {
        r.needs.clone()
    };
    if r.providers.is_empty() {
        return Some(Why::Nothing {
            needs,
            skipped: r.skipped.clone(),
            unseen: r
                .unseen
                .iter()
                .map(|u| (u.bundle.clone(), u.catalog.clone(), u.namespace.clone()))
                .collect(),
        });
    }
    if r.providers.iter().all(|p| !p.ruled_out.is_empty()) {
        let reasons: BTreeSet<String> = r
            .providers
            .iter()
            .flat_map(|p| p.ruled_out.iter().cloned())
            .collect();
        return Some(Why::AllOut {
            needs,
            reasons: reasons.into_iter().collect(),
        });
    }
    None
}

/// Which candidates of `s` a cause concerns, in words.
fn subject(names: &[&str], s: &SubscriptionNode) -> String {
    let total = s.candidates.len();
    let package = if s.package.is_empty() {
        String::new()
    } else {
        format!(" (package {})", s.package)
    };
    match names {
        [one] if total == 1 => format!(
            "{one}, the only candidate of subscription {}{package}",
            s.subscription
        ),
        _ if names.len() == total => format!(
            "every candidate of subscription {}{package}",
            s.subscription
        ),
        _ => format!(
            "{} ({} of the {total} candidates of subscription {})",
            names.join(", "),
            names.len(),
            s.subscription
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

fn cause(why: &Why, names: &[&str], s: &SubscriptionNode) -> Cause {
    let who = subject(names, s);
    match why {
        Why::Nothing {
            needs,
            skipped,
            unseen,
        } => {
            if let Some((bundle, catalog, namespace)) = unseen.first() {
                return Cause {
                    summary: format!(
                        "nothing the namespace sees provides {needs}, required by {who}"
                    ),
                    hint: Some(format!(
                        "{bundle} in catalog {catalog} provides it, but that catalog is in namespace {namespace}, which this namespace does not see; if {namespace} is your cluster's global catalog namespace (openshift-marketplace on OpenShift), give --global-namespace {namespace}"
                    )),
                };
            }
            if !skipped.is_empty() {
                return Cause {
                    summary: format!(
                        "only bundles that OLM never offers provide {needs}, required by {who}"
                    ),
                    hint: Some(format!(
                        "{} provide{} it, but each is skipped by another entry of its channel, and OLM offers no skipped entry as a dependency; use a catalog whose channel heads provide it",
                        skipped.join(", "),
                        if skipped.len() == 1 { "s" } else { "" }
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
        Why::AllOut { needs, reasons } => Cause {
            summary: format!(
                "every bundle that provides {needs}, required by {who}, is ruled out: {}",
                listed(reasons)
            ),
            hint: None,
        },
        Why::Deprecated => Cause {
            summary: format!("{who} is deprecated"),
            hint: Some(
                "subscribe to a channel or version that is not deprecated (`olmsat list bundles` shows them)"
                    .to_owned(),
            ),
        },
        Why::Direct(m) => Cause {
            summary: format!("{m} (ruling out {who})"),
            hint: None,
        },
    }
}

/// The root causes of an unsatisfiable answer, one per distinct reason of
/// each subscription in the tree, in the tree's order.
pub(super) fn of(tree: &[SubscriptionNode], _namespace: &str) -> Vec<Cause> {
    let mut out: Vec<Cause> = Vec::new();
    let mut push = |c: Cause| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for s in tree {
        for m in &s.ruled_out {
            push(Cause {
                summary: m.clone(),
                hint: s.hint.clone(),
            });
        }
        // Each distinct reason with the candidates it rules out, in the order
        // first met (candidates are in preference order).
        let mut groups: Vec<(Why, Vec<&str>)> = Vec::new();
        for c in &s.candidates {
            for why in whys(c) {
                let name = bundle_of(&c.id);
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
            push(cause(why, names, s));
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
    use crate::resolve::UnseenProvider;

    fn candidate(id: &str, requirements: Vec<RequirementNode>) -> CandidateNode {
        CandidateNode {
            id: id.to_owned(),
            ruled_out: Vec::new(),
            requirements,
        }
    }

    fn missing(needs: &str) -> RequirementNode {
        RequirementNode {
            requirement: format!("bundle x requires an operator {needs}"),
            needs: needs.to_owned(),
            skipped: Vec::new(),
            unseen: Vec::new(),
            providers: Vec::new(),
        }
    }

    fn sub(candidates: Vec<CandidateNode>) -> SubscriptionNode {
        SubscriptionNode {
            subscription: "s".to_owned(),
            package: "p".to_owned(),
            hint: None,
            ruled_out: Vec::new(),
            candidates,
        }
    }

    #[test]
    fn a_requirement_every_candidate_shares_is_one_cause() {
        let tree = vec![sub(vec![
            candidate("c/ns/stable/p.v2", vec![missing("`g/v K`")]),
            candidate("c/ns/stable/p.v1", vec![missing("`g/v K`")]),
        ])];
        let causes = of(&tree, "ns");
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
        let mut deprecated = candidate("c/ns/stable/p.v2", vec![]);
        deprecated.ruled_out = vec!["bundle p.v2 is deprecated".to_owned()];
        let tree = vec![sub(vec![
            deprecated,
            candidate("c/ns/stable/p.v1", vec![missing("`g/v K`")]),
        ])];
        let texts: Vec<String> = of(&tree, "ns").into_iter().map(|c| c.summary).collect();
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
        let mut r = missing("`g/v K`");
        r.unseen = vec![UnseenProvider {
            bundle: "dep.v1".into(),
            catalog: "redhat".into(),
            namespace: "openshift-marketplace".into(),
        }];
        let tree = vec![sub(vec![candidate("c/ns/stable/p.v1", vec![r])])];
        let c = &of(&tree, "ns")[0];
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
        let mut r = missing("`g/v K`");
        r.skipped = vec!["dep.v1".into()];
        let tree = vec![sub(vec![candidate("c/ns/stable/p.v1", vec![r])])];
        let c = &of(&tree, "ns")[0];
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
        let mut s = sub(vec![]);
        s.ruled_out = vec![
            "no operators found in package p in the catalog referenced by subscription s".into(),
        ];
        s.hint = Some("catalog \"c\" has these packages, closest first: q".into());
        let causes = of(&[s], "ns");
        assert_eq!(causes.len(), 1);
        assert_eq!(
            causes[0].hint.as_deref(),
            Some("catalog \"c\" has these packages, closest first: q")
        );
    }
}
