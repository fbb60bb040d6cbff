//! OLM v0's resolver (`pkg/controller/registry/resolver/resolver.go`) over catalogs
//! on disk and a cluster's state: the variables, their constraints and messages, the
//! candidate orders, and the result.
//!
//! Unlike OLM, the answer does not depend on map iteration order: variables are
//! searched in identifier order, and every list is built in a fixed order.
//!
//! The jobs are split: the catalog world (entries, candidates, orders) in
//! `world`, the encoding into variables and constraints in `encode`, each
//! constraint with a typed origin and each variable with what it stands for
//! (`origin`), the explanations of an answer in `explain` and `causes`, and
//! the sentences, rendered from the origins, in `render`; here are the
//! answer's types and the entry point, generic over the [`SatBackend`].

mod causes;
mod encode;
mod explain;
mod origin;
mod render;
mod world;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use olmsat_catalog::model::Model;
use serde::Serialize;

use crate::cluster::{ClusterState, Subscription};
use crate::entry::EntryId;
use crate::predicate::{self, RequirementProperty};
use crate::sat::{SatBackend, Varisat};
use crate::solve::{self, SolveError, SolveOptions, Stats};
use encode::Builder;
use explain::{explain_choice, render_tree, unsat_tree};
use render::{Olm, Readable, Render};
use world::World;
pub use world::{sort_channel, ChannelOrderError};

/// A catalog on disk, by name.
#[derive(Debug)]
pub struct CatalogInput {
    /// The catalog's name (matched against Subscriptions' `spec.source`).
    pub name: String,
    /// Its model.
    pub model: Model,
}

/// Everything a resolution needs.
#[derive(Debug, Default)]
pub struct Input {
    /// Catalogs, any order.
    pub catalogs: Vec<CatalogInput>,
    /// Cluster state.
    pub cluster: ClusterState,
    /// The global catalog namespace, whose catalogs every namespace sees (`olm`).
    pub global_namespace: String,
    /// Resolve as if a CatalogSource whose content was not given were empty.
    /// By default such a CatalogSource fails the resolution of every namespace
    /// that sees it, as OLM fails without a registry client for it.
    pub allow_missing_catalogs: bool,
}

/// Options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Give up after this long.
    pub timeout: Option<Duration>,
}

/// A subscription in an unsatisfiable answer, and its candidates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubscriptionNode {
    /// The subscription's variable id.
    pub subscription: String,
    /// The package it subscribes to.
    pub package: String,
    /// What to do when it selects nothing (its catalog, package, channel or
    /// starting CSV as they are).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Why the subscription itself cannot be met (an invalid subscription).
    #[serde(rename = "ruledOut", skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<String>,
    /// Its candidates, in preference order.
    pub candidates: Vec<CandidateNode>,
}

/// A candidate bundle (of a subscription, or providing a requirement).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CandidateNode {
    /// The bundle's variable id.
    pub id: String,
    /// The bundle's name (its CSV name).
    pub bundle: String,
    /// The constraints of the answer that rule it out directly (deprecated,
    /// conflicts, one provider per API or package).
    #[serde(rename = "ruledOut", skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<String>,
    /// Its requirements that are part of the conflict.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<RequirementNode>,
}

/// A requirement of a candidate and the bundles that could meet it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementNode {
    /// The requirement's sentence.
    pub requirement: String,
    /// The dependency property it comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub property: Option<RequirementProperty>,
    /// What it asks for, in short (``cert-manager.io/v1 Certificate``).
    pub needs: String,
    /// When nothing is offered: bundles that meet it but that OLM never
    /// offers, each skipped by another entry of its channel.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// When nothing is offered: bundles that meet it in catalogs the
    /// namespace does not see.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unseen: Vec<UnseenProvider>,
    /// The bundles that provide it, in preference order (none: nothing provides it).
    pub providers: Vec<CandidateNode>,
}

/// A bundle that meets a requirement in a catalog the namespace does not see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnseenProvider {
    /// The bundle.
    pub bundle: String,
    /// Its catalog.
    pub catalog: String,
    /// The catalog's namespace.
    pub namespace: String,
}

/// One root cause of an unsatisfiable answer, in a sentence, with what to do.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Cause {
    /// What stops the resolution.
    pub summary: String,
    /// What would fix it, when olmsat knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// An operator to install or upgrade.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Operator {
    /// CSV name.
    pub name: String,
    /// Package.
    pub package: String,
    /// Channel.
    pub channel: String,
    /// Catalog name.
    pub catalog: String,
    /// Version (empty when unknown).
    pub version: String,
    /// The installed CSV it replaces, or "".
    pub replaces: String,
}

/// Why a bundle is in the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reason {
    /// The chosen operator's variable id.
    pub id: String,
    /// The constraints (by their sentences) that pulled it in.
    #[serde(rename = "requiredBy")]
    pub required_by: Vec<String>,
    /// Candidates preferred over it that were passed over, with why.
    #[serde(rename = "passedOver")]
    pub passed_over: Vec<PassedOver>,
}

/// A Subscription whose installed CSV stays although it has candidates to
/// upgrade to: the rest of the answer rules each of them out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stay {
    /// The Subscription's name.
    pub subscription: String,
    /// The installed CSV that stays.
    pub installed: String,
    /// The candidates passed over, in preference order, with why.
    #[serde(rename = "passedOver")]
    pub passed_over: Vec<PassedOver>,
}

/// A preferred candidate that was not chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassedOver {
    /// The candidate's variable id.
    pub id: String,
    /// The constraints that rule it out together with the rest of the answer.
    pub because: Vec<String>,
}

/// The outcome of resolving one namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A solution: new installs and replacements, sorted by name.
    Resolved {
        /// Operators to install or upgrade.
        operators: Vec<Operator>,
        /// Why each one is there.
        reasons: Vec<Reason>,
        /// The Subscriptions that stay at their installed CSV although they
        /// have candidates to upgrade to, sorted by name.
        stays: Vec<Stay>,
    },
    /// No solution: the minimal set of constraints that cannot hold together.
    Unsatisfiable {
        /// Their sentences, sorted.
        constraints: Vec<String>,
        /// One sentence per root cause, with a hint, derived from the tree.
        causes: Vec<Cause>,
        /// The same, as a tree from each subscription down to why each provider
        /// of each requirement was ruled out.
        tree: Vec<SubscriptionNode>,
    },
}

impl Outcome {
    /// OLM's error text for an unsatisfiable outcome.
    pub fn message(&self) -> Option<String> {
        match self {
            Outcome::Resolved { .. } => None,
            Outcome::Unsatisfiable { constraints, .. } => Some(if constraints.is_empty() {
                "constraints not satisfiable".to_owned()
            } else {
                format!("constraints not satisfiable: {}", constraints.join(", "))
            }),
        }
    }
}

/// A resolution of one namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The namespace.
    pub namespace: String,
    /// The outcome.
    pub outcome: Outcome,
    /// Problem size and solver work.
    pub stats: Stats,
    /// Variables in the problem.
    pub variables: usize,
}

/// Why resolution could not run (OLM's "ErrorPreventedResolution").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// A dependency property that cannot be turned into a predicate.
    #[error(transparent)]
    Requirement(#[from] predicate::RequirementError),
    /// A predicate that cannot be evaluated on a candidate.
    #[error(transparent)]
    Predicate(#[from] predicate::PredicateError),
    /// A channel whose order cannot be determined.
    #[error(transparent)]
    Channel(#[from] ChannelOrderError),
    /// Several installed CSVs match a Subscription's installedCSV.
    #[error(
        "multiple name matches for status.installedCSV of subscription {namespace}/{name}: {csv}"
    )]
    MultipleInstalled {
        /// Subscription namespace.
        namespace: String,
        /// Subscription name.
        name: String,
        /// The CSV name.
        csv: String,
    },
    /// A namespace with Subscriptions needs exactly one OperatorGroup (checked
    /// when the cluster state holds OperatorGroups at all).
    #[error("expected 1 OperatorGroup in the namespace, found {found}")]
    OperatorGroups {
        /// How many the namespace has.
        found: usize,
    },
    /// CatalogSources the namespace sees whose content was not given: OLM has
    /// no registry client for them and fails the whole resolution, whether or
    /// not a Subscription uses them. Several are listed as Kubernetes'
    /// aggregate error lists them, sorted (OLM's order is a map's).
    #[error("{}", aggregate(&.0.iter().map(|(ns, name)| format!("error using catalogsource {ns}/{name}: no registry client established for catalogsource {ns}/{name}")).collect::<Vec<_>>()))]
    NoRegistryClient(Vec<(String, String)>),
    /// Several Subscriptions could not be turned into variables; OLM goes on
    /// with the others and reports them together.
    #[error("{}", aggregate(&.0.iter().map(ToString::to_string).collect::<Vec<_>>()))]
    Several(Vec<ResolveError>),
    /// The time limit passed.
    #[error("gave up: resolution did not finish within the time limit")]
    TimedOut,
    /// The solver failed.
    #[error("{0}")]
    Solver(String),
}

impl ResolveError {
    /// What to do about it, when olmsat knows.
    pub fn hint(&self) -> Option<String> {
        match self {
            ResolveError::NoRegistryClient(missing) => {
                let names: BTreeSet<&str> = missing.iter().map(|(_, n)| n.as_str()).collect();
                let flags: Vec<String> =
                    names.iter().map(|n| format!("--catalog {n}=DIR")).collect();
                Some(format!(
                    "give the content of {} with {}, or pass --allow-missing-catalogs to resolve as if {} empty",
                    if missing.len() == 1 { "this CatalogSource" } else { "these CatalogSources" },
                    flags.join(" "),
                    if missing.len() == 1 { "it were" } else { "they were" },
                ))
            }
            ResolveError::Several(errors) => {
                let hints: Vec<String> = errors.iter().filter_map(ResolveError::hint).collect();
                (!hints.is_empty()).then(|| hints.join("; "))
            }
            _ => None,
        }
    }
}

/// Kubernetes' aggregate error text: one message alone, several (repeats
/// dropped) as `[a, b]`.
fn aggregate(messages: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for m in messages {
        if !seen.contains(&m.as_str()) {
            seen.push(m);
        }
    }
    match seen.as_slice() {
        [one] => (*one).to_owned(),
        all => format!("[{}]", all.join(", ")),
    }
}

/// The CatalogSources namespace `namespace` sees (its own and, unless its
/// OperatorGroup excludes them, the global catalog namespace's) whose content
/// is not among the catalogs given, sorted by namespace and name. A catalog
/// given by name is the content of the first CatalogSource of that name.
pub fn missing_catalogs(input: &Input, namespace: &str) -> Vec<(String, String)> {
    let cluster = &input.cluster;
    let sees_global = !cluster
        .operator_groups
        .iter()
        .any(|g| g.namespace == namespace && g.exclude_global_catalogs);
    let mut out: Vec<(String, String)> = cluster
        .catalog_sources
        .iter()
        .enumerate()
        .filter(|(_, cs)| {
            cs.namespace == namespace || (sees_global && cs.namespace == input.global_namespace)
        })
        .filter(|&(i, cs)| {
            let first = cluster
                .catalog_sources
                .iter()
                .position(|c| c.name == cs.name);
            !(first == Some(i) && input.catalogs.iter().any(|c| c.name == cs.name))
        })
        .map(|(_, cs)| (cs.namespace.clone(), cs.name.clone()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The namespaces that have subscriptions or installed CSVs (copies are not
/// installed CSVs), sorted. OLM resolves each on its own, seeing its own
/// catalogs and those of the global catalog namespace.
pub fn namespaces(cluster: &ClusterState) -> Vec<String> {
    let mut ns: BTreeSet<String> = cluster
        .subscriptions
        .iter()
        .map(|s| s.namespace.clone())
        .collect();
    ns.extend(cluster.csvs.iter().map(|c| c.namespace.clone()));
    ns.into_iter().collect()
}

/// The messages of several namespaces' failed resolutions as one text: the
/// message alone when one namespace failed, else `namespace NS: MESSAGE` for
/// each, joined by `; `.
pub fn join_messages(failures: &[(&str, &str)]) -> String {
    match failures {
        [(_, message)] => (*message).to_owned(),
        _ => failures
            .iter()
            .map(|(ns, m)| format!("namespace {ns}: {m}"))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// Resolve one namespace with the default SAT backend ([`Varisat`]).
pub fn resolve(
    input: &Input,
    namespace: &str,
    options: Options,
) -> Result<Resolution, ResolveError> {
    resolve_with(input, namespace, options, Varisat::default())
}

/// Resolve one namespace with `backend`, a fresh solver.
pub fn resolve_with<B: SatBackend>(
    input: &Input,
    namespace: &str,
    options: Options,
    backend: B,
) -> Result<Resolution, ResolveError> {
    // OLM's step resolver refuses a namespace without exactly one
    // OperatorGroup. A cluster state without any says nothing about them.
    let groups = &input.cluster.operator_groups;
    if !groups.is_empty()
        && input
            .cluster
            .subscriptions
            .iter()
            .any(|s| s.namespace == namespace)
    {
        let found = groups.iter().filter(|g| g.namespace == namespace).count();
        if found != 1 {
            return Err(ResolveError::OperatorGroups { found });
        }
    }
    let mut world = World::new(input, namespace);
    let mut subs: Vec<&Subscription> = input
        .cluster
        .subscriptions
        .iter()
        .filter(|s| s.namespace == namespace)
        .collect();
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    let subscribed: BTreeSet<String> = subs
        .iter()
        .map(|s| s.installed_csv.clone())
        .filter(|c| !c.is_empty())
        .collect();
    let existing_entries = world.catalogs[world.existing].entries.clone();
    let mut b = Builder::new(&mut world);
    b.bundle_variables(
        existing_entries.iter().rev().copied().collect(),
        &subscribed,
    )?;
    let mut errors = Vec::new();
    for sub in &subs {
        let matches: Vec<EntryId> = existing_entries
            .iter()
            .copied()
            .filter(|&e| !sub.installed_csv.is_empty() && b.w.entries[e].name == sub.installed_csv)
            .collect();
        if matches.len() > 1 {
            return Err(ResolveError::MultipleInstalled {
                namespace: sub.namespace.clone(),
                name: sub.name.clone(),
                csv: sub.installed_csv.clone(),
            });
        }
        if let Err(e) = b.subscription(sub, matches.first().copied(), &subscribed) {
            errors.push(e);
        }
    }
    b.invariants();
    // As OLM: the catalogs' errors first, then the Subscriptions'.
    if !input.allow_missing_catalogs {
        let missing = missing_catalogs(input, namespace);
        if !missing.is_empty() {
            return Err(ResolveError::NoRegistryClient(missing));
        }
    }
    match errors.len() {
        0 => {}
        1 => return Err(errors.remove(0)),
        _ => return Err(ResolveError::Several(errors)),
    }
    let enc = b.into_problem();
    let deadline = options.timeout.map(|t| Instant::now() + t);
    let result = solve::solve(&enc.problem, backend, SolveOptions { deadline });
    let variables = enc.problem.variables.len();
    match result {
        Ok(sol) => {
            let mut operators = Vec::new();
            let mut reasons = Vec::new();
            for &vi in &sol.selected {
                let Some(bundle) = enc.interner.bundle(vi) else {
                    continue;
                };
                if bundle.catalog.is_virtual() {
                    continue;
                }
                let en = &world.entries[bundle.entry];
                operators.push(Operator {
                    name: bundle.name.clone(),
                    package: en.package.clone(),
                    channel: bundle.channel.clone(),
                    catalog: bundle.catalog.name.clone(),
                    version: en
                        .version
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_default(),
                    replaces: enc.replaces(vi).unwrap_or_default().to_owned(),
                });
                reasons.push(explain_choice(&enc, &sol.selected, vi));
            }
            operators.sort();
            reasons.sort_by(|a, b| a.id.cmp(&b.id));
            Ok(Resolution {
                namespace: namespace.to_owned(),
                outcome: Outcome::Resolved {
                    operators,
                    reasons,
                    stays: explain::stays(&enc, &sol.selected),
                },
                stats: sol.stats,
                variables,
            })
        }
        Err(SolveError::NotSatisfiable(core)) => {
            let core_tree = unsat_tree(&enc, &core);
            // The summaries name bundles readably; OLM's message and the
            // tree are OLM's sentences.
            let causes = causes::of(&enc, &core_tree, namespace, &Readable);
            let tree = render_tree(&enc, &core_tree, &Olm);
            let mut constraints: Vec<String> =
                core.iter().map(|&at| Olm.sentence(&enc, at)).collect();
            constraints.sort();
            constraints.dedup();
            Ok(Resolution {
                namespace: namespace.to_owned(),
                outcome: Outcome::Unsatisfiable {
                    constraints,
                    causes,
                    tree,
                },
                stats: Stats::default(),
                variables,
            })
        }
        Err(SolveError::TimedOut) => Err(ResolveError::TimedOut),
        Err(SolveError::Backend(e)) => Err(ResolveError::Solver(e.to_string())),
    }
}
