//! The encoding: OLM's variables (`getBundleVariables`, the subscription and
//! invariant constraints), each constraint with its typed origin and each
//! variable with what it stands for, built over the catalog world and handed
//! to the solver as a [`Problem`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use olmsat_catalog::property::{Gvk, PropertyValue};

use super::origin::{
    BundleRef, Encoded, Interner, Missing, NoCandidates, Origin, Requirement, Subject,
};
use super::world::{sort_channel, World};
use super::{ResolveError, UnseenProvider};
use crate::cluster::Subscription;
use crate::entry::EntryId;
use crate::predicate::{self, Predicate, PredicateKey};
use crate::problem::{ConstraintKind, Problem};

/// A variable under construction.
struct Var {
    id: String,
    subject: Subject,
    constraints: Vec<(Kind, Origin)>,
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
    /// Each variable by its identifier.
    by_id: HashMap<String, usize>,
    /// The variable of each entry that has one.
    entry_var: HashMap<EntryId, usize>,
    visited: BTreeSet<EntryId>,
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
        }
    }

    /// The variable with identifier `id`, made to stand for `subject` if
    /// there is none yet.
    fn var(&mut self, id: &str, subject: impl FnOnce() -> Subject) -> usize {
        if let Some(&v) = self.by_id.get(id) {
            return v;
        }
        self.vars.push(Var {
            id: id.to_owned(),
            subject: subject(),
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
        let en = &self.w.entries[e];
        let bundle = BundleRef {
            entry: e,
            name: en.name.clone(),
            catalog: self.w.catalogs[en.catalog].key.clone(),
            channel: en.channel.clone(),
        };
        let v = self.var(&id, || Subject::Bundle(bundle));
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
            let (name, existing, deprecated, requirements) = {
                let en = &self.w.entries[e];
                (
                    en.name.clone(),
                    en.catalog == self.w.existing,
                    en.deprecated(),
                    predicate::requirements(en)?,
                )
            };
            let mut constraints = Vec::new();
            if existing && !subscribed.contains(&name) {
                constraints.push((Kind::Mandatory, Origin::Unreferenced { csv: name.clone() }));
            }
            if deprecated {
                constraints.push((Kind::Prohibited, Origin::Deprecated));
            }
            for r in requirements {
                let candidates = self.dependency_candidates(e, &r.predicate)?;
                let (skipped, unseen) = if candidates.is_empty() {
                    self.never_offered(&r.predicate)?
                } else {
                    (Vec::new(), Vec::new())
                };
                let origin = Origin::Requirement(Box::new(Requirement {
                    bundle: name.clone(),
                    property: r.property,
                    predicate: r.predicate,
                    skipped,
                    unseen,
                }));
                let vars: Vec<usize> = candidates.iter().map(|&c| self.entry_var(c)).collect();
                stack.extend(candidates);
                constraints.push((Kind::Dependency(vars), origin));
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
    fn never_offered(
        &mut self,
        d: &Predicate,
    ) -> Result<(Vec<String>, Vec<UnseenProvider>), ResolveError> {
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
        let unseen = unseen
            .into_iter()
            .map(|(bundle, catalog, namespace)| UnseenProvider {
                bundle,
                catalog,
                namespace,
            })
            .collect();
        Ok((skipped.into_iter().collect(), unseen))
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
                    sort_channel(&self.w.entries, &members)?
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
        let missing = if nall == 0 {
            Some(Missing::Catalog {
                source: sub.source.clone(),
                source_namespace: sub.source_namespace.clone(),
            })
        } else if npkg == 0 {
            Some(Missing::Package {
                package: sub.package.clone(),
            })
        } else if nch == 0 {
            Some(Missing::Channel {
                package: sub.package.clone(),
                channel: sub.channel.clone(),
            })
        } else if ncsv == 0 {
            Some(Missing::StartingCsv {
                package: sub.package.clone(),
                channel: sub.channel.clone(),
                csv: sub.starting_csv.clone(),
            })
        } else {
            None
        };
        let subject = || Subject::Subscription {
            name: sub.name.clone(),
            package: sub.package.clone(),
        };
        let exists = || Origin::Subscription {
            name: sub.name.clone(),
        };
        if let Some(missing) = missing {
            let hint = self.invalid_subscription_hint(sub, cat, npkg, nch);
            let v = self.var(&sub_id, subject);
            let v = &mut self.vars[v];
            v.constraints.push((Kind::Mandatory, exists()));
            v.constraints.push((
                Kind::Prohibited,
                Origin::NoCandidates(Box::new(NoCandidates {
                    subscription: sub.name.clone(),
                    missing,
                    hint,
                })),
            ));
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
            sorted.extend(sort_channel(&self.w.entries, members)?);
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
            let installed = self.w.entries[cur].name.clone();
            for &d in &deps {
                self.vars[d].constraints.push((
                    Kind::Conflict(cur_var),
                    Origin::Upgrade {
                        installed: installed.clone(),
                    },
                ));
            }
            deps.push(cur_var);
        }
        let v = self.var(&sub_id, subject);
        let v = &mut self.vars[v];
        v.constraints.push((Kind::Mandatory, exists()));
        v.constraints.push((Kind::Dependency(deps), exists()));
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
        let add = |b: &mut Self, id: String, mut vs: Vec<usize>, origin: Origin| {
            vs.sort_by(|a, c| b.vars[*a].id.cmp(&b.vars[*c].id));
            vs.dedup();
            if vs.len() < 2 {
                return;
            }
            let v = b.var(&id, || Subject::Invariant);
            b.vars[v]
                .constraints
                .push((Kind::Mandatory, origin.clone()));
            b.vars[v].constraints.push((Kind::AtMost(1, vs), origin));
        };
        for (g, vs) in gvks {
            let id = format!("{} ({}/{})", g.kind, g.group, g.version);
            add(self, id, vs, Origin::OneProviderPerApi(g));
        }
        for (p, vs) in pkgs {
            add(self, p.clone(), vs, Origin::OneBundlePerPackage(p));
        }
    }

    /// The solver's problem, variables in identifier order (the search order),
    /// with what each variable stands for.
    pub(super) fn into_problem(self) -> Encoded {
        let mut order: Vec<usize> = (0..self.vars.len()).collect();
        order.sort_by(|a, b| self.vars[*a].id.cmp(&self.vars[*b].id));
        let mut new_index = vec![0usize; self.vars.len()];
        for (pos, &old) in order.iter().enumerate() {
            new_index[old] = pos;
        }
        let mut p = Problem::default();
        let mut subjects = Vec::with_capacity(order.len());
        let mut vars: Vec<Option<Var>> = self.vars.into_iter().map(Some).collect();
        for &old in &order {
            let Some(v) = vars[old].take() else {
                continue;
            };
            let vi = p.add(v.id);
            subjects.push(v.subject);
            for (k, origin) in v.constraints {
                let kind = match k {
                    Kind::Mandatory => ConstraintKind::Mandatory,
                    Kind::Prohibited => ConstraintKind::Prohibited,
                    Kind::Dependency(ds) => {
                        ConstraintKind::Dependency(ds.iter().map(|&d| new_index[d]).collect())
                    }
                    Kind::Conflict(o) => ConstraintKind::Conflict(new_index[o]),
                    Kind::AtMost(n, ids) => {
                        ConstraintKind::AtMost(n, ids.iter().map(|&d| new_index[d]).collect())
                    }
                };
                p.constrain_with(vi, kind, origin);
            }
        }
        Encoded {
            problem: p,
            interner: Interner::new(subjects),
        }
    }
}
