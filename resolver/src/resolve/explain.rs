//! The explanations, apart from solving: why each chosen bundle is in the
//! answer, and an unsatisfiable core as a tree of subscriptions, candidates
//! and requirements with the constraints that rule each out.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::causes::bundle_of;
use super::encode::Notes;
use super::{CandidateNode, PassedOver, Reason, RequirementNode, SubscriptionNode, UnseenProvider};
use crate::problem::{ConstraintKind, Problem, VarIndex};

/// Why `vi` is selected: the dependency constraints of selected variables that list
/// it, and the candidates listed before it there that were not selected.
pub(super) fn explain_choice(
    problem: &Problem,
    selected: &[VarIndex],
    vi: VarIndex,
    replaces: &HashMap<VarIndex, String>,
) -> Reason {
    let sel: BTreeSet<VarIndex> = selected.iter().copied().collect();
    let mut required_by = Vec::new();
    let mut passed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for &s in selected {
        for c in &problem.variables[s].constraints {
            if let ConstraintKind::Dependency(ds) = &c.kind {
                if let Some(pos) = ds.iter().position(|&d| d == vi) {
                    required_by.push(c.message.clone());
                    for &earlier in &ds[..pos] {
                        if sel.contains(&earlier) {
                            continue;
                        }
                        let because = why_not(problem, &sel, earlier, replaces);
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

/// The constraints that keep `v` out given the rest of the answer: its own
/// prohibitions, conflicts with selected variables, at-most limits shared with
/// selected variables, and dependencies with no selectable candidate. The
/// decisive fact comes first: that `v` is not a direct successor of the
/// installed bundle its package must move from, or that it is deprecated.
fn why_not(
    problem: &Problem,
    selected: &BTreeSet<VarIndex>,
    v: VarIndex,
    replaces: &HashMap<VarIndex, String>,
) -> Vec<String> {
    let decisive = not_a_successor(problem, selected, v, replaces);
    let mut out = Vec::new();
    for c in &problem.variables[v].constraints {
        match &c.kind {
            ConstraintKind::Prohibited => out.push(c.message.clone()),
            ConstraintKind::Conflict(o) if selected.contains(o) => out.push(c.message.clone()),
            ConstraintKind::Dependency(ds) if ds.is_empty() => out.push(c.message.clone()),
            _ => {}
        }
    }
    for (si, var) in problem.variables.iter().enumerate() {
        for c in &var.constraints {
            match &c.kind {
                ConstraintKind::Conflict(o) if *o == v && selected.contains(&si) => {
                    out.push(c.message.clone())
                }
                ConstraintKind::AtMost(n, ids) if ids.contains(&v) => {
                    let taken = ids.iter().filter(|i| selected.contains(i)).count();
                    if taken >= *n {
                        out.push(c.message.clone());
                    }
                }
                _ => {}
            }
        }
    }
    if out.is_empty() && decisive.is_none() {
        out.push("a candidate earlier in the preference order led to this answer".to_owned());
    }
    out.sort();
    out.dedup();
    // Deprecation decides on its own; put it first.
    if let Some(i) = out.iter().position(|m| m.ends_with(" is deprecated")) {
        let m = out.remove(i);
        out.insert(0, m);
    }
    if let Some(d) = decisive {
        out.insert(0, d);
    }
    out
}

/// When `v` shares a one-per-package (or one-per-API) limit with a selected
/// bundle that upgrades an installed one, and `v` is not among that
/// upgrade's candidates: it is not a direct successor of the installed bundle.
fn not_a_successor(
    problem: &Problem,
    selected: &BTreeSet<VarIndex>,
    v: VarIndex,
    replaces: &HashMap<VarIndex, String>,
) -> Option<String> {
    for var in &problem.variables {
        for c in &var.constraints {
            let ConstraintKind::AtMost(_, ids) = &c.kind else {
                continue;
            };
            if !ids.contains(&v) {
                continue;
            }
            for &s in ids.iter().filter(|s| selected.contains(s)) {
                let Some(installed) = replaces.get(&s) else {
                    continue;
                };
                // The subscription's candidate list that holds `s`.
                let successor = problem.variables.iter().any(|sv| {
                    sv.constraints.iter().any(|sc| match &sc.kind {
                        ConstraintKind::Dependency(ds) => ds.contains(&s) && ds.contains(&v),
                        _ => false,
                    }) && sv.id.starts_with("subscription:")
                });
                if !successor {
                    let name = bundle_of(&problem.variables[v].id);
                    return Some(format!(
                        "{name} is not a direct successor of the installed {installed} (it neither replaces nor skips it, and no skipRange of it contains its version), so OLM upgrades {installed} to {} instead",
                        bundle_of(&problem.variables[s].id)
                    ));
                }
            }
        }
    }
    None
}

/// The minimal core as a tree: each subscription in it, its candidates, their
/// requirements in the core, and each provider with the core constraints that
/// rule it out (one level of providers: deeper reasons are in the sentences).
pub(super) fn unsat_tree(
    problem: &Problem,
    core: &[crate::solve::AppliedConstraint],
    notes: &Notes,
    packages: &BTreeMap<&str, &str>,
) -> Vec<SubscriptionNode> {
    let in_core: BTreeSet<(VarIndex, usize)> =
        core.iter().map(|c| (c.variable, c.constraint)).collect();
    let core_vars: BTreeSet<VarIndex> = core.iter().map(|c| c.variable).collect();
    // Core constraints that rule out `v` directly.
    let ruled_out = |v: VarIndex| -> Vec<String> {
        let mut out = Vec::new();
        for &(vi, ci) in &in_core {
            let c = &problem.variables[vi].constraints[ci];
            let hits = match &c.kind {
                ConstraintKind::Prohibited => vi == v,
                ConstraintKind::Conflict(o) => vi == v || *o == v,
                ConstraintKind::AtMost(_, ids) => ids.contains(&v),
                ConstraintKind::Dependency(ds) => vi == v && ds.is_empty(),
                ConstraintKind::Mandatory => false,
            };
            if hits {
                out.push(c.message.clone());
            }
        }
        out.sort();
        out
    };
    let candidate = |v: VarIndex, depth: usize| -> CandidateNode {
        let mut requirements = Vec::new();
        if depth == 0 {
            for (ci, c) in problem.variables[v].constraints.iter().enumerate() {
                if let ConstraintKind::Dependency(ds) = &c.kind {
                    if in_core.contains(&(v, ci)) {
                        let note = notes
                            .requirements
                            .get(&(problem.variables[v].id.clone(), c.message.clone()));
                        requirements.push(RequirementNode {
                            requirement: c.message.clone(),
                            needs: note.map(|n| n.needs.clone()).unwrap_or_default(),
                            skipped: note.map(|n| n.skipped.clone()).unwrap_or_default(),
                            unseen: note
                                .map(|n| {
                                    n.unseen
                                        .iter()
                                        .map(|(bundle, catalog, namespace)| UnseenProvider {
                                            bundle: bundle.clone(),
                                            catalog: catalog.clone(),
                                            namespace: namespace.clone(),
                                        })
                                        .collect()
                                })
                                .unwrap_or_default(),
                            providers: ds
                                .iter()
                                .map(|&d| CandidateNode {
                                    id: problem.variables[d].id.clone(),
                                    ruled_out: ruled_out(d),
                                    requirements: Vec::new(),
                                })
                                .collect(),
                        });
                    }
                }
            }
        }
        let shown: BTreeSet<&str> = requirements
            .iter()
            .map(|r| r.requirement.as_str())
            .collect();
        CandidateNode {
            id: problem.variables[v].id.clone(),
            ruled_out: ruled_out(v)
                .into_iter()
                .filter(|m| !shown.contains(m.as_str()))
                .collect(),
            requirements,
        }
    };
    let mut out = Vec::new();
    for &v in &core_vars {
        let var = &problem.variables[v];
        if !var.id.starts_with("subscription:") {
            continue;
        }
        let candidates = var
            .constraints
            .iter()
            .find_map(|c| match &c.kind {
                ConstraintKind::Dependency(ds) => {
                    Some(ds.iter().map(|&d| candidate(d, 0)).collect())
                }
                _ => None,
            })
            .unwrap_or_default();
        let name = var.id.trim_start_matches("subscription:");
        out.push(SubscriptionNode {
            subscription: name.to_owned(),
            package: packages.get(name).copied().unwrap_or_default().to_owned(),
            hint: notes.subscription_hints.get(name).cloned(),
            ruled_out: ruled_out(v),
            candidates,
        });
    }
    out
}
