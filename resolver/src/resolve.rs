//! OLM v0's resolver (`pkg/controller/registry/resolver/resolver.go`) over catalogs
//! on disk and a cluster's state: the variables, their constraints and messages, the
//! candidate orders, and the result.
//!
//! Unlike OLM, the answer does not depend on map iteration order: variables are
//! searched in identifier order, and every list is built in a fixed order.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

use olmsat_graph::model::Model;
use olmsat_graph::property::{types, Gvk, PropertyValue};
use olmsat_graph::rawjson::to_raw;
use serde::Serialize;

use crate::cluster::{ClusterState, Subscription};
use crate::entry::{CatalogKey, Entry, EntryId};
use crate::predicate::{self, Predicate};
use crate::problem::{ConstraintKind, Problem, VarIndex};
use crate::sat::Varisat;
use crate::solve::{self, SolveError, SolveOptions, Stats};

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
    /// The bundles that provide it, in preference order (none: nothing provides it).
    pub providers: Vec<CandidateNode>,
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
    },
    /// No solution: the minimal set of constraints that cannot hold together.
    Unsatisfiable {
        /// Their sentences, sorted.
        constraints: Vec<String>,
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
    Predicate(#[from] predicate::PredicateError),
    /// A channel whose order cannot be determined.
    #[error("{0}")]
    Channel(String),
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
    /// The time limit passed.
    #[error("gave up: resolution did not finish within the time limit")]
    TimedOut,
    /// The solver failed.
    #[error("{0}")]
    Solver(String),
}

struct Catalog {
    key: CatalogKey,
    priority: i64,
    /// Entries in catalog order: packages by name, channels by name, entries in
    /// channel order.
    entries: Vec<EntryId>,
}

/// The catalogs and installed operators seen from one namespace.
struct World {
    entries: Vec<Entry>,
    catalogs: Vec<Catalog>,
    existing: usize,
    namespace: String,
    /// Catalogs visible from the namespace (existing included), by index.
    visible: Vec<usize>,
    /// Entries per (catalog, package, channel), in catalog order.
    channels: BTreeMap<(usize, String, String), Vec<EntryId>>,
    sorted: HashMap<(usize, String, String), Result<Vec<EntryId>, String>>,
    /// Visible entries by the API they provide, package and label (ascending ids).
    by_gvk: HashMap<Gvk, Vec<EntryId>>,
    by_package: HashMap<String, Vec<EntryId>>,
    by_label: HashMap<String, Vec<EntryId>>,
    /// Every visible entry (ascending ids), for predicates no index serves.
    all_visible: Vec<EntryId>,
}

fn catalog_namespace(input: &Input, name: &str, namespace: &str) -> (String, i64) {
    if let Some(cs) = input
        .cluster
        .catalog_sources
        .iter()
        .find(|c| c.name == name)
    {
        return (cs.namespace.clone(), cs.priority);
    }
    // No CatalogSource: the namespace the subscriptions that use it name, else the
    // resolution namespace.
    let mut from_subs: Vec<&str> = input
        .cluster
        .subscriptions
        .iter()
        .filter(|s| s.source == name && !s.source_namespace.is_empty())
        .map(|s| s.source_namespace.as_str())
        .collect();
    from_subs.sort_unstable();
    (
        from_subs
            .first()
            .map(|s| (*s).to_owned())
            .unwrap_or_else(|| namespace.to_owned()),
        0,
    )
}

impl World {
    fn new(input: &Input, namespace: &str) -> World {
        let mut w = World {
            entries: Vec::new(),
            catalogs: Vec::new(),
            existing: 0,
            namespace: namespace.to_owned(),
            visible: Vec::new(),
            channels: BTreeMap::new(),
            sorted: HashMap::new(),
            by_gvk: HashMap::new(),
            by_package: HashMap::new(),
            by_label: HashMap::new(),
            all_visible: Vec::new(),
        };
        let mut cats: Vec<&CatalogInput> = input.catalogs.iter().collect();
        cats.sort_by(|a, b| a.name.cmp(&b.name));
        for c in cats {
            let (ns, priority) = catalog_namespace(input, &c.name, namespace);
            let ci = w.catalogs.len();
            let mut ids = Vec::new();
            for p in &c.model.packages {
                for ch in &p.channels {
                    for e in &ch.entries {
                        let Some(b) = p.bundle(&e.name) else { continue };
                        let id = w.entries.len();
                        w.entries.push(Entry {
                            name: e.name.clone(),
                            package: p.name.clone(),
                            channel: ch.name.clone(),
                            catalog: ci,
                            default_channel: ch.name == p.default_channel,
                            version: b.version.clone(),
                            replaces: e.replaces.clone(),
                            skips: e.skips.clone(),
                            skip_range: e.skip_range.clone(),
                            properties: b.properties.clone(),
                            values: b.values.clone(),
                            location: Some(e.location.clone()),
                        });
                        ids.push(id);
                    }
                }
            }
            w.catalogs.push(Catalog {
                key: CatalogKey {
                    name: c.name.clone(),
                    namespace: ns,
                },
                priority,
                entries: ids,
            });
        }
        // Installed CSVs of this namespace.
        let existing = w.catalogs.len();
        w.existing = existing;
        let subs_by_csv: HashMap<&str, &Subscription> = input
            .cluster
            .subscriptions
            .iter()
            .filter(|s| s.namespace == namespace && !s.installed_csv.is_empty())
            .map(|s| (s.installed_csv.as_str(), s))
            .collect();
        let mut ids = Vec::new();
        let mut csvs: Vec<_> = input
            .cluster
            .csvs
            .iter()
            .filter(|c| c.namespace == namespace)
            .collect();
        csvs.sort_by(|a, b| a.name.cmp(&b.name));
        for csv in csvs {
            let mut properties = csv.properties.clone();
            let mut values = Entry::interpret(&properties);
            let package = match subs_by_csv.get(csv.name.as_str()) {
                Some(s) => s.package.clone(),
                None => values
                    .iter()
                    .find_map(|v| match v {
                        PropertyValue::Package { package_name, .. } => Some(package_name.clone()),
                        _ => None,
                    })
                    .unwrap_or_default(),
            };
            if !package.is_empty()
                && !values
                    .iter()
                    .any(|v| matches!(v, PropertyValue::Package { .. }))
            {
                properties.push(olmsat_graph::declcfg::Property {
                    type_: types::PACKAGE.to_owned(),
                    value: to_raw(&serde_json::json!({
                        "packageName": package,
                        "version": csv.version.as_ref().map(|v| v.to_string()).unwrap_or_default(),
                    })),
                });
                values = Entry::interpret(&properties);
            }
            let id = w.entries.len();
            w.entries.push(Entry {
                name: csv.name.clone(),
                package,
                channel: String::new(),
                catalog: existing,
                default_channel: false,
                version: csv.version.clone(),
                replaces: csv.replaces.clone(),
                skips: csv.skips.clone(),
                skip_range: csv.skip_range.clone(),
                properties,
                values,
                location: Some(csv.location.clone()),
            });
            ids.push(id);
        }
        w.catalogs.push(Catalog {
            key: CatalogKey {
                name: CatalogKey::EXISTING.to_owned(),
                namespace: namespace.to_owned(),
            },
            priority: 0,
            entries: ids,
        });
        for (ci, c) in w.catalogs.iter().enumerate() {
            if ci == existing
                || c.key.namespace == namespace
                || c.key.namespace == input.global_namespace
            {
                w.visible.push(ci);
                for &e in &c.entries {
                    w.all_visible.push(e);
                    for v in &w.entries[e].values {
                        match v {
                            PropertyValue::Gvk(g) => w.by_gvk.entry(g.clone()).or_default().push(e),
                            PropertyValue::Package { package_name, .. } => w
                                .by_package
                                .entry(package_name.clone())
                                .or_default()
                                .push(e),
                            PropertyValue::Label(l) => {
                                w.by_label.entry(l.clone()).or_default().push(e)
                            }
                            _ => {}
                        }
                    }
                }
            }
            for &e in &c.entries {
                let en = &w.entries[e];
                w.channels
                    .entry((ci, en.package.clone(), en.channel.clone()))
                    .or_default()
                    .push(e);
            }
        }
        w
    }

    fn id(&self, e: EntryId) -> String {
        let en = &self.entries[e];
        format!(
            "{}/{}/{}",
            self.catalogs[en.catalog].key, en.channel, en.name
        )
    }

    /// A whole channel in OLM's order (cached).
    fn sorted_channel(
        &mut self,
        key: &(usize, String, String),
    ) -> Result<Vec<EntryId>, ResolveError> {
        if !self.sorted.contains_key(key) {
            let members = self.channels.get(key).cloned().unwrap_or_default();
            let r = sort_channel(&self.entries, &members);
            self.sorted.insert(key.clone(), r);
        }
        match self.sorted.get(key) {
            Some(Ok(v)) => Ok(v.clone()),
            Some(Err(e)) => Err(ResolveError::Channel(e.clone())),
            None => Ok(Vec::new()),
        }
    }

    /// Visible entries that may satisfy `d` (a superset, ascending ids): from the
    /// indexes when the predicate names an API, package or label, else all.
    fn pool(&self, d: &Predicate) -> Vec<EntryId> {
        fn indexed(w: &World, d: &Predicate) -> Option<Vec<EntryId>> {
            match d {
                Predicate::Gvk(g) => Some(w.by_gvk.get(g).cloned().unwrap_or_default()),
                Predicate::Package { name, .. } => {
                    Some(w.by_package.get(name).cloned().unwrap_or_default())
                }
                Predicate::Label(l) => Some(w.by_label.get(l).cloned().unwrap_or_default()),
                Predicate::All(ps) => ps.iter().find_map(|p| indexed(w, p)),
                Predicate::Any(ps) => {
                    let mut out = BTreeSet::new();
                    for p in ps {
                        out.extend(indexed(w, p)?);
                    }
                    Some(out.into_iter().collect())
                }
                Predicate::Not(_) | Predicate::Cel(_) => None,
            }
        }
        let mut v = indexed(self, d).unwrap_or_else(|| self.all_visible.clone());
        v.dedup();
        v
    }

    /// Catalog indices in OLM's preference order (`FindPreferred`).
    fn preferred_catalogs(&self, preferred: usize) -> Vec<usize> {
        let mut v = self.visible.clone();
        v.sort_by(|&a, &b| {
            let ka = &self.catalogs[a];
            let kb = &self.catalogs[b];
            (a != self.existing)
                .cmp(&(b != self.existing))
                .then((a != preferred).cmp(&(b != preferred)))
                .then(kb.priority.cmp(&ka.priority))
                .then(
                    (ka.key.namespace != self.namespace).cmp(&(kb.key.namespace != self.namespace)),
                )
                .then(ka.key.name.cmp(&kb.key.name))
                .then(ka.key.namespace.cmp(&kb.key.namespace))
        });
        v
    }
}

/// OLM's `sortChannel`: head first along `replaces`; entries skipped by another
/// entry of the set are left out; more than one chain, no head, or a cycle is an
/// error.
pub fn sort_channel(entries: &[Entry], members: &[EntryId]) -> Result<Vec<EntryId>, String> {
    if members.is_empty() {
        return Ok(Vec::new());
    }
    let first = &entries[members[0]];
    let (pkg, ch) = (&first.package, &first.channel);
    let by_name: HashMap<&str, EntryId> = members
        .iter()
        .map(|&m| (entries[m].name.as_str(), m))
        .collect();
    let mut replaced_by: HashMap<EntryId, EntryId> = HashMap::new();
    let mut replaces: HashMap<EntryId, EntryId> = HashMap::new();
    let mut skipped: BTreeSet<&str> = BTreeSet::new();
    for &b in members {
        let e = &entries[b];
        if let Some(r) = e.replaces.as_deref().and_then(|r| by_name.get(r)) {
            replaced_by.insert(*r, b);
            replaces.insert(b, *r);
        }
        for s in &e.skips {
            if let Some(r) = by_name.get(s.as_str()) {
                replaced_by.insert(*r, b);
                skipped.insert(s.as_str());
            }
        }
    }
    let heads: Vec<EntryId> = members
        .iter()
        .copied()
        .filter(|m| !replaced_by.contains_key(m))
        .collect();
    if heads.is_empty() {
        return Err(format!(
            "no channel heads (entries not replaced by another entry) found in channel {ch:?} of package {pkg:?}"
        ));
    }
    let mut chains = Vec::new();
    for &head in &heads {
        let mut chain = Vec::new();
        let mut visited = BTreeSet::new();
        let mut cur = head;
        loop {
            visited.insert(cur);
            if !skipped.contains(entries[cur].name.as_str()) {
                chain.push(cur);
            }
            let Some(&next) = replaces.get(&cur) else {
                break;
            };
            if visited.contains(&next) {
                return Err(format!(
                    "a cycle exists in the chain of replacement beginning with {:?} in channel {ch:?} of package {pkg:?}",
                    entries[head].name
                ));
            }
            cur = next;
        }
        chains.push(chain);
    }
    if chains.len() > 1 {
        let names: Vec<String> = chains
            .iter()
            .map(|c| match c.len() {
                0 => "[]".to_owned(),
                1 => entries[c[0]].name.clone(),
                _ => format!("{}...{}", entries[c[0]].name, entries[c[c.len() - 1]].name),
            })
            .collect();
        return Err(format!(
            "a unique replacement chain within a channel is required to determine the relative order between channel entries, but {} replacement chains were found in channel {ch:?} of package {pkg:?}: {}",
            names.len(),
            names.join(", ")
        ));
    }
    Ok(chains.into_iter().next().unwrap_or_default())
}

/// A variable under construction.
struct Var {
    id: String,
    constraints: Vec<(Kind, String)>,
}

/// A constraint whose other variables are builder handles (indices into
/// `Builder::vars`); they are renumbered in identifier order at the end.
enum Kind {
    Mandatory,
    Prohibited,
    Dependency(Vec<usize>),
    Conflict(usize),
    AtMost(usize, Vec<usize>),
}

struct Builder<'w> {
    w: &'w mut World,
    /// Candidates per (predicate text, dependent's catalog): bundles of one
    /// package usually share their requirements.
    candidates: HashMap<(String, usize), Vec<EntryId>>,
    vars: Vec<Var>,
    by_id: HashMap<String, usize>,
    /// The variable of each entry that has one.
    entry_var: HashMap<EntryId, usize>,
    visited: BTreeSet<EntryId>,
    /// Candidates of a subscription with an installed CSV: the CSV they replace.
    replaces: HashMap<usize, String>,
}

impl Builder<'_> {
    fn var(&mut self, id: &str) -> usize {
        if let Some(&v) = self.by_id.get(id) {
            return v;
        }
        self.vars.push(Var {
            id: id.to_owned(),
            constraints: Vec::new(),
        });
        self.by_id.insert(id.to_owned(), self.vars.len() - 1);
        self.vars.len() - 1
    }

    fn entry_var(&mut self, e: EntryId) -> usize {
        if let Some(&v) = self.entry_var.get(&e) {
            return v;
        }
        let id = self.w.id(e);
        let v = self.var(&id);
        self.entry_var.insert(e, v);
        v
    }

    /// OLM's `getBundleVariables`: each entry of the stack and, transitively, the
    /// candidates of its dependencies.
    fn bundle_variables(
        &mut self,
        mut stack: Vec<EntryId>,
        subscribed: &BTreeSet<String>,
    ) -> Result<(), ResolveError> {
        while let Some(e) = stack.pop() {
            if !self.visited.insert(e) {
                continue;
            }
            let var = self.entry_var(e);
            let (name, existing, deprecated, predicates) = {
                let en = &self.w.entries[e];
                (
                    en.name.clone(),
                    en.catalog == self.w.existing,
                    en.deprecated(),
                    predicate::for_properties(en)?,
                )
            };
            let mut constraints = Vec::new();
            if existing && !subscribed.contains(&name) {
                constraints.push((
                    Kind::Mandatory,
                    format!("clusterserviceversion {name} exists and is not referenced by a subscription"),
                ));
            }
            if deprecated {
                constraints.push((Kind::Prohibited, format!("bundle {name} is deprecated")));
            }
            for d in predicates {
                let candidates = self.dependency_candidates(e, &d)?;
                let vars: Vec<usize> = candidates.iter().map(|&c| self.entry_var(c)).collect();
                stack.extend(candidates);
                constraints.push((
                    Kind::Dependency(vars),
                    format!("bundle {name} requires an operator {d}"),
                ));
            }
            self.vars[var].constraints.extend(constraints);
        }
        Ok(())
    }

    /// The entries that satisfy `d` for bundle `e`, in OLM's order: catalogs by
    /// preference, then default channels first, package, channel, and each channel
    /// along its replaces chain (skipped entries never qualify).
    fn dependency_candidates(
        &mut self,
        e: EntryId,
        d: &Predicate,
    ) -> Result<Vec<EntryId>, ResolveError> {
        let preferred = self.w.entries[e].catalog;
        let key = (d.to_string(), preferred);
        if let Some(c) = self.candidates.get(&key) {
            return Ok(c.clone());
        }
        let out = self.find_candidates(preferred, d)?;
        self.candidates.insert(key, out.clone());
        Ok(out)
    }

    fn find_candidates(
        &mut self,
        preferred: usize,
        d: &Predicate,
    ) -> Result<Vec<EntryId>, ResolveError> {
        // The (catalog, package, channel) sources holding at least one match.
        let mut sources: BTreeSet<(usize, String, String)> = BTreeSet::new();
        let mut virtual_matches: BTreeSet<EntryId> = BTreeSet::new();
        for x in self.w.pool(d) {
            let en = &self.w.entries[x];
            if d.matches(en)? {
                if en.catalog == self.w.existing {
                    virtual_matches.insert(x);
                } else {
                    sources.insert((en.catalog, en.package.clone(), en.channel.clone()));
                }
            }
        }
        let mut out = Vec::new();
        for ci in self.w.preferred_catalogs(preferred) {
            // Channels of this catalog, default channels first, then package, channel.
            let mut keys: Vec<(bool, String, String)> = Vec::new();
            if ci == self.w.existing {
                let pkgs: BTreeSet<String> = virtual_matches
                    .iter()
                    .map(|&x| self.w.entries[x].package.clone())
                    .collect();
                for p in pkgs {
                    keys.push((false, p, String::new()));
                }
            } else {
                for (c, p, ch) in &sources {
                    if *c == ci {
                        let default = self
                            .w
                            .channels
                            .get(&(ci, p.clone(), ch.clone()))
                            .and_then(|v| v.first())
                            .is_some_and(|&x| self.w.entries[x].default_channel);
                        keys.push((default, p.clone(), ch.clone()));
                    }
                }
            }
            keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            for (_, p, ch) in keys {
                let ordered = if ci == self.w.existing {
                    let members: Vec<EntryId> = virtual_matches
                        .iter()
                        .copied()
                        .filter(|&x| self.w.entries[x].package == p)
                        .collect();
                    sort_channel(&self.w.entries, &members).map_err(ResolveError::Channel)?
                } else {
                    self.w.sorted_channel(&(ci, p, ch))?
                };
                for x in ordered {
                    if d.matches(&self.w.entries[x])? {
                        out.push(x);
                    }
                }
            }
        }
        Ok(out)
    }

    /// OLM's `getSubscriptionVariables`.
    fn subscription(
        &mut self,
        sub: &Subscription,
        current: Option<EntryId>,
        subscribed: &BTreeSet<String>,
    ) -> Result<(), ResolveError> {
        let sub_id = format!("subscription:{}", sub.name);
        let cat = self.w.visible.iter().copied().find(|&ci| {
            let k = &self.w.catalogs[ci].key;
            ci != self.w.existing
                && k.name == sub.source
                && (sub.source_namespace.is_empty() || k.namespace == sub.source_namespace)
        });
        let (mut nall, mut npkg, mut nch, mut ncsv) = (0, 0, 0, 0);
        let mut entries = Vec::new();
        if let Some(ci) = cat {
            for &x in &self.w.catalogs[ci].entries {
                let en = &self.w.entries[x];
                nall += 1;
                if en.package != sub.package {
                    continue;
                }
                npkg += 1;
                if !sub.channel.is_empty() && en.channel != sub.channel {
                    continue;
                }
                nch += 1;
                if current.is_none() && !sub.starting_csv.is_empty() && en.name != sub.starting_csv
                {
                    continue;
                }
                ncsv += 1;
                entries.push(x);
            }
        }
        let invalid = if nall == 0 {
            Some(format!(
                "no operators found from catalog {} in namespace {} referenced by subscription {}",
                sub.source, sub.source_namespace, sub.name
            ))
        } else if npkg == 0 {
            Some(format!(
                "no operators found in package {} in the catalog referenced by subscription {}",
                sub.package, sub.name
            ))
        } else if nch == 0 {
            Some(format!(
                "no operators found in channel {} of package {} in the catalog referenced by subscription {}",
                sub.channel, sub.package, sub.name
            ))
        } else if ncsv == 0 {
            Some(format!(
                "no operators found with name {} in channel {} of package {} in the catalog referenced by subscription {}",
                sub.starting_csv, sub.channel, sub.package, sub.name
            ))
        } else {
            None
        };
        if let Some(reason) = invalid {
            let v = self.var(&sub_id);
            let v = &mut self.vars[v];
            v.constraints
                .push((Kind::Mandatory, format!("subscription {} exists", sub.name)));
            v.constraints.push((Kind::Prohibited, reason));
            return Ok(());
        }
        // Default channel first, then channels by name; each in OLM's channel order.
        let mut groups: BTreeMap<(bool, String), Vec<EntryId>> = BTreeMap::new();
        for &x in &entries {
            let en = &self.w.entries[x];
            groups
                .entry((!en.default_channel, en.channel.clone()))
                .or_default()
                .push(x);
        }
        let mut sorted = Vec::new();
        for members in groups.values() {
            sorted.extend(sort_channel(&self.w.entries, members).map_err(ResolveError::Channel)?);
        }
        if let Some(cur) = current {
            let cur_entry = self.w.entries[cur].clone();
            sorted.retain(|&x| {
                let en = &self.w.entries[x];
                en.replaces.as_deref() == Some(cur_entry.name.as_str())
                    || en.skips.contains(&cur_entry.name)
                    || cur_entry
                        .version
                        .as_ref()
                        .is_some_and(|v| en.skip_range_includes(v))
            });
        }
        self.bundle_variables(sorted.clone(), subscribed)?;
        let mut deps: Vec<usize> = Vec::new();
        for &x in &sorted {
            let v = self.entry_var(x);
            if !deps.contains(&v) {
                deps.push(v);
            }
        }
        if let Some(cur) = current {
            let cur_var = self.entry_var(cur);
            let cur_name = self.w.entries[cur].name.clone();
            for &d in &deps {
                let msg = format!(
                    "{} conflicts with {}",
                    self.vars[d].id, self.vars[cur_var].id
                );
                self.vars[d]
                    .constraints
                    .push((Kind::Conflict(cur_var), msg));
                self.replaces.insert(d, cur_name.clone());
            }
            deps.push(cur_var);
        }
        let msg = {
            let names: Vec<&str> = deps.iter().map(|&d| self.vars[d].id.as_str()).collect();
            match names.len() {
                0 => format!(
                    "no operators found matching the criteria of subscription {}",
                    sub.name
                ),
                1 => format!("subscription {} requires {}", sub.name, names[0]),
                n => format!(
                    "subscription {} requires at least one of {} or {}",
                    sub.name,
                    names[..n - 1].join(", "),
                    names[n - 1]
                ),
            }
        };
        let v = self.var(&sub_id);
        let v = &mut self.vars[v];
        v.constraints
            .push((Kind::Mandatory, format!("subscription {} exists", sub.name)));
        v.constraints.push((Kind::Dependency(deps), msg));
        Ok(())
    }

    /// OLM's `addInvariants`: at most one provider per GVK and one bundle per package.
    fn invariants(&mut self) {
        let mut gvks: BTreeMap<Gvk, Vec<usize>> = BTreeMap::new();
        let mut pkgs: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (&e, &v) in &self.entry_var {
            for value in &self.w.entries[e].values {
                match value {
                    PropertyValue::Gvk(g) => gvks.entry(g.clone()).or_default().push(v),
                    PropertyValue::Package { package_name, .. } => {
                        pkgs.entry(package_name.clone()).or_default().push(v)
                    }
                    _ => {}
                }
            }
        }
        let add = |b: &mut Self, name: String, mut vs: Vec<usize>, one: String, provide: &str| {
            vs.sort_by(|a, c| b.vars[*a].id.cmp(&b.vars[*c].id));
            vs.dedup();
            if vs.len() < 2 {
                return;
            }
            let ids: Vec<&str> = vs.iter().map(|&v| b.vars[v].id.as_str()).collect();
            let n = ids.len();
            let msg = format!("{} and {} {provide}", ids[..n - 1].join(", "), ids[n - 1]);
            let v = b.var(&name);
            b.vars[v].constraints.push((Kind::Mandatory, one));
            b.vars[v].constraints.push((Kind::AtMost(1, vs), msg));
        };
        for (g, vs) in gvks {
            let name = format!("{} ({}/{})", g.kind, g.group, g.version);
            let one = format!("there can be only one provider of {name}");
            let provide = format!("provide {name}");
            add(self, name, vs, one, &provide);
        }
        for (p, vs) in pkgs {
            let one = format!("there can be only one operator from package {p}");
            let provide = format!("originate from package {p}");
            add(self, p, vs, one, &provide);
        }
    }

    /// The solver's problem, variables in identifier order (the search order), and
    /// for each problem variable its entry and the CSV it replaces.
    fn into_problem(
        self,
    ) -> (
        Problem,
        HashMap<VarIndex, EntryId>,
        HashMap<VarIndex, String>,
    ) {
        let mut order: Vec<usize> = (0..self.vars.len()).collect();
        order.sort_by(|a, b| self.vars[*a].id.cmp(&self.vars[*b].id));
        let mut new_index = vec![0usize; self.vars.len()];
        for (pos, &old) in order.iter().enumerate() {
            new_index[old] = pos;
        }
        let mut p = Problem::default();
        for &old in &order {
            let v = &self.vars[old];
            let vi = p.add(v.id.clone());
            for (k, msg) in &v.constraints {
                let kind = match k {
                    Kind::Mandatory => ConstraintKind::Mandatory,
                    Kind::Prohibited => ConstraintKind::Prohibited,
                    Kind::Dependency(ds) => {
                        ConstraintKind::Dependency(ds.iter().map(|&d| new_index[d]).collect())
                    }
                    Kind::Conflict(o) => ConstraintKind::Conflict(new_index[*o]),
                    Kind::AtMost(n, ids) => {
                        ConstraintKind::AtMost(*n, ids.iter().map(|&d| new_index[d]).collect())
                    }
                };
                p.constrain_with(vi, kind, msg.clone());
            }
        }
        let entries = self
            .entry_var
            .iter()
            .map(|(&e, &v)| (new_index[v], e))
            .collect();
        let replaces = self
            .replaces
            .into_iter()
            .map(|(v, r)| (new_index[v], r))
            .collect();
        (p, entries, replaces)
    }
}

/// The namespaces that have subscriptions or installed CSVs, sorted.
pub fn namespaces(cluster: &ClusterState) -> Vec<String> {
    let mut ns: BTreeSet<String> = cluster
        .subscriptions
        .iter()
        .map(|s| s.namespace.clone())
        .collect();
    ns.extend(cluster.csvs.iter().map(|c| c.namespace.clone()));
    ns.into_iter().collect()
}

/// Resolve one namespace.
pub fn resolve(
    input: &Input,
    namespace: &str,
    options: Options,
) -> Result<Resolution, ResolveError> {
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
    let mut b = Builder {
        w: &mut world,
        candidates: HashMap::new(),
        vars: Vec::new(),
        by_id: HashMap::new(),
        entry_var: HashMap::new(),
        visited: BTreeSet::new(),
        replaces: HashMap::new(),
    };
    b.bundle_variables(
        existing_entries.iter().rev().copied().collect(),
        &subscribed,
    )?;
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
        b.subscription(sub, matches.first().copied(), &subscribed)?;
    }
    b.invariants();
    let (problem, var_entries, replaces) = b.into_problem();
    let deadline = options.timeout.map(|t| Instant::now() + t);
    let result = solve::solve(&problem, Varisat::default(), SolveOptions { deadline });
    let variables = problem.variables.len();
    match result {
        Ok(sol) => {
            let mut operators = Vec::new();
            let mut reasons = Vec::new();
            for &vi in &sol.selected {
                let Some(&e) = var_entries.get(&vi) else {
                    continue;
                };
                let en = &world.entries[e];
                if en.catalog == world.existing {
                    continue;
                }
                operators.push(Operator {
                    name: en.name.clone(),
                    package: en.package.clone(),
                    channel: en.channel.clone(),
                    catalog: world.catalogs[en.catalog].key.name.clone(),
                    version: en
                        .version
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_default(),
                    replaces: replaces.get(&vi).cloned().unwrap_or_default(),
                });
                reasons.push(explain_choice(&problem, &sol.selected, vi));
            }
            operators.sort();
            reasons.sort_by(|a, b| a.id.cmp(&b.id));
            Ok(Resolution {
                namespace: namespace.to_owned(),
                outcome: Outcome::Resolved { operators, reasons },
                stats: sol.stats,
                variables,
            })
        }
        Err(SolveError::NotSatisfiable(core)) => {
            let tree = unsat_tree(&problem, &core);
            let mut constraints: Vec<String> = core
                .iter()
                .map(|c| {
                    problem.variables[c.variable].constraints[c.constraint]
                        .message
                        .clone()
                })
                .collect();
            constraints.sort();
            constraints.dedup();
            Ok(Resolution {
                namespace: namespace.to_owned(),
                outcome: Outcome::Unsatisfiable { constraints, tree },
                stats: Stats::default(),
                variables,
            })
        }
        Err(SolveError::TimedOut) => Err(ResolveError::TimedOut),
        Err(SolveError::Backend(e)) => Err(ResolveError::Solver(e.to_string())),
    }
}

/// Why `vi` is selected: the dependency constraints of selected variables that list
/// it, and the candidates listed before it there that were not selected.
fn explain_choice(problem: &Problem, selected: &[VarIndex], vi: VarIndex) -> Reason {
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
                        let because = why_not(problem, &sel, earlier);
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
/// selected variables, and dependencies with no selectable candidate.
fn why_not(problem: &Problem, selected: &BTreeSet<VarIndex>, v: VarIndex) -> Vec<String> {
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
    if out.is_empty() {
        out.push("a candidate earlier in the preference order led to this answer".to_owned());
    }
    out.sort();
    out.dedup();
    out
}

/// The minimal core as a tree: each subscription in it, its candidates, their
/// requirements in the core, and each provider with the core constraints that
/// rule it out (one level of providers: deeper reasons are in the sentences).
fn unsat_tree(
    problem: &Problem,
    core: &[crate::solve::AppliedConstraint],
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
                        requirements.push(RequirementNode {
                            requirement: c.message.clone(),
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
        out.push(SubscriptionNode {
            subscription: var.id.trim_start_matches("subscription:").to_owned(),
            ruled_out: ruled_out(v),
            candidates,
        });
    }
    out
}
