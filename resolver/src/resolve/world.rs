//! The catalog world seen from one namespace: the catalogs it can see (and
//! the installed operators as a catalog of their own), their entries and
//! indexes, the candidates a predicate names, and OLM's orders (channel
//! order, catalog preference).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use olmsat_catalog::property::{types, Gvk, PropertyValue};
use olmsat_encoding::rawjson::to_raw;

use super::{CatalogInput, Input, ResolveError};
use crate::cluster::Subscription;
use crate::entry::{CatalogKey, Entry, EntryId};
use crate::predicate::Predicate;

pub(super) struct Catalog {
    pub(super) key: CatalogKey,
    pub(super) priority: i64,
    /// Entries in catalog order: packages by name, channels by name, entries in
    /// channel order.
    pub(super) entries: Vec<EntryId>,
}

/// The catalogs and installed operators seen from one namespace.
pub(super) struct World {
    pub(super) entries: Vec<Entry>,
    pub(super) catalogs: Vec<Catalog>,
    pub(super) existing: usize,
    pub(super) namespace: String,
    /// The global catalog namespace.
    pub(super) global_namespace: String,
    /// Catalogs visible from the namespace (existing included), by index.
    pub(super) visible: Vec<usize>,
    /// Entries per (catalog, package, channel), in catalog order.
    pub(super) channels: BTreeMap<(usize, String, String), Vec<EntryId>>,
    pub(super) sorted: HashMap<(usize, String, String), Result<Vec<EntryId>, ChannelOrderError>>,
    /// Visible entries by the API they provide, package and label (ascending ids).
    pub(super) by_gvk: HashMap<Gvk, Vec<EntryId>>,
    pub(super) by_package: HashMap<String, Vec<EntryId>>,
    pub(super) by_label: HashMap<String, Vec<EntryId>>,
    /// Every visible entry (ascending ids), for predicates no index serves.
    pub(super) all_visible: Vec<EntryId>,
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
    pub(super) fn new(input: &Input, namespace: &str) -> World {
        let mut w = World {
            entries: Vec::new(),
            catalogs: Vec::new(),
            existing: 0,
            namespace: namespace.to_owned(),
            global_namespace: input.global_namespace.clone(),
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
            for p in c.model.packages() {
                for ch in p.channels() {
                    for e in ch.entries() {
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
                properties.push(olmsat_catalog::declcfg::Property {
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
        // An OperatorGroup may keep its namespace from seeing the global
        // catalog namespace.
        let sees_global = !input
            .cluster
            .operator_groups
            .iter()
            .any(|g| g.namespace == namespace && g.exclude_global_catalogs);
        for (ci, c) in w.catalogs.iter().enumerate() {
            if ci == existing
                || c.key.namespace == namespace
                || (sees_global && c.key.namespace == input.global_namespace)
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

    pub(super) fn id(&self, e: EntryId) -> String {
        let en = &self.entries[e];
        format!(
            "{}/{}/{}",
            self.catalogs[en.catalog].key, en.channel, en.name
        )
    }

    /// A whole channel in OLM's order (cached).
    pub(super) fn sorted_channel(
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
    pub(super) fn pool(&self, d: &Predicate) -> Vec<EntryId> {
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
    pub(super) fn preferred_catalogs(&self, preferred: usize) -> Vec<usize> {
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

/// Why a channel's entries cannot be put in OLM's order (`sortChannel`'s
/// errors, in OLM's words).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelOrderError {
    /// Every entry is replaced or skipped by another.
    #[error("no channel heads (entries not replaced by another entry) found in channel {channel:?} of package {package:?}")]
    NoHeads {
        /// The channel.
        channel: String,
        /// Its package.
        package: String,
    },
    /// Following `replaces` from a head comes back to an entry already met.
    #[error("a cycle exists in the chain of replacement beginning with {head:?} in channel {channel:?} of package {package:?}")]
    Cycle {
        /// The head the chain begins with.
        head: String,
        /// The channel.
        channel: String,
        /// Its package.
        package: String,
    },
    /// More than one head, so more than one chain.
    #[error("a unique replacement chain within a channel is required to determine the relative order between channel entries, but {} replacement chains were found in channel {channel:?} of package {package:?}: {}", .chains.len(), .chains.join(", "))]
    Chains {
        /// Each chain as OLM shows it: `head...tail`, a lone entry, or `[]`.
        chains: Vec<String>,
        /// The channel.
        channel: String,
        /// Its package.
        package: String,
    },
}

/// OLM's `sortChannel`: head first along `replaces`; entries skipped by another
/// entry of the set are left out; more than one chain, no head, or a cycle is an
/// error.
pub fn sort_channel(
    entries: &[Entry],
    members: &[EntryId],
) -> Result<Vec<EntryId>, ChannelOrderError> {
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
        return Err(ChannelOrderError::NoHeads {
            channel: ch.clone(),
            package: pkg.clone(),
        });
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
                return Err(ChannelOrderError::Cycle {
                    head: entries[head].name.clone(),
                    channel: ch.clone(),
                    package: pkg.clone(),
                });
            }
            cur = next;
        }
        chains.push(chain);
    }
    if chains.len() > 1 {
        let chains: Vec<String> = chains
            .iter()
            .map(|c| match c.len() {
                0 => "[]".to_owned(),
                1 => entries[c[0]].name.clone(),
                _ => format!("{}...{}", entries[c[0]].name, entries[c[c.len() - 1]].name),
            })
            .collect();
        return Err(ChannelOrderError::Chains {
            chains,
            channel: ch.clone(),
            package: pkg.clone(),
        });
    }
    Ok(chains.into_iter().next().unwrap_or_default())
}
