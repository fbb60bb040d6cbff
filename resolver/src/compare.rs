//! OLM v0 beside OLM v1 (`olmsat compare-olm`): for each package, channel and
//! bundle of a catalog, the path OLM v0 takes and the path OLM v1 takes (a
//! ClusterExtension with that one channel, no version range,
//! CatalogProvided), side by side, with where they differ and the bundles v1
//! refuses to install.
//!
//! Each bundle's next hop is found once, for all starts (v1's from an index of
//! the channel's edges, [`Stepper`]), so a comparison is linear in the size of
//! the catalog.
//!
//! ```
//! let text = "{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"s\"}
//! {\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"s\",\"entries\":[{\"name\":\"p.v1\"},{\"name\":\"p.v2\",\"replaces\":\"p.v1\"}]}
//! {\"schema\":\"olm.bundle\",\"package\":\"p\",\"name\":\"p.v1\",\"image\":\"i:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"p\",\"version\":\"1.0.0\"}}]}
//! {\"schema\":\"olm.bundle\",\"package\":\"p\",\"name\":\"p.v2\",\"image\":\"i:2\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"p\",\"version\":\"2.0.0\"}}]}
//! ";
//! let loaded = olmsat_catalog::load::load_bytes("catalog.json", text.as_bytes());
//! let c = olmsat_resolver::compare::compare(loaded.config, None, false);
//! assert_eq!((c.starts, c.differing), (2, 0));
//! let mut out = Vec::new();
//! c.write_text(&mut out)?;
//! assert!(String::from_utf8(out)?.ends_with("2 start(s) compared, 0 differ\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::io::{self, Write};

use olmsat_catalog::declcfg::DeclarativeConfig;
use olmsat_catalog::Model;
use olmsat_graph::ChannelGraph;
use olmsat_graph::Start;
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};

use crate::v1::{
    reconcile, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    Stepper, UpgradePolicy,
};

/// Most hops listed per path. A longer path is listed up to here, with how
/// many hops it has in all and where it ends, so that a report stays linear
/// in the size of the catalog (a 100,000-entry replaces chain has 5 billion
/// hops from all its starts). Both paths are followed to their end however
/// long; OLM v1's that never converges (a cycle) ends as `limit`.
const MAX_LISTED: usize = 100;

/// One start: both paths and how they differ.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    package: String,
    channel: String,
    from: String,
    v0_path: Vec<String>,
    /// All the hops, when the path is longer than the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    v0_hops: Option<usize>,
    /// Where the path ends, when it is longer than the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    v0_last: Option<String>,
    v0_end: &'static str,
    v1_path: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    v1_hops: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    v1_last: Option<String>,
    v1_end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    v1_message: Option<String>,
    differences: Vec<&'static str>,
}

/// A bundle OLM v1 refuses to install: it declares dependencies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// The package.
    pub package: String,
    /// The bundle.
    pub bundle: String,
    /// The dependency property types it declares.
    pub properties: Vec<String>,
}

/// A package whose fresh install OLM v0 and OLM v1 take from different
/// channels: a Subscription without a channel follows the package's
/// `defaultChannel`; a ClusterExtension without channels takes the highest
/// version of every channel, and OLM v1 ignores `defaultChannel`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultChannel {
    /// The package.
    pub package: String,
    /// Its `defaultChannel`, which OLM v0 follows.
    pub default_channel: String,
    /// The bundle OLM v0 installs: the default channel's head.
    pub v0_bundle: String,
    /// The bundle OLM v1 installs with no channel given.
    pub v1_bundle: String,
    /// The channels that hold it.
    pub v1_channels: Vec<String>,
}

/// The comparison of a catalog: every start's two paths (listed when
/// written), how many differ, the bundles v1 refuses. Serialized as
/// `compare-olm -o json` prints it.
#[derive(Debug)]
pub struct Comparison {
    /// Starts compared (channel entries).
    pub starts: usize,
    /// Starts whose paths differ.
    pub differing: usize,
    /// Bundles OLM v1 refuses to install.
    pub v1_refuses: Vec<Refused>,
    /// Packages whose fresh install OLM v0 and OLM v1 take from different
    /// channels.
    pub default_channels: Vec<DefaultChannel>,
    /// Channels that could not be compared (a graph that cannot be built),
    /// one sentence each.
    pub warnings: Vec<String>,
    chains: Vec<Chain>,
    origins: Vec<Origin>,
}

impl Serialize for Comparison {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let fields = if self.default_channels.is_empty() {
            4
        } else {
            5
        };
        let mut st = s.serialize_struct("Comparison", fields)?;
        st.serialize_field("starts", &self.starts)?;
        st.serialize_field("differing", &self.differing)?;
        st.serialize_field(
            "rows",
            &Rows {
                chains: &self.chains,
                starts: &self.origins,
            },
        )?;
        st.serialize_field("v1Refuses", &self.v1_refuses)?;
        if !self.default_channels.is_empty() {
            st.serialize_field("defaultChannels", &self.default_channels)?;
        }
        st.end()
    }
}

/// Where each walk from a node ends, in a graph where each node has at most
/// one next node: at a node with none after `hops` hops, or back at `entry`
/// (a node met before) after `hops` hops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Unknown,
    Stops { hops: usize, last: u32 },
    Cycles { hops: usize, entry: u32 },
}

/// Walks in a graph of nodes with at most one next node each, their fates
/// found once for all starts (linear in the nodes).
#[derive(Debug, Default)]
struct Walks {
    /// Each node's next node (`u32::MAX`: none).
    next: Vec<u32>,
    /// Whether `next` is known yet.
    known: Vec<bool>,
    fate: Vec<Fate>,
    /// Position on the walk being followed (`u32::MAX`: not on it).
    on_walk: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Walks {
    fn add(&mut self) -> u32 {
        self.next.push(NONE);
        self.known.push(false);
        self.fate.push(Fate::Unknown);
        self.on_walk.push(NONE);
        index_u32(self.next.len() - 1)
    }

    /// The fate of the walk from `start`; `step` gives a node's next node
    /// the first time it is asked (it may add nodes).
    fn fate(&mut self, start: u32, step: &mut dyn FnMut(&mut Walks, u32) -> Option<u32>) -> Fate {
        let mut walk: Vec<u32> = Vec::new();
        let mut cur = start;
        loop {
            let c = cur as usize;
            if self.fate[c] != Fate::Unknown {
                break;
            }
            if self.on_walk[c] != NONE {
                // Back on the walk: the nodes from there on are a cycle.
                let at = self.on_walk[c] as usize;
                let len = walk.len() - at;
                for &n in &walk[at..] {
                    self.fate[n as usize] = Fate::Cycles {
                        hops: len,
                        entry: n,
                    };
                    self.on_walk[n as usize] = NONE;
                }
                walk.truncate(at);
                break;
            }
            if !self.known[c] {
                let next = step(self, cur).unwrap_or(NONE);
                self.next[c] = next;
                self.known[c] = true;
            }
            match self.next[c] {
                NONE => {
                    self.fate[c] = Fate::Stops { hops: 0, last: cur };
                    break;
                }
                next => {
                    self.on_walk[c] = index_u32(walk.len());
                    walk.push(cur);
                    cur = next;
                }
            }
        }
        while let Some(n) = walk.pop() {
            self.on_walk[n as usize] = NONE;
            self.fate[n as usize] = match self.fate[self.next[n as usize] as usize] {
                Fate::Stops { hops, last } => Fate::Stops {
                    hops: hops + 1,
                    last,
                },
                Fate::Cycles { hops, entry } => Fate::Cycles {
                    hops: hops + 1,
                    entry,
                },
                Fate::Unknown => unreachable!("the next node's fate is found first"),
            };
        }
        self.fate[start as usize]
    }

    /// The first `n` nodes after `start`.
    fn list(&self, start: u32, n: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(n.min(MAX_LISTED));
        let mut cur = start;
        for _ in 0..n {
            cur = self.next[cur as usize];
            out.push(cur);
        }
        out
    }
}

fn index_u32(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 4 billion nodes")
}

/// OLM v0's walks in one channel: a node's next node is its first
/// successor (`ChannelGraph::olm_path`'s step), none at the head.
#[derive(Debug)]
struct V0 {
    names: Vec<String>,
    walks: Walks,
    head: Option<u32>,
}

/// How a v1 reconcile ends a walk.
#[derive(Debug, Clone)]
enum Stop {
    Converged,
    Failed(String),
}

/// OLM v1's walks in one channel: the states are (installed bundle,
/// version); a state's next state is what one reconcile installs.
#[derive(Debug, Default)]
struct V1 {
    states: Vec<(String, String)>,
    ids: HashMap<(String, String), u32>,
    stops: HashMap<u32, Stop>,
    walks: Walks,
}

impl V1 {
    fn intern(&mut self, state: (String, String)) -> u32 {
        if let Some(&id) = self.ids.get(&state) {
            return id;
        }
        let id = self.walks.add();
        self.states.push(state.clone());
        self.ids.insert(state, id);
        id
    }
}

/// One channel's walks.
#[derive(Debug)]
struct Chain {
    package: String,
    channel: String,
    v0: V0,
    v1: V1,
}

/// A path as a report gives it: its hops in all (`None`: endless), the
/// first and the last node, how it ends.
struct Ends {
    hops: Option<usize>,
    first: Option<u32>,
    last: Option<u32>,
    end: &'static str,
    message: Option<String>,
}

impl Chain {
    /// v0's path from node `n` (`None`: the channel has no single head).
    fn v0_ends(&self, n: Option<u32>) -> Ends {
        let (Some(n), Some(head)) = (n, self.v0.head) else {
            return Ends {
                hops: Some(0),
                first: None,
                last: None,
                end: "no single head",
                message: None,
            };
        };
        let (hops, last, end) = match self.v0.walks.fate[n as usize] {
            Fate::Stops { hops, last } if last == head => (hops, last, "head"),
            Fate::Stops { hops, last } => (hops, last, "dead end"),
            Fate::Cycles { hops, entry } => (hops, entry, "loop"),
            Fate::Unknown => unreachable!("fates are found before they are read"),
        };
        Ends {
            hops: Some(hops),
            first: (hops > 0).then(|| self.v0.walks.next[n as usize]),
            last: (hops > 0).then_some(last),
            end,
            message: None,
        }
    }

    /// v1's path from state `id`: to where reconciles stop, or (a cycle:
    /// they never do) `MAX_LISTED` hops.
    fn v1_ends(&self, id: u32) -> Ends {
        let first = Some(self.v1.walks.next[id as usize]).filter(|&n| n != NONE);
        match self.v1.walks.fate[id as usize] {
            Fate::Stops { hops, last } => {
                let (end, message) = match self.v1.stops.get(&last) {
                    Some(Stop::Failed(m)) => ("error", Some(m.clone())),
                    _ => ("converged", None),
                };
                Ends {
                    hops: Some(hops),
                    first,
                    last: (hops > 0).then_some(last),
                    end,
                    message,
                }
            }
            Fate::Cycles { .. } => Ends {
                hops: None,
                first,
                last: self.v1.walks.list(id, MAX_LISTED).last().copied(),
                end: "limit",
                message: None,
            },
            Fate::Unknown => unreachable!("fates are found before they are read"),
        }
    }
}

/// What a row says, before its paths are listed.
#[derive(Debug)]
struct Origin {
    chain: usize,
    from: String,
    v0: Option<u32>,
    v1: u32,
    differences: Vec<&'static str>,
}

/// The rows, listed as they are written out.
struct Rows<'a> {
    chains: &'a [Chain],
    starts: &'a [Origin],
}

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.starts.len()))?;
        for st in self.starts {
            seq.serialize_element(&row(self.chains, st))?;
        }
        seq.end()
    }
}

/// A start's row, its paths listed.
fn row(chains: &[Chain], st: &Origin) -> Row {
    let chain = &chains[st.chain];
    let v0 = chain.v0_ends(st.v0);
    let v0_hops = v0.hops.unwrap_or(0);
    let v0_path: Vec<String> = match st.v0 {
        Some(n) if v0_hops > 0 => chain
            .v0
            .walks
            .list(n, v0_hops.min(MAX_LISTED))
            .into_iter()
            .map(|x| chain.v0.names[x as usize].clone())
            .collect(),
        _ => Vec::new(),
    };
    let v0_cut = v0_hops > MAX_LISTED;
    let v1 = chain.v1_ends(st.v1);
    let v1_listed = v1.hops.map_or(MAX_LISTED, |h| h.min(MAX_LISTED));
    let v1_path: Vec<String> = chain
        .v1
        .walks
        .list(st.v1, v1_listed)
        .into_iter()
        .map(|x| chain.v1.states[x as usize].0.clone())
        .collect();
    let v1_cut = v1.hops.is_some_and(|h| h > MAX_LISTED);
    Row {
        package: chain.package.clone(),
        channel: chain.channel.clone(),
        from: st.from.clone(),
        v0_path,
        v0_hops: v0_cut.then_some(v0_hops),
        v0_last: v0
            .last
            .filter(|_| v0_cut)
            .map(|l| chain.v0.names[l as usize].clone()),
        v0_end: v0.end,
        v1_path,
        v1_hops: v1.hops.filter(|_| v1_cut),
        v1_last: v1
            .last
            .filter(|_| v1_cut)
            .map(|l| chain.v1.states[l as usize].0.clone()),
        v1_end: v1.end,
        v1_message: v1.message,
        differences: st.differences.clone(),
    }
}

/// Compare v0 and v1 over a catalog (only `package`, when given; only the
/// starts whose paths differ, with `only_differences`).
pub fn compare(
    config: DeclarativeConfig,
    package: Option<&str>,
    only_differences: bool,
) -> Comparison {
    let content = CatalogContent::from_config(&config, false);
    let (model, _) = Model::build(config);
    let meta = ClusterCatalog::named("catalog");
    let catalog = Catalog {
        meta: &meta,
        content: Some(&content),
    };
    let mut chains: Vec<Chain> = Vec::new();
    let mut rows: Vec<Origin> = Vec::new();
    let mut refused = Vec::new();
    let mut warnings = Vec::new();
    let mut default_channels = Vec::new();
    let mut starts = 0;
    for pkg in model.packages() {
        if package.is_some_and(|p| p != pkg.name) {
            continue;
        }
        let Some(slice) = content.package(&pkg.name) else {
            continue;
        };
        if let Some(d) = default_channel(pkg, slice, catalog) {
            default_channels.push(d);
        }
        let mut versions: HashMap<&str, &str> = HashMap::new();
        for b in slice.bundles() {
            versions.entry(b.name()).or_insert(b.version_text());
            let props: Vec<String> = b
                .property_types()
                .filter(|t| {
                    matches!(
                        *t,
                        "olm.package.required" | "olm.gvk.required" | "olm.constraint"
                    )
                })
                .map(str::to_owned)
                .collect();
            if !props.is_empty() {
                let mut props = props;
                props.dedup();
                refused.push(Refused {
                    package: pkg.name.clone(),
                    bundle: b.name().to_owned(),
                    properties: props,
                });
            }
        }
        for ch in pkg.channels() {
            let g = match ChannelGraph::build(pkg, ch).complete() {
                Ok(g) => g,
                Err(e) => {
                    warnings.push(format!("package {} channel {}: {e}", pkg.name, ch.name));
                    continue;
                }
            };
            let mut v0 = V0 {
                names: (0..g.node_count())
                    .map(|i| g.node(petgraph_index(i)).name.to_owned())
                    .collect(),
                walks: Walks::default(),
                head: g.head().map(|h| index_u32(h.index())),
            };
            for _ in 0..g.node_count() {
                v0.walks.add();
            }
            let head = v0.head;
            // OLM v0 takes the first successor in channel order, and stops
            // at the head (`ChannelGraph::olm_path`).
            let mut v0_step = |_: &mut Walks, n: u32| {
                if Some(n) == head {
                    return None;
                }
                let ix = petgraph_index(n as usize);
                g.successors(&Start::node(&g, ix))
                    .first()
                    .map(|s| index_u32(s.to.index()))
            };
            let ext = ClusterExtension {
                name: pkg.name.clone(),
                namespace: pkg.name.clone(),
                package: pkg.name.clone(),
                version: String::new(),
                channels: vec![ch.name.clone()],
                selector: None,
                policy: UpgradePolicy::CatalogProvided,
                installed: None,
                location: olmsat_encoding::location::Location::new(
                    std::sync::Arc::from("compare-olm"),
                    0,
                ),
            };
            let stepper = Stepper::new(catalog, &ext);
            let mut v1 = V1::default();
            let chain_index = chains.len();
            let first_row = rows.len();
            for e in ch.entries() {
                let Some(n) = g.node_index(&e.name) else {
                    continue;
                };
                starts += 1;
                let n = index_u32(n.index());
                let v0_start = head.map(|_| {
                    v0.walks.fate(n, &mut v0_step);
                    n
                });
                let version = versions.get(e.name.as_str()).copied().unwrap_or_default();
                let id = v1.intern((e.name.clone(), version.to_owned()));
                let mut stops = std::mem::take(&mut v1.stops);
                let mut states = std::mem::take(&mut v1.states);
                let mut ids = std::mem::take(&mut v1.ids);
                let mut v1_step = |walks: &mut Walks, id: u32| -> Option<u32> {
                    let (name, version) = states[id as usize].clone();
                    let installed = InstalledBundle {
                        name,
                        version,
                        release: None,
                    };
                    let result = match &stepper {
                        Some(s) => s.reconcile(&installed),
                        None => {
                            let mut one = ext.clone();
                            one.installed = Some(installed.clone());
                            reconcile(&[catalog], &one, Gates::default()).result
                        }
                    };
                    let r = match result {
                        Ok(r) => r,
                        Err(err) => {
                            stops.insert(id, Stop::Failed(err.to_string()));
                            return None;
                        }
                    };
                    let version = r.reported_version(Gates::default());
                    if r.bundle == installed.name && version == installed.version {
                        stops.insert(id, Stop::Converged);
                        return None;
                    }
                    let state = (r.bundle, version);
                    Some(match ids.get(&state) {
                        Some(&next) => next,
                        None => {
                            let next = walks.add();
                            states.push(state.clone());
                            ids.insert(state, next);
                            next
                        }
                    })
                };
                v1.walks.fate(id, &mut v1_step);
                (v1.stops, v1.states, v1.ids) = (stops, states, ids);
                rows.push(Origin {
                    chain: chain_index,
                    from: e.name.clone(),
                    v0: v0_start,
                    v1: id,
                    differences: Vec::new(),
                });
            }
            let chain = Chain {
                package: pkg.name.clone(),
                channel: ch.name.clone(),
                v0,
                v1,
            };
            // The differences, now that every walk's end is known.
            for st in &mut rows[first_row..] {
                st.differences = differences(&chain, st);
            }
            chains.push(chain);
        }
    }
    if only_differences {
        rows.retain(|st| !st.differences.is_empty());
    }
    let differing = rows.iter().filter(|st| !st.differences.is_empty()).count();
    Comparison {
        starts,
        differing,
        v1_refuses: refused,
        default_channels,
        warnings,
        chains,
        origins: rows,
    }
}

/// When OLM v1's fresh install of `pkg` (no channel, no version range) is a
/// bundle its default channel does not hold: both picks.
fn default_channel(
    pkg: &olmsat_catalog::Package,
    slice: &crate::v1::catalog::PackageSlice,
    catalog: Catalog<'_>,
) -> Option<DefaultChannel> {
    let default = pkg.default_channel()?;
    let v0_bundle = default.head()?.name.clone();
    let ext = ClusterExtension {
        name: pkg.name.clone(),
        namespace: pkg.name.clone(),
        package: pkg.name.clone(),
        version: String::new(),
        channels: Vec::new(),
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: None,
        location: olmsat_encoding::location::Location::new(std::sync::Arc::from("compare-olm"), 0),
    };
    let v1_bundle = reconcile(&[catalog], &ext, Gates::default())
        .result
        .ok()?
        .bundle;
    if default.entry(&v1_bundle).is_some() {
        return None;
    }
    let v1_channels = slice
        .channels()
        .iter()
        .filter(|c| c.contains(&v1_bundle))
        .map(|c| c.name().to_owned())
        .collect();
    Some(DefaultChannel {
        package: pkg.name.clone(),
        default_channel: default.name.clone(),
        v0_bundle,
        v1_bundle,
        v1_channels,
    })
}

/// The graph's node at index `i`.
fn petgraph_index(i: usize) -> olmsat_graph::NodeIndex {
    olmsat_graph::NodeIndex::new(i)
}

/// Where the two paths from a start differ.
fn differences(chain: &Chain, st: &Origin) -> Vec<&'static str> {
    let v0 = chain.v0_ends(st.v0);
    let v1 = chain.v1_ends(st.v1);
    let v0_name = |n: Option<u32>| n.map(|n| chain.v0.names[n as usize].as_str());
    let v1_name = |n: Option<u32>| n.map(|n| chain.v1.states[n as usize].0.as_str());
    let mut out = Vec::new();
    if v0_name(v0.first) != v1_name(v1.first) {
        out.push("next hop");
    }
    let v0_last = v0_name(v0.last).unwrap_or(&st.from);
    let v1_last = v1_name(v1.last).unwrap_or(&st.from);
    if v0_last != v1_last {
        out.push("end");
    }
    let v0_moves = v0.hops != Some(0);
    let v1_moves = v1.hops != Some(0);
    if !v1_moves && v0_moves {
        out.push("v1 stuck where v0 moves");
    }
    if !v0_moves && v1_moves {
        out.push("v0 stuck where v1 moves");
    }
    out
}

/// A path as text: `a -> b -> c`, `stays` when empty, and what was not
/// listed of a long path.
fn path_text(path: &[String], hops: Option<usize>, last: Option<&str>) -> String {
    if path.is_empty() {
        return "stays".to_owned();
    }
    let mut text = path.join(" -> ");
    if let (Some(hops), Some(last)) = (hops, last) {
        text.push_str(&format!(
            " -> … ({} more hop(s), {hops} in all) -> {last}",
            hops - path.len() - 1
        ));
    }
    text
}

impl Comparison {
    /// Whether some start's paths differ.
    pub fn differs(&self) -> bool {
        self.differing > 0
    }

    /// The comparison as `compare-olm` prints it: each start's two paths,
    /// the bundles v1 refuses, and the count.
    ///
    /// # Errors
    ///
    /// What writing to `out` gives.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        for st in &self.origins {
            let r = row(&self.chains, st);
            let mark = if r.differences.is_empty() {
                "same".to_owned()
            } else {
                format!("DIFFERS ({})", r.differences.join(", "))
            };
            writeln!(out, "{} / {} from {}: {mark}", r.package, r.channel, r.from)?;
            writeln!(
                out,
                "  v0: {} [{}]",
                path_text(&r.v0_path, r.v0_hops, r.v0_last.as_deref()),
                r.v0_end
            )?;
            let v1_end = match &r.v1_message {
                Some(m) => format!("{}: {m}", r.v1_end),
                None => r.v1_end.to_owned(),
            };
            writeln!(
                out,
                "  v1: {} [{v1_end}]",
                path_text(&r.v1_path, r.v1_hops, r.v1_last.as_deref())
            )?;
        }
        if !self.v1_refuses.is_empty() {
            writeln!(
                out,
                "\nbundles OLM v1 refuses to install (dependencies are not supported):"
            )?;
            for r in &self.v1_refuses {
                writeln!(
                    out,
                    "  {} / {}: {}",
                    r.package,
                    r.bundle,
                    r.properties.join(", ")
                )?;
            }
        }
        if !self.default_channels.is_empty() {
            writeln!(
                out,
                "\npackages whose fresh install OLM v0 and OLM v1 take from different channels (v0 follows defaultChannel, v1 takes the highest version of every channel):"
            )?;
            for d in &self.default_channels {
                writeln!(
                    out,
                    "  {}: v0 installs {} (defaultChannel {}); v1 installs {} (channel {})",
                    d.package,
                    d.v0_bundle,
                    d.default_channel,
                    d.v1_bundle,
                    d.v1_channels.join(", ")
                )?;
            }
        }
        writeln!(
            out,
            "\n{} start(s) compared, {} differ",
            self.starts, self.differing
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks over fixed next nodes (`NONE`: none).
    fn walks(next: &[u32]) -> (Walks, Vec<Fate>) {
        let mut w = Walks::default();
        for _ in next {
            w.add();
        }
        let mut step = |_: &mut Walks, n: u32| Some(next[n as usize]).filter(|&x| x != NONE);
        let fates = (0..next.len())
            .map(|i| w.fate(index_u32(i), &mut step))
            .collect();
        (w, fates)
    }

    #[test]
    fn chains_stop_where_nothing_follows() {
        // 0 -> 1 -> 2 -> 3, 4 -> 2
        let (w, fates) = walks(&[1, 2, 3, NONE, 2]);
        assert_eq!(
            fates,
            [
                Fate::Stops { hops: 3, last: 3 },
                Fate::Stops { hops: 2, last: 3 },
                Fate::Stops { hops: 1, last: 3 },
                Fate::Stops { hops: 0, last: 3 },
                Fate::Stops { hops: 2, last: 3 },
            ]
        );
        assert_eq!(w.list(0, 3), [1, 2, 3]);
        assert_eq!(w.list(4, 1), [2]);
    }

    /// As `ChannelGraph::olm_path` ends a walk at the first node met
    /// twice: a start on the cycle comes back to itself, a start before it
    /// to where it enters the cycle.
    #[test]
    fn cycles_end_at_the_first_node_met_twice() {
        // 0 -> 1 -> 2 -> 3 -> 1, 4 -> 0
        let (w, fates) = walks(&[1, 2, 3, 1, 0]);
        assert_eq!(
            fates,
            [
                Fate::Cycles { hops: 4, entry: 1 },
                Fate::Cycles { hops: 3, entry: 1 },
                Fate::Cycles { hops: 3, entry: 2 },
                Fate::Cycles { hops: 3, entry: 3 },
                Fate::Cycles { hops: 5, entry: 1 },
            ]
        );
        assert_eq!(w.list(4, 5), [0, 1, 2, 3, 1]);
        assert_eq!(w.list(2, 3), [3, 1, 2]);
    }

    /// Each node's next node is asked for once, however many walks pass it.
    #[test]
    fn each_step_is_taken_once() {
        let n = 2000;
        let mut w = Walks::default();
        for _ in 0..n {
            w.add();
        }
        let mut asked = vec![0u32; n];
        let mut step = |_: &mut Walks, x: u32| {
            asked[x as usize] += 1;
            Some(x + 1).filter(|&y| (y as usize) < n)
        };
        for i in 0..n {
            w.fate(index_u32(i), &mut step);
        }
        assert!(asked.iter().all(|&a| a == 1));
        assert_eq!(
            w.fate[0],
            Fate::Stops {
                hops: n - 1,
                last: index_u32(n - 1)
            }
        );
    }

    #[test]
    fn long_paths_say_how_they_end() {
        let path: Vec<String> = (1..=3).map(|i| format!("p.v{i}")).collect();
        assert_eq!(path_text(&path, None, None), "p.v1 -> p.v2 -> p.v3");
        assert_eq!(
            path_text(&path, Some(10), Some("p.v10")),
            "p.v1 -> p.v2 -> p.v3 -> … (6 more hop(s), 10 in all) -> p.v10"
        );
        assert_eq!(path_text(&[], None, None), "stays");
    }
}
