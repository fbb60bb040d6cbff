//! The explanations, apart from solving: why each chosen bundle is in the
//! answer, and an unsatisfiable core as a tree of subscriptions, candidates
//! and requirements with the constraints that rule each out. Everything is
//! decided on constraints' origins and the interner; sentences are rendered
//! last.

use std::collections::{BTreeMap, BTreeSet};

use super::origin::{Encoded, Origin};
use super::render::{Olm, Render};
use super::{CandidateNode, PassedOver, Reason, RequirementNode, Stay, SubscriptionNode};
use crate::problem::{ConstraintKind, VarIndex};
use crate::solve::AppliedConstraint;

/// Why `vi` is selected: the dependency constraints of selected variables that list
/// it, and the candidates listed before it there that were not selected.
pub(super) fn explain_choice(enc: &Encoded, selected: &[VarIndex], vi: VarIndex) -> Reason {
    let problem = &enc.problem;
    let sel: BTreeSet<VarIndex> = selected.iter().copied().collect();
    let mut required_by = Vec::new();
    let mut passed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for &s in selected {
        for (ci, c) in problem.variables[s].constraints.iter().enumerate() {
            if let ConstraintKind::Dependency(ds) = &c.kind {
                if let Some(pos) = ds.iter().position(|&d| d == vi) {
                    required_by.push(Olm.sentence(enc, applied(s, ci)));
                    for &earlier in &ds[..pos] {
                        if sel.contains(&earlier) {
                            continue;
                        }
                        let because = why_not(enc, &sel, earlier);
                        passed
                            .entry(problem.variables[earlier].id.clone())
                            .or_insert(because);
                    }
                }
            }
        }
    }
    required_by.sort();
    required_by.dedup();
    Reason {
        id: problem.variables[vi].id.clone(),
        required_by,
        passed_over: passed
            .into_iter()
            .map(|(id, because)| PassedOver { id, because })
            .collect(),
    }
}

/// The Subscriptions that keep their installed CSV although it has
/// candidates to upgrade to: each with the candidates passed over and why.
pub(super) fn stays(enc: &Encoded, selected: &[VarIndex]) -> Vec<Stay> {
    let problem = &enc.problem;
    let sel: BTreeSet<VarIndex> = selected.iter().copied().collect();
    let mut out = Vec::new();
    for (v, var) in problem.variables.iter().enumerate() {
        let Some((name, _)) = enc.interner.subscription(v) else {
            continue;
        };
        for c in &var.constraints {
            let ConstraintKind::Dependency(ds) = &c.kind else {
                continue;
            };
            // The installed CSV: what the candidates' upgrade conflicts name.
            let installed = ds.iter().find_map(|&d| {
                problem.variables[d].constraints.iter().find_map(|dc| {
                    match (&dc.kind, &dc.origin) {
                        (ConstraintKind::Conflict(o), Origin::Upgrade { .. }) => Some(*o),
                        _ => None,
                    }
                })
            });
            let Some(installed) = installed else {
                continue;
            };
            if !sel.contains(&installed) || !ds.iter().any(|&d| d != installed) {
                continue;
            }
            // What rules a candidate out apart from the installed CSV it
            // would replace (with which it conflicts and shares its
            // package); only when nothing else does, everything.
            let mut others = sel.clone();
            others.remove(&installed);
            let passed_over = ds
                .iter()
                .take_while(|&&d| d != installed)
                .filter(|d| !sel.contains(d))
                .map(|&d| {
                    let apart = why_not_of(enc, &others, d);
                    PassedOver {
                        id: problem.variables[d].id.clone(),
                        because: if apart.is_empty() {
                            why_not(enc, &sel, d)
                        } else {
                            apart
                        },
                    }
                })
                .collect();
            out.push(Stay {
                subscription: name.to_owned(),
                installed: enc.name(installed).to_owned(),
                passed_over,
            });
        }
    }
    out.sort_by(|a, b| a.subscription.cmp(&b.subscription));
    out
}

fn applied(variable: VarIndex, constraint: usize) -> AppliedConstraint {
    AppliedConstraint {
        variable,
        constraint,
    }
}

/// The constraints that keep `v` out given the rest of the answer: its own
/// prohibitions, conflicts with selected variables, at-most limits shared with
/// selected variables, and dependencies with no selectable candidate. The
/// decisive fact comes first: that `v` is not a direct successor of the
/// installed bundle its package must move from, or that it is deprecated.
fn why_not(enc: &Encoded, selected: &BTreeSet<VarIndex>, v: VarIndex) -> Vec<String> {
    let decisive = not_a_successor(enc, selected, v);
    let mut texts = why_not_of(enc, selected, v);
    if texts.is_empty() && decisive.is_none() {
        texts.push("a candidate earlier in the preference order led to this answer".to_owned());
    }
    if let Some(d) = decisive {
        texts.insert(0, d);
    }
    texts
}

/// The constraints that keep `v` out given `selected`, in words: the
/// deprecation first, then the others in order.
fn why_not_of(enc: &Encoded, selected: &BTreeSet<VarIndex>, v: VarIndex) -> Vec<String> {
    let problem = &enc.problem;
    let mut out: Vec<AppliedConstraint> = Vec::new();
    for (ci, c) in problem.variables[v].constraints.iter().enumerate() {
        match &c.kind {
            ConstraintKind::Prohibited => out.push(applied(v, ci)),
            ConstraintKind::Conflict(o) if selected.contains(o) => out.push(applied(v, ci)),
            ConstraintKind::Dependency(ds) if ds.is_empty() => out.push(applied(v, ci)),
            _ => {}
        }
    }
    for (si, var) in problem.variables.iter().enumerate() {
        for (ci, c) in var.constraints.iter().enumerate() {
            match &c.kind {
                ConstraintKind::Conflict(o) if *o == v && selected.contains(&si) => {
                    out.push(applied(si, ci))
                }
                ConstraintKind::AtMost(n, ids) if ids.contains(&v) => {
                    let taken = ids.iter().filter(|i| selected.contains(i)).count();
                    if taken >= *n {
                        out.push(applied(si, ci));
                    }
                }
                _ => {}
            }
        }
    }
    let deprecated = |at: &AppliedConstraint| {
        matches!(
            problem.variables[at.variable].constraints[at.constraint].origin,
            Origin::Deprecated
        )
    };
    let mut worded: Vec<(String, bool)> = out
        .iter()
        .map(|at| (Olm.sentence(enc, *at), deprecated(at)))
        .collect();
    worded.sort();
    worded.dedup_by(|a, b| a.0 == b.0);
    let mut texts = Vec::with_capacity(worded.len() + 2);
    // Deprecation decides on its own; put it first.
    if let Some(i) = worded.iter().position(|(_, d)| *d) {
        texts.push(worded.remove(i).0);
    }
    texts.extend(worded.into_iter().map(|(m, _)| m));
    texts
}

/// When `v` shares a one-per-package (or one-per-API) limit with a selected
/// bundle that upgrades an installed one, and `v` is not among that
/// upgrade's candidates: it is not a direct successor of the installed bundle.
fn not_a_successor(enc: &Encoded, selected: &BTreeSet<VarIndex>, v: VarIndex) -> Option<String> {
    let problem = &enc.problem;
    for var in &problem.variables {
        for c in &var.constraints {
            let ConstraintKind::AtMost(_, ids) = &c.kind else {
                continue;
            };
            if !ids.contains(&v) {
                continue;
            }
            for &s in ids.iter().filter(|s| selected.contains(s)) {
                let Some(installed) = enc.replaces(s) else {
                    continue;
                };
                // The subscription's candidate list that holds `s`.
                let successor = problem.variables.iter().enumerate().any(|(si, sv)| {
                    enc.interner.subscription(si).is_some()
                        && sv.constraints.iter().any(|sc| match &sc.kind {
                            ConstraintKind::Dependency(ds) => ds.contains(&s) && ds.contains(&v),
                            _ => false,
                        })
                });
                if !successor {
                    return Some(format!(
                        "{} is not a direct successor of the installed {installed} (it neither replaces nor skips it, and no skipRange of it contains its version), so OLM upgrades {installed} to {} instead",
                        enc.name(v),
                        enc.name(s)
                    ));
                }
            }
        }
    }
    None
}

/// A subscription in an unsatisfiable core.
#[derive(Debug, Clone)]
pub(super) struct CoreSubscription {
    /// Its variable.
    pub(super) var: VarIndex,
    /// The core constraints that rule the subscription itself out.
    pub(super) ruled_out: Vec<AppliedConstraint>,
    /// Its candidates, in preference order.
    pub(super) candidates: Vec<CoreCandidate>,
}

/// A candidate (of a subscription, or providing a requirement) in an
/// unsatisfiable core.
#[derive(Debug, Clone)]
pub(super) struct CoreCandidate {
    /// Its variable.
    pub(super) var: VarIndex,
    /// The core constraints that rule it out directly.
    pub(super) ruled_out: Vec<AppliedConstraint>,
    /// Its requirements in the core.
    pub(super) requirements: Vec<CoreRequirement>,
}

/// A requirement of a candidate in an unsatisfiable core.
#[derive(Debug, Clone)]
pub(super) struct CoreRequirement {
    /// The requirement's constraint.
    pub(super) constraint: AppliedConstraint,
    /// The bundles that meet it, in preference order.
    pub(super) providers: Vec<CoreCandidate>,
}

/// The minimal core as a tree: each subscription in it, its candidates, their
/// requirements in the core, and each provider with the core constraints that
/// rule it out (one level of providers: deeper reasons are in the sentences).
/// Each node's constraints are in the order of OLM's sentences.
pub(super) fn unsat_tree(enc: &Encoded, core: &[AppliedConstraint]) -> Vec<CoreSubscription> {
    let problem = &enc.problem;
    let in_core: BTreeSet<AppliedConstraint> = core.iter().copied().collect();
    let core_vars: BTreeSet<VarIndex> = core.iter().map(|c| c.variable).collect();
    let in_olm_order = |mut cs: Vec<AppliedConstraint>| {
        cs.sort_by_cached_key(|&at| (Olm.sentence(enc, at), at));
        cs
    };
    // Core constraints that rule out `v` directly.
    let ruled_out = |v: VarIndex| -> Vec<AppliedConstraint> {
        let hits = in_core.iter().copied().filter(|at| {
            let c = &problem.variables[at.variable].constraints[at.constraint];
            match &c.kind {
                ConstraintKind::Prohibited => at.variable == v,
                ConstraintKind::Conflict(o) => at.variable == v || *o == v,
                ConstraintKind::AtMost(_, ids) => ids.contains(&v),
                ConstraintKind::Dependency(ds) => at.variable == v && ds.is_empty(),
                ConstraintKind::Mandatory => false,
            }
        });
        in_olm_order(hits.collect())
    };
    let candidate = |v: VarIndex| -> CoreCandidate {
        let mut requirements = Vec::new();
        for (ci, c) in problem.variables[v].constraints.iter().enumerate() {
            if let ConstraintKind::Dependency(ds) = &c.kind {
                if in_core.contains(&applied(v, ci)) {
                    requirements.push(CoreRequirement {
                        constraint: applied(v, ci),
                        providers: ds
                            .iter()
                            .map(|&d| CoreCandidate {
                                var: d,
                                ruled_out: ruled_out(d),
                                requirements: Vec::new(),
                            })
                            .collect(),
                    });
                }
            }
        }
        let shown: BTreeSet<AppliedConstraint> =
            requirements.iter().map(|r| r.constraint).collect();
        CoreCandidate {
            var: v,
            ruled_out: ruled_out(v)
                .into_iter()
                .filter(|at| !shown.contains(at))
                .collect(),
            requirements,
        }
    };
    let mut out = Vec::new();
    for &v in &core_vars {
        if enc.interner.subscription(v).is_none() {
            continue;
        }
        let candidates = problem.variables[v]
            .constraints
            .iter()
            .find_map(|c| match &c.kind {
                ConstraintKind::Dependency(ds) => Some(ds.iter().map(|&d| candidate(d)).collect()),
                _ => None,
            })
            .unwrap_or_default();
        out.push(CoreSubscription {
            var: v,
            ruled_out: ruled_out(v),
            candidates,
        });
    }
    out
}

/// What to do about a subscription that selects nothing, when olmsat knows.
pub(super) fn subscription_hint(enc: &Encoded, v: VarIndex) -> Option<&str> {
    enc.problem
        .variables
        .get(v)?
        .constraints
        .iter()
        .find_map(|c| match &c.origin {
            Origin::NoCandidates(n) => n.hint.as_deref(),
            _ => None,
        })
}

/// The tree in words, OLM's sentences by `render`.
pub(super) fn render_tree(
    enc: &Encoded,
    tree: &[CoreSubscription],
    render: &dyn Render,
) -> Vec<SubscriptionNode> {
    let words = |cs: &[AppliedConstraint]| -> Vec<String> {
        cs.iter().map(|&at| render.sentence(enc, at)).collect()
    };
    fn candidate(
        enc: &Encoded,
        c: &CoreCandidate,
        words: &dyn Fn(&[AppliedConstraint]) -> Vec<String>,
        render: &dyn Render,
    ) -> CandidateNode {
        CandidateNode {
            id: enc.problem.id(c.var).to_owned(),
            bundle: enc.name(c.var).to_owned(),
            ruled_out: words(&c.ruled_out),
            requirements: c
                .requirements
                .iter()
                .map(|r| {
                    let at = r.constraint;
                    let origin =
                        &enc.problem.variables[at.variable].constraints[at.constraint].origin;
                    let (needs, property, skipped, unseen) = match origin {
                        Origin::Requirement(q) => (
                            q.predicate.brief(),
                            Some(q.property),
                            q.skipped.clone(),
                            q.unseen.clone(),
                        ),
                        _ => (String::new(), None, Vec::new(), Vec::new()),
                    };
                    RequirementNode {
                        requirement: render.sentence(enc, at),
                        property,
                        needs,
                        skipped,
                        unseen,
                        providers: r
                            .providers
                            .iter()
                            .map(|p| candidate(enc, p, words, render))
                            .collect(),
                    }
                })
                .collect(),
        }
    }
    tree.iter()
        .map(|s| {
            let (name, package) = enc.interner.subscription(s.var).unwrap_or_default();
            SubscriptionNode {
                subscription: name.to_owned(),
                package: package.to_owned(),
                hint: subscription_hint(enc, s.var).map(str::to_owned),
                ruled_out: words(&s.ruled_out),
                candidates: s
                    .candidates
                    .iter()
                    .map(|c| candidate(enc, c, &words, render))
                    .collect(),
            }
        })
        .collect()
}
