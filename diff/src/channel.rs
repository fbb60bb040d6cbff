//! One channel as the diff sees it: its upgrade graph (every `replaces`,
//! `skips` and `skipRange` edge, from [`ChannelGraph`]), its heads by opm's
//! rule, the target an upgrade aims at, which nodes reach it, and OLM v0's
//! real path from an installed bundle.

use std::collections::{BTreeSet, VecDeque};

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use olmsat_catalog::model::{Channel, Package};
use olmsat_graph::upgrade::{
    ChannelGraph, EdgeKind, NodeIndex, OlmPath, Presence, Start, StartMatch,
};

/// A channel's graph with its heads, target and reachability.
pub(crate) struct View<'m> {
    /// The upgrade graph.
    pub graph: ChannelGraph<'m>,
    /// Entries that no entry replaces or skips (opm's head rule; skipRange plays no part).
    pub heads: Vec<NodeIndex>,
    /// The single head, or the highest-versioned of several (ties: greatest name).
    pub target: Option<NodeIndex>,
    /// Per node: the target is reachable from it along edges (or it is the target).
    reach: Vec<bool>,
}

impl<'m> View<'m> {
    /// The view of `channel` of `package`.
    pub(crate) fn new(package: &'m Package, channel: &'m Channel) -> View<'m> {
        let graph = ChannelGraph::build(package, channel);
        let g = graph.graph();
        let mut heads: Vec<NodeIndex> = (0..channel.entries().len())
            .filter(|&i| !channel.chain().repeated.contains(&i))
            .filter_map(|i| graph.entry_node(i))
            .filter(|&n| {
                !g.edges_directed(n, Direction::Outgoing).any(|e| {
                    e.weight().kind != EdgeKind::SkipRange
                        && e.target() != n
                        && !graph.node(e.target()).is_external()
                })
            })
            .collect();
        heads.sort_by_key(|&n| graph.node(n).name);
        let target = heads.iter().copied().max_by(|&a, &b| {
            let (na, nb) = (graph.node(a), graph.node(b));
            na.version
                .cmp(&nb.version)
                .then_with(|| na.name.cmp(nb.name))
        });
        let mut reach = vec![false; graph.node_count()];
        if let Some(t) = target {
            let mut queue = VecDeque::from([t]);
            reach[t.index()] = true;
            while let Some(n) = queue.pop_front() {
                for e in g.edges_directed(n, Direction::Incoming) {
                    let s = e.source();
                    if !reach[s.index()] {
                        reach[s.index()] = true;
                        queue.push_back(s);
                    }
                }
            }
        }
        View {
            graph,
            heads,
            target,
            reach,
        }
    }

    /// The name of node `n`.
    pub(crate) fn name(&self, n: NodeIndex) -> &'m str {
        self.graph.node(n).name
    }

    /// The target's name.
    pub(crate) fn target_name(&self) -> Option<&'m str> {
        self.target.map(|t| self.name(t))
    }

    /// The version of node `n`, when it has one.
    pub(crate) fn version(&self, n: NodeIndex) -> Option<&'m semver::Version> {
        self.graph.node(n).version
    }

    /// The entry node called `name`, if `name` is an entry of the channel.
    pub(crate) fn entry(&self, name: &str) -> Option<NodeIndex> {
        self.graph
            .node_index(name)
            .filter(|&n| matches!(self.graph.node(n).presence, Presence::Entry(_)))
    }

    /// Whether the entry `name` reaches the target along edges.
    pub(crate) fn reaches(&self, name: &str) -> bool {
        self.entry(name).is_some_and(|n| self.reach[n.index()])
    }

    /// Whether the channel has several heads (OLM v0 cannot serve it).
    pub(crate) fn several_heads(&self) -> bool {
        self.heads.len() > 1
    }

    /// The first edge (in channel order, replaces before skips before
    /// skipRange) from the installed bundle `name` (at `version`) to an entry
    /// other than itself.
    pub(crate) fn edge_from(
        &self,
        name: &str,
        version: Option<&semver::Version>,
    ) -> Option<(NodeIndex, EdgeKind)> {
        let start = self.start(name, version);
        self.graph
            .graph_successors(&start)
            .into_iter()
            .find(|s| Some(s.to) != start.node)
            .map(|s| (s.to, s.edge.kind))
    }

    /// The entries the entry `name` has an edge to, with the kind of the first.
    pub(crate) fn out_edges(&self, name: &str) -> Vec<(&'m str, EdgeKind)> {
        let Some(n) = self.entry(name) else {
            return Vec::new();
        };
        let mut out: Vec<(&'m str, EdgeKind)> = self
            .graph
            .graph()
            .edges_directed(n, Direction::Outgoing)
            .filter(|e| e.target() != n)
            .map(|e| (self.name(e.target()), e.weight().kind))
            .collect();
        out.sort_unstable();
        out.dedup_by_key(|(t, _)| *t);
        out
    }

    /// Where an installed bundle called `name` at `version` starts: its node
    /// when the graph has one (an entry, or a name an entry points at), and its
    /// version for skipRanges.
    pub(crate) fn start(&self, name: &str, version: Option<&semver::Version>) -> Start {
        match self.graph.node_index(name) {
            Some(n) => {
                let mut s = Start::node(&self.graph, n);
                if s.version.is_none() {
                    s.version = version.cloned();
                }
                s
            }
            None => Start {
                node: None,
                name: Some(name.to_owned()),
                version: version.cloned(),
                matched: StartMatch::PrunedVersion,
            },
        }
    }

    /// OLM v0's path from the installed bundle `name` (at `version`) to the
    /// target, or `None` when the channel has no single head.
    pub(crate) fn olm_path(
        &self,
        name: &str,
        version: Option<&semver::Version>,
    ) -> Option<OlmPath<'m>> {
        let target = self.target?;
        if self.several_heads() || self.graph.head() != Some(target) {
            return None;
        }
        Some(self.graph.olm_path(&self.start(name, version)))
    }

    /// A path as text: `a -> b -> c`.
    pub(crate) fn path_text(&self, from: &str, path: &OlmPath<'_>) -> String {
        let mut out = from.to_owned();
        for s in &path.steps {
            out.push_str(" -> ");
            out.push_str(self.name(s.to));
        }
        out
    }

    /// Why OLM v0 stops where `path` ends: the entry the graph leads to that
    /// OLM does not offer, and why; or that nothing upgrades from there.
    pub(crate) fn blocking(
        &self,
        from: &str,
        version: Option<&semver::Version>,
        path: &OlmPath<'_>,
    ) -> String {
        use olmsat_graph::upgrade::OlmEnd;
        let (last_name, start) = match path.steps.last() {
            Some(s) => (self.name(s.to), Start::node(&self.graph, s.to)),
            None => (from, self.start(from, version)),
        };
        if let OlmEnd::Loop(at) = path.end {
            return format!("OLM would cycle back to {}", self.name(at));
        }
        let blocked = self
            .graph
            .graph_successors(&start)
            .into_iter()
            .filter(|s| Some(s.to) != start.node)
            .find(|s| !self.graph.olm_candidate(s.to));
        match blocked.and_then(|s| self.graph.not_offered(s.to).map(|why| (s, why))) {
            Some((s, why)) => format!(
                "blocked at {last_name}: {} ({} {last_name}) is never offered: {why}",
                self.name(s.to),
                s.edge.kind
            ),
            None => format!("blocked at {last_name}: no entry upgrades from it"),
        }
    }

    /// Names of the entries (first of each name), in channel order.
    pub(crate) fn entry_names(&self) -> impl Iterator<Item = &'m str> + '_ {
        let ch = self.graph.channel();
        ch.entries()
            .iter()
            .enumerate()
            .filter(|(i, _)| !ch.chain().repeated.contains(i))
            .map(|(_, e)| e.name.as_str())
    }

    /// The entry names as a set.
    pub(crate) fn entry_set(&self) -> BTreeSet<&'m str> {
        self.entry_names().collect()
    }
}
