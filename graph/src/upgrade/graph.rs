//! The upgrade graph of one channel: a node per entry (and per name an entry
//! points at that is not in the channel), an edge old -> new per `replaces`,
//! per `skips` name, and per entry whose version a `skipRange` contains.
//!
//! (Over 800 lines with its unit tests: about 630 of code, the graph's
//! construction in one place so its node and edge indexes stay consistent.)

use std::cmp::Ordering;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
// foldhash: fast, and seeded per process like the standard hasher.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use rayon::prelude::*;

use olmsat_catalog::chain::ChainAnalysis;
use olmsat_catalog::declcfg::ChannelEntry;
use olmsat_catalog::model::{Bundle, Channel, Package};
use olmsat_catalog::name_index::NameIndex;
use olmsat_encoding::location::Location;
use olmsat_versions::index::VersionIndex;
use olmsat_versions::range::{Range, RangeError};
use olmsat_versions::version;

/// Why an edge exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// The newer entry's `replaces` names the older one.
    Replaces,
    /// The newer entry's `skips` lists the older one.
    Skips,
    /// The newer entry's `skipRange` contains the older one's version.
    SkipRange,
}

impl EdgeKind {
    /// The catalog field name: `replaces`, `skips` or `skipRange`.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Replaces => "replaces",
            EdgeKind::Skips => "skips",
            EdgeKind::SkipRange => "skipRange",
        }
    }
}

impl std::fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An edge old -> new with its provenance: the kind and the entry that declares
/// it (always the edge's target).
#[derive(Debug, Clone, Copy)]
pub struct Edge<'m> {
    /// Replaces, skips or skipRange.
    pub kind: EdgeKind,
    /// The channel entry whose field declares the edge.
    pub declared_by: &'m ChannelEntry,
}

impl<'m> Edge<'m> {
    /// The range text, for a skipRange edge.
    pub fn range(&self) -> Option<&'m str> {
        match self.kind {
            EdgeKind::SkipRange => self.declared_by.skip_range.as_deref(),
            _ => None,
        }
    }

    /// Where the declaring entry is (file:line).
    pub fn location(&self) -> &'m Location {
        &self.declared_by.location
    }
}

/// Whether a node is an entry of the channel, and if not, whether the catalog
/// knows it at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// An entry of the channel (its index in [`Channel::entries`]).
    Entry(usize),
    /// Not in this channel, but a bundle of the package.
    OtherChannel,
    /// Named by a `replaces` or `skips` but not a bundle of the package.
    Missing,
}

/// A node: an entry of the channel, or an "external" name one points at.
#[derive(Debug, Clone)]
pub struct Node<'m> {
    /// Bundle name.
    pub name: &'m str,
    /// The bundle's `olm.package` version (`None` when absent or unparseable, and
    /// for names the catalog does not have).
    pub version: Option<&'m semver::Version>,
    /// Entry of the channel or external.
    pub presence: Presence,
    /// The package's bundle of that name, if any.
    pub bundle: Option<&'m Bundle>,
    /// Position on the replaces chain from the head (0 = head), if on it.
    pub chain_position: Option<usize>,
    /// Skipped by some entry of the channel (OLM v0 never offers it).
    pub skipped: bool,
    /// The `olm.deprecations` message for this bundle, if any.
    pub deprecation: Option<&'m str>,
    /// The bundle carries the legacy `olm.deprecated` property (OLM v0 refuses
    /// to install it).
    pub legacy_deprecated: bool,
}

impl Node<'_> {
    /// Not an entry of the channel.
    pub fn is_external(&self) -> bool {
        !matches!(self.presence, Presence::Entry(_))
    }

    /// Deprecated by `olm.deprecations` or by the legacy property.
    pub fn is_deprecated(&self) -> bool {
        self.deprecation.is_some() || self.legacy_deprecated
    }
}

/// A `skipRange` that does not parse; it gives no edges.
#[derive(Debug, Clone)]
pub struct InvalidRange<'m> {
    /// The entry declaring it.
    pub entry: &'m ChannelEntry,
    /// The parse error (blang's text).
    pub error: RangeError,
}

/// Channels with at least this many entries parse and match their skipRanges
/// on another thread while the graph's entry nodes are added.
const PARALLEL_RANGES_ENTRIES: usize = 4096;

/// A channel's skipRanges, parsed, and the entries each one matches.
struct RangeSources<'m> {
    /// The ranges that parse: (entry index, range).
    ranges: Vec<(usize, Range)>,
    /// The ranges that do not.
    invalid_ranges: Vec<InvalidRange<'m>>,
    /// Each range's source entries (ascending, without repeats), range after
    /// range; empty when `too_many_edges`.
    sources: Vec<usize>,
    /// How many of `sources` each range has (empty when `too_many_edges`).
    per_range: Vec<usize>,
    /// The sources passed the bound.
    too_many_edges: bool,
}

impl<'m> RangeSources<'m> {
    /// Parse the skipRanges of `entries` and find, for each, the entries
    /// whose version (that of their bundle, `entry_bundle`) it contains,
    /// stopping once there are more than `max_edges`.
    ///
    /// A long channel's ranges are parsed while its versions are sorted, and
    /// matched in slices, on all threads.
    fn find(
        entries: &'m [ChannelEntry],
        entry_bundle: impl Fn(usize) -> Option<&'m Bundle> + Sync,
        max_edges: usize,
    ) -> Self {
        let mut found = RangeSources {
            ranges: Vec::new(),
            invalid_ranges: Vec::new(),
            sources: Vec::new(),
            per_range: Vec::new(),
            too_many_edges: false,
        };
        if entries.iter().all(|e| e.skip_range.is_none()) {
            return found;
        }
        let parallel = entries.len() >= PARALLEL_RANGES_ENTRIES;
        let parse = || {
            let parse_one = |(i, e): (usize, &'m ChannelEntry)| {
                e.skip_range
                    .as_deref()
                    .map(|text| (i, e, Range::parse(text)))
            };
            let parsed: Vec<_> = if parallel {
                entries
                    .par_iter()
                    .enumerate()
                    .filter_map(parse_one)
                    .collect()
            } else {
                entries.iter().enumerate().filter_map(parse_one).collect()
            };
            let mut ranges = Vec::with_capacity(parsed.len());
            let mut invalid_ranges = Vec::new();
            for (i, entry, parsed) in parsed {
                match parsed {
                    Ok(r) => ranges.push((i, r)),
                    Err(error) => invalid_ranges.push(InvalidRange { entry, error }),
                }
            }
            (ranges, invalid_ranges)
        };
        // Entries by version, so each range only looks at the versions its
        // bounds allow instead of every entry.
        let index = || {
            VersionIndex::new((0..entries.len()).filter_map(|j| {
                entry_bundle(j)
                    .and_then(|b| b.version.as_ref())
                    .map(|v| (j, v))
            }))
        };
        let ((ranges, invalid_ranges), by_version) = if parallel {
            rayon::join(parse, index)
        } else {
            (parse(), index())
        };
        found.ranges = ranges;
        found.invalid_ranges = invalid_ranges;
        // Each slice of ranges gives its sources and counts; all stop once
        // the sources found together pass the bound.
        let total = AtomicUsize::new(0);
        let match_slice = |slice: &[(usize, Range)]| {
            let mut sources = Vec::new();
            let mut per_range = Vec::with_capacity(slice.len());
            for (_, range) in slice {
                if total.load(AtomicOrdering::Relaxed) > max_edges {
                    break;
                }
                let from = sources.len();
                sources.extend(by_version.matching(range));
                sources[from..].sort_unstable();
                let kept = dedup_sorted(&mut sources, from);
                per_range.push(kept);
                total.fetch_add(kept, AtomicOrdering::Relaxed);
            }
            (sources, per_range)
        };
        let slices: Vec<(Vec<usize>, Vec<usize>)> = if parallel {
            found
                .ranges
                .par_chunks(RANGES_PER_SLICE)
                .map(match_slice)
                .collect()
        } else {
            vec![match_slice(&found.ranges)]
        };
        if total.into_inner() > max_edges {
            found.too_many_edges = true;
            return found;
        }
        if let [_] = slices.as_slice() {
            // One slice: its lists are taken whole.
            if let Some((sources, per_range)) = slices.into_iter().next() {
                (found.sources, found.per_range) = (sources, per_range);
            }
            return found;
        }
        found.sources = Vec::with_capacity(slices.iter().map(|(s, _)| s.len()).sum());
        found.per_range = Vec::with_capacity(found.ranges.len());
        for (sources, per_range) in slices {
            found.sources.extend_from_slice(&sources);
            found.per_range.extend_from_slice(&per_range);
        }
        found
    }
}

/// How many skipRanges of a long channel one task matches.
const RANGES_PER_SLICE: usize = 512;

/// The most `skipRange` edges one channel graph holds. Ranges that each match
/// every earlier version make the edge count grow with the square of the
/// channel's length (a 100,000-entry channel would need 5·10⁹ edges); past this
/// bound the graph is marked [`ChannelGraph::too_many_edges`] and callers refuse
/// it with an error rather than run out of memory or answer from part of it.
/// Real catalogs stay far below it (the largest corpus channel has a few
/// thousand range edges).
pub const MAX_SKIP_RANGE_EDGES: usize = 5_000_000;

/// A channel whose `skipRange` edges exceed [`MAX_SKIP_RANGE_EDGES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("package {package:?}, channel {channel:?}: its skipRanges make more than {limit} edges; olmsat refuses to build a graph this large")]
pub struct TooManyEdges {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// The limit that was passed.
    pub limit: usize,
}

/// The upgrade graph of one channel of a package.
///
/// Nodes `0..entries.len()` are the channel's entries in input order; external
/// nodes follow in order of first reference. Head and chain come from
/// [`Channel::chain`] (opm's analysis), never recomputed.
#[derive(Debug)]
pub struct ChannelGraph<'m> {
    package: &'m Package,
    channel: &'m Channel,
    graph: DiGraph<Node<'m>, Edge<'m>>,
    /// Entry nodes by name (node `i` is entry `i`).
    entry_index: std::borrow::Cow<'m, NameIndex>,
    /// The other nodes by name.
    externals: HashMap<&'m str, NodeIndex>,
    ranges: Vec<(usize, Range)>,
    invalid_ranges: Vec<InvalidRange<'m>>,
    too_many_edges: bool,
}

impl<'m> ChannelGraph<'m> {
    /// Build the graph of `channel`, a channel of `package`.
    ///
    /// Cost: linear in entries, `replaces` and `skips`, plus one range test per
    /// (entry with a skipRange, entry with a version) pair.
    pub fn build(package: &'m Package, channel: &'m Channel) -> ChannelGraph<'m> {
        Self::build_bounded(package, channel, MAX_SKIP_RANGE_EDGES)
    }

    /// [`ChannelGraph::build`] with another bound on `skipRange` edges.
    pub fn build_bounded(
        package: &'m Package,
        channel: &'m Channel,
        max_range_edges: usize,
    ) -> ChannelGraph<'m> {
        let entries = &channel.entries();
        let chain: &ChainAnalysis = channel.chain();
        // The channel's analysis indexed its entries; a channel built some
        // other way is indexed here.
        let indexed = chain.index.covers(entries);
        let entry_index: std::borrow::Cow<'m, NameIndex> = if indexed {
            std::borrow::Cow::Borrowed(&chain.index)
        } else {
            std::borrow::Cow::Owned(NameIndex::new(entries, |e| &e.name).0)
        };
        let entry_bundles =
            (channel.entry_bundles().len() == entries.len()).then_some(channel.entry_bundles());
        // The package's bundle of entry `i`.
        let entry_bundle = |i: usize| -> Option<&'m Bundle> {
            match entry_bundles {
                Some(b) => b[i].and_then(|j| package.bundles().get(j)),
                None => package.bundle(&entries[i].name),
            }
        };
        let mut chain_position = vec![None; entries.len()];
        for (pos, &i) in chain.chain.iter().enumerate() {
            if let Some(slot) = chain_position.get_mut(i) {
                *slot = Some(pos);
            }
        }
        let node_for = |name: &'m str, presence: Presence, chain_position: Option<usize>| {
            let (bundle, skipped) = match presence {
                Presence::Entry(i) => (entry_bundle(i), chain.skipped_entries.get(i).copied()),
                _ => (package.bundle(name), None),
            };
            Node {
                name,
                version: bundle.and_then(|b| b.version.as_ref()),
                presence,
                bundle,
                chain_position,
                skipped: skipped.unwrap_or_else(|| chain.skipped.contains(name)),
                deprecation: package.deprecations.bundles.get(name).map(String::as_str),
                legacy_deprecated: bundle.is_some_and(Bundle::legacy_deprecated),
            }
        };
        // Room for the entries and a few external names; the edges are
        // counted before any is added, so that their list is made once, at its
        // final size.
        let mut graph: DiGraph<Node<'m>, Edge<'m>> =
            DiGraph::with_capacity(entries.len() + entries.len() / 64 + 8, 0);
        let mut add_entry_nodes = || {
            for (i, e) in entries.iter().enumerate() {
                graph.add_node(node_for(&e.name, Presence::Entry(i), chain_position[i]));
            }
        };
        // The skipRanges are parsed and matched against the entries' versions
        // (for a long channel, on another thread) while the entry nodes are
        // added.
        let match_ranges = || RangeSources::find(entries, entry_bundle, max_range_edges);
        let found = if entries.len() >= PARALLEL_RANGES_ENTRIES {
            rayon::join(match_ranges, add_entry_nodes).0
        } else {
            add_entry_nodes();
            match_ranges()
        };
        let declared: usize = entries
            .iter()
            .map(|e| usize::from(e.replaces.is_some()) + e.skips.len())
            .sum();
        let range_edges = if found.too_many_edges {
            0
        } else {
            found.sources.len()
        };
        graph.reserve_exact_edges(declared + range_edges);
        let mut externals: HashMap<&'m str, NodeIndex> = HashMap::new();
        let mut intern = |graph: &mut DiGraph<Node<'m>, Edge<'m>>, name: &'m str| -> NodeIndex {
            if let Some(i) = entry_index.find(entries, |e| &e.name, name) {
                return NodeIndex::new(i);
            }
            *externals.entry(name).or_insert_with(|| {
                let presence = if package.bundle(name).is_some() {
                    Presence::OtherChannel
                } else {
                    Presence::Missing
                };
                graph.add_node(node_for(name, presence, None))
            })
        };
        let mut seen_skips: HashSet<NodeIndex> = HashSet::new();
        for (i, e) in entries.iter().enumerate() {
            let to = NodeIndex::new(i);
            if let Some(r) = e.replaces.as_deref() {
                // The analysis found the entry most `replaces` name.
                let from = match chain.replaced.get(i) {
                    Some(&Some(j)) if indexed && entries.get(j).is_some_and(|t| t.name == r) => {
                        NodeIndex::new(j)
                    }
                    _ => intern(&mut graph, r),
                };
                graph.add_edge(
                    from,
                    to,
                    Edge {
                        kind: EdgeKind::Replaces,
                        declared_by: e,
                    },
                );
            }
            if !e.skips.is_empty() {
                seen_skips.clear();
            }
            for s in &e.skips {
                let from = intern(&mut graph, s);
                if !seen_skips.insert(from) {
                    continue;
                }
                graph.add_edge(
                    from,
                    to,
                    Edge {
                        kind: EdgeKind::Skips,
                        declared_by: e,
                    },
                );
            }
        }
        let RangeSources {
            ranges,
            invalid_ranges,
            sources,
            per_range,
            too_many_edges,
        } = found;
        if !too_many_edges {
            let mut next = sources.iter();
            for ((i, _), &count) in ranges.iter().zip(&per_range) {
                let declared_by = &entries[*i];
                for &j in next.by_ref().take(count) {
                    graph.add_edge(
                        NodeIndex::new(j),
                        NodeIndex::new(*i),
                        Edge {
                            kind: EdgeKind::SkipRange,
                            declared_by,
                        },
                    );
                }
            }
        }
        ChannelGraph {
            package,
            channel,
            graph,
            entry_index,
            externals,
            ranges,
            invalid_ranges,
            too_many_edges,
        }
    }

    /// Whether the channel's `skipRange` edges passed the bound the graph was
    /// built with, so that the graph is incomplete and must not be used.
    pub fn too_many_edges(&self) -> bool {
        self.too_many_edges
    }

    /// The graph, or an error when it is incomplete (see [`MAX_SKIP_RANGE_EDGES`]).
    pub fn complete(self) -> Result<Self, TooManyEdges> {
        if self.too_many_edges {
            return Err(TooManyEdges {
                package: self.package.name.clone(),
                channel: self.channel.name.clone(),
                limit: MAX_SKIP_RANGE_EDGES,
            });
        }
        Ok(self)
    }

    /// The package.
    pub fn package(&self) -> &'m Package {
        self.package
    }

    /// The channel.
    pub fn channel(&self) -> &'m Channel {
        self.channel
    }

    /// The petgraph graph (nodes and edges with provenance).
    pub fn graph(&self) -> &DiGraph<Node<'m>, Edge<'m>> {
        &self.graph
    }

    /// The node at `ix`.
    pub fn node(&self, ix: NodeIndex) -> &Node<'m> {
        &self.graph[ix]
    }

    /// The edge at `ix`.
    pub fn edge(&self, ix: EdgeIndex) -> &Edge<'m> {
        &self.graph[ix]
    }

    /// Number of nodes (entries and external names).
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// All node indices, entries first in input order.
    pub fn node_indices(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.graph.node_indices()
    }

    /// The node called `name`.
    pub fn node_index(&self, name: &str) -> Option<NodeIndex> {
        match self
            .entry_index
            .find(self.channel.entries(), |e| &e.name, name)
        {
            Some(i) => Some(NodeIndex::new(i)),
            None => self.externals.get(name).copied(),
        }
    }

    /// The node of entry `i` of the channel.
    pub fn entry_node(&self, i: usize) -> Option<NodeIndex> {
        (i < self.channel.entries().len()).then(|| NodeIndex::new(i))
    }

    /// opm's head/chain analysis of the channel (as stored on the channel).
    pub fn chain(&self) -> &'m ChainAnalysis {
        self.channel.chain()
    }

    /// The head, when the channel has exactly one.
    pub fn head(&self) -> Option<NodeIndex> {
        self.channel.chain().head.and_then(|i| self.entry_node(i))
    }

    /// The replaces chain from the head, head first.
    pub fn chain_nodes(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.channel
            .chain()
            .chain
            .iter()
            .filter_map(|&i| self.entry_node(i))
    }

    /// skipRanges that do not parse (they give no edges).
    pub fn invalid_ranges(&self) -> &[InvalidRange<'m>] {
        &self.invalid_ranges
    }

    /// The parsed skipRanges: (entry index, range).
    pub(crate) fn ranges(&self) -> &[(usize, Range)] {
        &self.ranges
    }

    /// Every edge as (index, from, to), in insertion order.
    pub fn edge_list(&self) -> impl Iterator<Item = (EdgeIndex, NodeIndex, NodeIndex)> + '_ {
        self.graph
            .edge_references()
            .map(|e| (e.id(), e.source(), e.target()))
    }

    /// Incoming edges of `n` as (edge, source), in insertion order.
    pub fn incoming(&self, n: NodeIndex) -> Vec<(EdgeIndex, NodeIndex)> {
        let mut v: Vec<(EdgeIndex, NodeIndex)> = self
            .graph
            .edges_directed(n, Direction::Incoming)
            .map(|e| (e.id(), e.source()))
            .collect();
        v.sort_unstable();
        v
    }

    /// The drawing/listing order of nodes: by version (lowest first, by blang
    /// precedence, then build metadata), nodes without a version last, then by
    /// name.
    pub fn version_order(&self, a: NodeIndex, b: NodeIndex) -> Ordering {
        let (na, nb) = (&self.graph[a], &self.graph[b]);
        match (na.version, nb.version) {
            (Some(va), Some(vb)) => version::compare(va, vb).then_with(|| va.cmp(vb)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
        .then_with(|| na.name.cmp(nb.name))
    }

    /// Order used to pick among candidates: chain position (head first), then
    /// nodes off the chain by index.
    pub(crate) fn channel_order_key(&self, n: NodeIndex) -> (usize, usize) {
        (
            self.graph[n].chain_position.unwrap_or(usize::MAX),
            n.index(),
        )
    }
}

/// Remove repeated values from the sorted tail `v[from..]`; gives how many
/// stay there.
fn dedup_sorted(v: &mut Vec<usize>, from: usize) -> usize {
    let mut kept = from;
    for k in from..v.len() {
        if kept == from || v[kept - 1] != v[k] {
            v[kept] = v[k];
            kept += 1;
        }
    }
    v.truncate(kept);
    kept - from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::{package, stable};

    fn edges(g: &ChannelGraph<'_>) -> Vec<String> {
        let mut v: Vec<String> = g
            .edge_list()
            .map(|(e, a, b)| {
                let edge = g.edge(e);
                match edge.range() {
                    Some(r) => format!("{}->{} {}({r})", g.node(a).name, g.node(b).name, edge.kind),
                    None => format!("{}->{} {}", g.node(a).name, g.node(b).name, edge.kind),
                }
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn replaces_skips_and_ranges_become_edges() {
        let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b|a;>=1.0.0 <1.2.0"]);
        let g = ChannelGraph::build(&p, stable(&p));
        assert_eq!(
            edges(&g),
            vec![
                "a->b replaces",
                "a->c skipRange(>=1.0.0 <1.2.0)",
                "a->c skips",
                "b->c replaces",
                "b->c skipRange(>=1.0.0 <1.2.0)",
            ]
        );
        assert_eq!(g.head().map(|h| g.node(h).name), Some("c"));
        let chain: Vec<&str> = g.chain_nodes().map(|n| g.node(n).name).collect();
        assert_eq!(chain, vec!["c", "b"]);
        let a = g.node_index("a").map(|n| g.node(n));
        assert!(a.is_some_and(|a| a.skipped && a.chain_position.is_none()));
    }

    #[test]
    fn quadratic_range_edges_are_bounded() {
        // Every entry's range matches every version: quadratically many edges.
        let specs: Vec<String> = (0..40)
            .map(|i| {
                if i == 0 {
                    "v0@1.0.0".to_owned()
                } else {
                    format!("v{i}@1.0.{i}<v{};>=0.0.0", i - 1)
                }
            })
            .collect();
        let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
        let p = package(&specs);
        let all = ChannelGraph::build(&p, stable(&p));
        assert!(!all.too_many_edges());
        let range_edges = |g: &ChannelGraph<'_>| {
            g.edge_list()
                .filter(|(e, _, _)| g.edge(*e).kind == EdgeKind::SkipRange)
                .count()
        };
        assert_eq!(range_edges(&all), 39 * 40);
        assert!(all.complete().is_ok());
        let bounded = ChannelGraph::build_bounded(&p, stable(&p), 100);
        assert!(bounded.too_many_edges());
        assert!(range_edges(&bounded) <= 100);
        let err = bounded.complete().expect_err("refused");
        assert!(err.to_string().contains("refuses"), "{err}");
    }

    #[test]
    fn long_channels_match_ranges_on_all_threads_as_one_would() {
        // Past the length at which ranges are parsed and matched in
        // parallel, in many slices; one range does not parse.
        let n = PARALLEL_RANGES_ENTRIES + 3 * RANGES_PER_SLICE;
        let version = |i: usize| format!("1.{}.{}", i / 100, i % 100);
        let specs: Vec<String> = (0..n)
            .map(|i| {
                let mut s = format!("v{i}@{}", version(i));
                if i > 0 {
                    s.push_str(&format!("<v{}", i - 1));
                }
                if i % 7 == 3 {
                    s.push_str(&format!(
                        ";>={} <{}",
                        version(i.saturating_sub(40)),
                        version(i)
                    ));
                } else if i == 2000 {
                    s.push_str(";not a range");
                }
                s
            })
            .collect();
        let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
        let p = package(&specs);
        let ch = stable(&p);
        let g = ChannelGraph::build(&p, ch);
        let mut found: Vec<(usize, usize)> = g
            .edge_list()
            .filter(|(e, _, _)| g.edge(*e).kind == EdgeKind::SkipRange)
            .map(|(_, a, b)| (a.index(), b.index()))
            .collect();
        // Every (version, range) pair tested, in the entries' order.
        let mut expected = Vec::new();
        for (i, e) in ch.entries().iter().enumerate() {
            let Some(Ok(range)) = e.skip_range.as_deref().map(Range::parse) else {
                continue;
            };
            for (j, b) in p.bundles().iter().enumerate() {
                if b.version.as_ref().is_some_and(|v| range.matches(v)) {
                    let from = ch.entries().iter().position(|x| x.name == b.name);
                    expected.push((from.unwrap_or(j), i));
                }
            }
        }
        found.sort_unstable();
        expected.sort_unstable();
        assert!(found.len() > 30 * (n / 7), "{}", found.len());
        assert_eq!(found, expected);
        assert_eq!(g.invalid_ranges().len(), 1);
        // Bounded just below the total: refused, with no range edge kept.
        let bounded = ChannelGraph::build_bounded(&p, ch, expected.len() - 1);
        assert!(bounded.too_many_edges());
        assert_eq!(
            bounded.graph().edge_count(),
            g.graph().edge_count() - expected.len()
        );
        let exact = ChannelGraph::build_bounded(&p, ch, expected.len());
        assert!(!exact.too_many_edges());
    }

    #[test]
    fn external_names_are_marked() {
        // b replaces a pruned bundle; c skips a bundle of another channel.
        let p = package(&["b@1.1.0<gone", "c@1.2.0<b|other", "!other@1.0.5"]);
        let g = ChannelGraph::build(&p, stable(&p));
        let gone = g.node_index("gone").map(|n| g.node(n).presence);
        let other = g.node_index("other").map(|n| g.node(n));
        assert_eq!(gone, Some(Presence::Missing));
        assert!(other.is_some_and(|o| o.presence == Presence::OtherChannel
            && o.version.map(ToString::to_string).as_deref() == Some("1.0.5")));
        assert_eq!(g.node_count(), 4);
    }

    #[test]
    fn prerelease_versions_fall_in_ranges() {
        let p = package(&["rc@1.2.0-rc.1", "b@1.1.0", "c@1.2.0<b;>=1.0.0 <1.2.0"]);
        let g = ChannelGraph::build(&p, stable(&p));
        assert!(edges(&g).contains(&"rc->c skipRange(>=1.0.0 <1.2.0)".to_owned()));
        // 1.1.x does not contain 1.1.0-beta.1 (the wildcard means >=1.1.0 <1.2.0).
        let p = package(&["beta@1.1.0-beta.1", "c@1.2.0|beta;1.1.x"]);
        let g = ChannelGraph::build(&p, stable(&p));
        assert_eq!(edges(&g), vec!["beta->c skips"]);
    }

    #[test]
    fn invalid_ranges_give_no_edges() {
        let p = package(&["a@1.0.0", "b@1.1.0<a;>v1.0.0"]);
        let g = ChannelGraph::build(&p, stable(&p));
        assert_eq!(edges(&g), vec!["a->b replaces"]);
        assert_eq!(g.invalid_ranges().len(), 1);
    }

    #[test]
    fn self_ranges_and_duplicate_skips() {
        // A range containing the entry's own version is a self edge, as opm draws it.
        let p = package(&["a@1.0.0", "b@1.0.1|a,a;<=1.0.1"]);
        let g = ChannelGraph::build(&p, stable(&p));
        assert_eq!(
            edges(&g),
            vec![
                "a->b skipRange(<=1.0.1)",
                "a->b skips",
                "b->b skipRange(<=1.0.1)"
            ]
        );
    }

    #[test]
    fn version_order_puts_unversioned_last() {
        let p = package(&["z@1.0.0", "a@2.0.0", "m"]);
        let g = ChannelGraph::build(&p, stable(&p));
        let mut nodes: Vec<NodeIndex> = g.node_indices().collect();
        nodes.sort_by(|a, b| g.version_order(*a, *b));
        let names: Vec<&str> = nodes.iter().map(|n| g.node(*n).name).collect();
        assert_eq!(names, vec!["z", "a", "m"]);
    }
}
