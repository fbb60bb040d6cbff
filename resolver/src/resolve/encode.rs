//! The encoding: OLM's variables (`getBundleVariables`, the subscription and
//! invariant constraints) with their messages, built over the catalog world
//! and handed to the solver as a [`Problem`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use olmsat_catalog::property::{Gvk, PropertyValue};

use super::world::{sort_channel, World};
use super::ResolveError;
use crate::cluster::Subscription;
use crate::entry::EntryId;
use crate::predicate::{self, Predicate, PredicateKey};
use crate::problem::{ConstraintKind, Problem, VarIndex};

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

pub(super) struct Builder<'w> {
    pub(super) w: &'w mut World,
    /// Candidates per (predicate text, dependent's catalog): bundles of one
    /// package usually share their requirements.
    candidates: HashMap<(PredicateKey, usize), Vec<EntryId>>,
    vars: Vec<Var>,
    by_id: HashMap<String, usize>,
    /// The variable of each entry that has one.
    entry_var: HashMap<EntryId, usize>,
    visited: BTreeSet<EntryId>,
    /// Candidates of a subscription with an installed CSV: the CSV they replace.
    replaces: HashMap<usize, String>,
    /// What explanations need beyond the sentences, by (variable id, sentence).
    notes: Notes,
}

/// What the explanations need to know beyond the constraints' sentences.
#[derive(Debug, Default)]
pub(super) struct Notes {
    /// Each requirement, by (variable id, sentence).
    pub(super) requirements: HashMap<(String, String), RequirementNote>,
    /// What to do about each invalid Subscription, by its name.
    pub(super) subscription_hints: HashMap<String, String>,
}

/// A requirement beyond its sentence.
#[derive(Debug, Clone, Default)]
pub(super) struct RequirementNote {
    /// What it asks for, in short.
    pub(super) needs: String,
    /// Bundles that meet it but that OLM never offers (skipped by another
    /// entry of their channel); listed only when nothing else meets it.
    pub(super) skipped: Vec<String>,
    /// Bundles that meet it in catalogs the namespace does not see:
    /// (bundle, catalog, the catalog's namespace); listed only when nothing
    /// else meets it.
    pub(super) unseen: Vec<(String, String, String)>,
}

impl<'w> Builder<'w> {
    /// An encoder with no variables yet over the catalogs of `w`.
    pub(super) fn new(w: &'w mut World) -> Builder<'w> {
        Builder {
            w,
            candidates: HashMap::new(),
            vars: Vec::new(),
            by_id: HashMap::new(),
            entry_var: HashMap::new(),
            visited: BTreeSet::new(),
            replaces: HashMap::new(),
            notes: Notes::default(),
        }
    }

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
    pub(super) fn bundle_variables(
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
                let message = format!("bundle {name} requires an operator {d}");
                let mut note = RequirementNote {
                    needs: d.brief(),
                    ..RequirementNote::default()
                };
                if candidates.is_empty() {
                    (note.skipped, note.unseen) = self.never_offered(&d)?;
                }
                self.notes
                    .requirements
                    .insert((self.vars[var].id.clone(), message.clone()), note);
                let vars: Vec<usize> = candidates.iter().map(|&c| self.entry_var(c)).collect();
                stack.extend(candidates);
                constraints.push((Kind::Dependency(vars), message));
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
        // By what the requirement is, not by its text (a one-element `not` prints
        // as its inner predicate).
        let key = (d.key(), preferred);
        if let Some(c) = self.candidates.get(&key) {
            return Ok(c.clone());
        }
        let out = self.find_candidates(preferred, d)?;
        self.candidates.insert(key, out.clone());
        Ok(out)
    }

    /// The bundles that meet `d` but are not candidates: skipped entries of
    /// the catalogs the namespace sees, and entries of catalogs it does not
    /// see (with the catalog and its namespace). Sorted.
    #[allow(clippy::type_complexity)]
    fn never_offered(
        &mut self,
        d: &Predicate,
    ) -> Result<(Vec<String>, Vec<(String, String, String)>), ResolveError> {
        let mut skipped = BTreeSet::new();
        for x in self.w.pool(d) {
            let en = &self.w.entries[x];
            if en.catalog != self.w.existing && d.matches(en)? {
                skipped.insert(en.name.clone());
            }
        }
        let mut unseen = BTreeSet::new();
        for (ci, c) in self.w.catalogs.iter().enumerate() {
            if ci == self.w.existing || self.w.visible.contains(&ci) {
                continue;
            }
            for &x in &c.entries {
                if d.matches(&self.w.entries[x])? {
                    unseen.insert((
                        self.w.entries[x].name.clone(),
                        c.key.name.clone(),
                        c.key.namespace.clone(),
                    ));
                }
            }
        }
        Ok((skipped.into_iter().collect(), unseen.into_iter().collect()))
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
    pub(super) fn subscription(
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
            if let Some(hint) = self.invalid_subscription_hint(sub, cat, npkg, nch) {
                self.notes.subscription_hints.insert(sub.name.clone(), hint);
            }
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

    /// What to do about a Subscription that selects nothing: the catalog it
    /// names, its package, channel or starting CSV as they are in the
    /// catalogs, closest names first.
    fn invalid_subscription_hint(
        &self,
        sub: &Subscription,
        cat: Option<usize>,
        npkg: usize,
        nch: usize,
    ) -> Option<String> {
        let w = &*self.w;
        let Some(ci) = cat else {
            let named: Vec<&super::world::Catalog> = w
                .catalogs
                .iter()
                .enumerate()
                .filter(|&(ci, c)| ci != w.existing && c.key.name == sub.source)
                .map(|(_, c)| c)
                .collect();
            let Some(c) = named.first() else {
                let given: Vec<String> = w
                    .catalogs
                    .iter()
                    .enumerate()
                    .filter(|&(ci, _)| ci != w.existing)
                    .map(|(_, c)| c.key.name.clone())
                    .collect();
                return Some(format!(
                    "no catalog named {:?} was given; give its content with --catalog {}=DIR (given: {})",
                    sub.source,
                    sub.source,
                    olmsat_findings::suggest::join_listed(&given)
                ));
            };
            let ns = &c.key.namespace;
            if !sub.source_namespace.is_empty() && sub.source_namespace != *ns {
                return Some(format!(
                    "the subscription names sourceNamespace {}, but catalog {:?} is in namespace {ns}",
                    sub.source_namespace, sub.source
                ));
            }
            return Some(format!(
                "catalog {:?} is in namespace {ns}, which namespace {} does not see: a namespace sees its own catalogs and those of the global catalog namespace ({}); if {ns} is your cluster's global catalog namespace (openshift-marketplace on OpenShift), give --global-namespace {ns}",
                sub.source, w.namespace, w.global_namespace
            ));
        };
        let entries = &w.catalogs[ci].entries;
        if entries.is_empty() {
            return Some(format!("catalog {:?} has no bundles", sub.source));
        }
        if npkg == 0 {
            let names: BTreeSet<&str> = entries
                .iter()
                .map(|&x| w.entries[x].package.as_str())
                .collect();
            let near: Vec<String> = olmsat_findings::suggest::closest(&sub.package, names)
                .into_iter()
                .map(str::to_owned)
                .collect();
            return Some(format!(
                "catalog {:?} has these packages, closest first: {}",
                sub.source,
                olmsat_findings::suggest::join_listed(&near)
            ));
        }
        let in_package = || {
            entries
                .iter()
                .map(|&x| &w.entries[x])
                .filter(|en| en.package == sub.package)
        };
        if nch == 0 {
            let names: BTreeSet<&str> = in_package().map(|en| en.channel.as_str()).collect();
            let near: Vec<String> = olmsat_findings::suggest::closest(&sub.channel, names)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let default = in_package()
                .find(|en| en.default_channel)
                .map(|en| format!(" (default {})", en.channel))
                .unwrap_or_default();
            return Some(format!(
                "package {} has these channels, closest first: {}{default}",
                sub.package,
                olmsat_findings::suggest::join_listed(&near)
            ));
        }
        let names: BTreeSet<&str> = in_package()
            .filter(|en| sub.channel.is_empty() || en.channel == sub.channel)
            .map(|en| en.name.as_str())
            .collect();
        let near: Vec<String> = olmsat_findings::suggest::closest(&sub.starting_csv, names)
            .into_iter()
            .map(str::to_owned)
            .collect();
        Some(format!(
            "startingCSV {} is not an entry there; the entries, closest first: {}",
            sub.starting_csv,
            olmsat_findings::suggest::join_listed(&near)
        ))
    }

    /// OLM's `addInvariants`: at most one provider per GVK and one bundle per package.
    pub(super) fn invariants(&mut self) {
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

    /// The solver's problem, variables in identifier order (the search order),
    /// for each problem variable its entry and the CSV it replaces, and the
    /// notes for explanations.
    pub(super) fn into_problem(
        self,
    ) -> (
        Problem,
        HashMap<VarIndex, EntryId>,
        HashMap<VarIndex, String>,
        Notes,
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
        (p, entries, replaces, self.notes)
    }
}
