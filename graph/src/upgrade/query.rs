//! Questions asked of a channel graph: what OLM v0 offers next, the path it
//! takes, shortest and all paths, reachability, and distance to the head.
//!
//! Every algorithm here is iterative (no recursion), so channels of any length
//! are safe.
//!
//! Two views are kept apart:
//!
//! - **the graph**: every edge counts ([`ChannelGraph::shortest_path`],
//!   [`ChannelGraph::all_paths`], [`ChannelGraph::reachable_from`],
//!   [`ChannelGraph::hops_to_head`]);
//! - **OLM v0** ([`ChannelGraph::successors`], [`ChannelGraph::olm_path`]):
//!   candidates are only entries on the head's replaces chain, in chain order
//!   (head first); entries skipped by any entry of the channel and bundles with
//!   the legacy `olm.deprecated` property are never candidates; one edge is taken
//!   per resolution, to the first candidate.

use std::collections::VecDeque;

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::graph::{ChannelGraph, Edge, EdgeKind, Presence};
use super::start::Start;

/// One edge taken on a path.
#[derive(Debug, Clone, Copy)]
pub struct Step<'m> {
    /// Where the step starts; `None` for the start of the path when the start
    /// is not a node (a version, or a bundle the channel never mentions).
    pub from: Option<NodeIndex>,
    /// Where the step ends (always an entry of the channel).
    pub to: NodeIndex,
    /// The edge, with its provenance. When several edges join the same two
    /// nodes, replaces is preferred to skips, and skips to skipRange.
    pub edge: Edge<'m>,
}

/// How an OLM v0 walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OlmEnd {
    /// At the channel head.
    Head,
    /// At the requested target (which is not the head).
    Target,
    /// No candidate from the last bundle: OLM stays there.
    DeadEnd,
    /// The next candidate was already visited: OLM would go round this loop.
    Loop(NodeIndex),
    /// The channel has no single head; OLM v0 refuses to resolve in it.
    NoHead,
}

/// The steps OLM v0 takes, one resolution each, and how they end.
#[derive(Debug, Clone)]
pub struct OlmPath<'m> {
    /// The steps, in order.
    pub steps: Vec<Step<'m>>,
    /// Why the walk stopped.
    pub end: OlmEnd,
}

impl OlmPath<'_> {
    /// Whether the walk ends at the head.
    pub fn reaches_head(&self) -> bool {
        self.end == OlmEnd::Head
    }

    /// How the walk ends, in words, e.g. `reaches the head x in 2 steps`.
    pub fn summary(&self, graph: &ChannelGraph<'_>) -> String {
        let n = self.steps.len();
        let steps = if n == 1 { "step" } else { "steps" };
        let last = self.steps.last().map(|s| graph.node(s.to).name);
        match (self.end, last) {
            (OlmEnd::Head, Some(l)) => format!("reaches the head {l} in {n} {steps}"),
            (OlmEnd::Head, None) => "already at the head".to_owned(),
            (OlmEnd::Target, Some(l)) => format!("reaches {l} in {n} {steps}"),
            (OlmEnd::Target, None) => "already there".to_owned(),
            (OlmEnd::DeadEnd, Some(l)) => {
                format!("dead end at {l} after {n} {steps}: OLM v0 offers no upgrade from it")
            }
            (OlmEnd::DeadEnd, None) => {
                "dead end: OLM v0 offers no upgrade from the start".to_owned()
            }
            (OlmEnd::Loop(at), _) => format!(
                "loops back to {} after {n} {steps}: OLM would cycle",
                graph.node(at).name
            ),
            (OlmEnd::NoHead, _) => {
                "the channel has no single head: OLM v0 refuses to resolve in it".to_owned()
            }
        }
    }
}

/// Why OLM v0 never offers an entry as an upgrade.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotOffered<'m> {
    /// Skipped by these entries of the channel.
    Skipped(Vec<&'m str>),
    /// Not on the head's replaces chain (or the channel has no single head).
    OffChain,
    /// Carries the legacy `olm.deprecated` property.
    LegacyDeprecated,
}

impl std::fmt::Display for NotOffered<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotOffered::Skipped(by) => write!(f, "skipped by {}", by.join(", ")),
            NotOffered::OffChain => f.write_str("not on the head's replaces chain"),
            NotOffered::LegacyDeprecated => f.write_str("carries olm.deprecated"),
        }
    }
}

/// Simple paths between two nodes, up to a limit.
#[derive(Debug, Clone)]
pub struct AllPaths<'m> {
    /// The paths found, shortest first (then in channel order).
    pub paths: Vec<Vec<Step<'m>>>,
    /// False when the search stopped at the limit (or at the work bound) and
    /// more paths may exist.
    pub complete: bool,
}

/// Most node expansions [`ChannelGraph::all_paths`] makes before giving up.
pub const ALL_PATHS_WORK_BOUND: usize = 1_000_000;

type Out<'m> = Vec<(NodeIndex, Edge<'m>)>;

impl<'m> ChannelGraph<'m> {
    /// Keep one edge per target (replaces before skips before skipRange, then
    /// the earliest), drop edges back to `except`, and order by channel order.
    fn collapse(
        &self,
        mut out: Vec<(NodeIndex, Edge<'m>, usize)>,
        except: Option<NodeIndex>,
    ) -> Out<'m> {
        out.retain(|(t, _, _)| Some(*t) != except);
        out.sort_by_key(|(t, e, ord)| (self.channel_order_key(*t), e.kind, *ord));
        out.dedup_by_key(|(t, _, _)| *t);
        out.into_iter().map(|(t, e, _)| (t, e)).collect()
    }

    /// Graph edges out of node `n` (self edges left out).
    fn out_edges(&self, n: NodeIndex) -> Out<'m> {
        let all = self
            .graph()
            .edges_directed(n, Direction::Outgoing)
            .map(|e| (e.target(), *e.weight(), e.id().index()))
            .collect();
        self.collapse(all, Some(n))
    }

    /// Edges out of the start: the graph's edges for a node, plus the
    /// skipRanges containing the start's version when the graph has no such
    /// edges for it (a start that is not an entry).
    fn start_edges(&self, start: &Start) -> Out<'m> {
        let entry_start = start
            .node
            .is_some_and(|n| matches!(self.node(n).presence, Presence::Entry(_)));
        let mut all: Vec<(NodeIndex, Edge<'m>, usize)> = match start.node {
            Some(n) => self
                .graph()
                .edges_directed(n, Direction::Outgoing)
                .map(|e| (e.target(), *e.weight(), e.id().index()))
                .collect(),
            None => Vec::new(),
        };
        if !entry_start {
            if let Some(v) = &start.version {
                let entries = &self.channel().entries();
                for (i, range) in self.ranges() {
                    if range.matches(v) {
                        if let (Some(to), Some(declared_by)) =
                            (self.entry_node(*i), entries.get(*i))
                        {
                            let edge = Edge {
                                kind: EdgeKind::SkipRange,
                                declared_by,
                            };
                            all.push((to, edge, usize::MAX));
                        }
                    }
                }
            }
        }
        self.collapse(all, start.node)
    }

    /// Every edge out of `start` over the whole graph (one per target,
    /// replaces before skips before skipRange), in channel order.
    pub fn graph_successors(&self, start: &Start) -> Vec<Step<'m>> {
        self.start_edges(start)
            .into_iter()
            .map(|(to, edge)| Step {
                from: start.node,
                to,
                edge,
            })
            .collect()
    }

    /// Why OLM v0 never offers node `n` as an upgrade, or `None` when it can.
    pub fn not_offered(&self, n: NodeIndex) -> Option<NotOffered<'m>> {
        let node = self.node(n);
        if node.skipped {
            let mut by: Vec<&'m str> = self
                .channel()
                .entries()
                .iter()
                .filter(|e| e.skips.iter().any(|s| s == node.name))
                .map(|e| e.name.as_str())
                .collect();
            by.sort_unstable();
            return Some(NotOffered::Skipped(by));
        }
        if node.chain_position.is_none() {
            return Some(NotOffered::OffChain);
        }
        if node.legacy_deprecated {
            return Some(NotOffered::LegacyDeprecated);
        }
        None
    }

    /// Whether OLM v0 can offer node `n` as an upgrade: on the head's replaces
    /// chain, not skipped by any entry, not carrying `olm.deprecated`.
    pub fn olm_candidate(&self, n: NodeIndex) -> bool {
        let node = self.node(n);
        node.chain_position.is_some() && !node.skipped && !node.legacy_deprecated
    }

    fn olm_filter(&self, from: Option<NodeIndex>, out: Out<'m>) -> Vec<Step<'m>> {
        // `out` is in channel order already: chain position first.
        out.into_iter()
            .filter(|(t, _)| self.olm_candidate(*t))
            .map(|(to, edge)| Step { from, to, edge })
            .collect()
    }

    /// The entries OLM v0 accepts as the next step from the installed bundle
    /// `start`: those whose `replaces` is its name, whose `skips` lists it, or
    /// whose `skipRange` contains its version — restricted to the head's
    /// replaces chain, without skipped or `olm.deprecated` entries, in channel
    /// order (head first). OLM takes the first.
    pub fn successors(&self, start: &Start) -> Vec<Step<'m>> {
        self.olm_filter(start.node, self.start_edges(start))
    }

    /// The steps OLM v0 takes from `start` to the head, one resolution each,
    /// always to the first successor in channel order; stops at a dead end or
    /// when it would come back to a bundle already passed.
    pub fn olm_path(&self, start: &Start) -> OlmPath<'m> {
        self.olm_walk(start, None)
    }

    /// [`ChannelGraph::olm_path`], stopping early at `target` if it passes it.
    pub fn olm_path_to(&self, start: &Start, target: NodeIndex) -> OlmPath<'m> {
        self.olm_walk(start, Some(target))
    }

    fn olm_walk(&self, start: &Start, target: Option<NodeIndex>) -> OlmPath<'m> {
        let Some(head) = self.head() else {
            return OlmPath {
                steps: Vec::new(),
                end: OlmEnd::NoHead,
            };
        };
        let end_at = |n: NodeIndex| {
            if Some(n) == target && n != head {
                Some(OlmEnd::Target)
            } else if n == head {
                Some(OlmEnd::Head)
            } else {
                None
            }
        };
        let mut steps = Vec::new();
        if let Some(end) = start.node.and_then(end_at) {
            return OlmPath { steps, end };
        }
        let mut visited = vec![false; self.node_count()];
        if let Some(n) = start.node {
            visited[n.index()] = true;
        }
        let mut candidates = self.successors(start);
        loop {
            let Some(&step) = candidates.first() else {
                return OlmPath {
                    steps,
                    end: OlmEnd::DeadEnd,
                };
            };
            steps.push(step);
            let next = step.to;
            if let Some(end) = end_at(next) {
                return OlmPath { steps, end };
            }
            if visited[next.index()] {
                return OlmPath {
                    steps,
                    end: OlmEnd::Loop(next),
                };
            }
            visited[next.index()] = true;
            candidates = self.olm_filter(Some(next), self.out_edges(next));
        }
    }

    /// A shortest path (fewest edges) from `start` to `to` over every edge of
    /// the graph, or `None` when there is none. Among equally short paths, the
    /// one whose steps come first in channel order is chosen.
    pub fn shortest_path(&self, start: &Start, to: NodeIndex) -> Option<Vec<Step<'m>>> {
        if start.node == Some(to) {
            return Some(Vec::new());
        }
        let n = self.node_count();
        let mut pred: Vec<Option<Step<'m>>> = vec![None; n];
        let mut seen = vec![false; n];
        if let Some(s) = start.node {
            seen[s.index()] = true;
        }
        let mut queue = VecDeque::new();
        let mut visit = |from: Option<NodeIndex>, out: Out<'m>, queue: &mut VecDeque<NodeIndex>| {
            for (t, edge) in out {
                if !seen[t.index()] {
                    seen[t.index()] = true;
                    pred[t.index()] = Some(Step { from, to: t, edge });
                    queue.push_back(t);
                }
            }
        };
        visit(start.node, self.start_edges(start), &mut queue);
        while let Some(u) = queue.pop_front() {
            if u == to {
                break;
            }
            visit(Some(u), self.out_edges(u), &mut queue);
        }
        let mut steps = Vec::new();
        let mut cur = to;
        loop {
            let step = pred.get(cur.index()).copied().flatten()?;
            steps.push(step);
            match step.from {
                Some(f) if step.from != start.node => cur = f,
                _ => break,
            }
        }
        steps.reverse();
        Some(steps)
    }

    /// Nodes from which `to` can be reached (`to` included), over every edge.
    pub(super) fn reaching(&self, to: NodeIndex) -> Vec<bool> {
        let mut seen = vec![false; self.node_count()];
        seen[to.index()] = true;
        let mut queue = VecDeque::from([to]);
        while let Some(u) = queue.pop_front() {
            for e in self.graph().edges_directed(u, Direction::Incoming) {
                let s = e.source();
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    queue.push_back(s);
                }
            }
        }
        seen
    }

    /// Simple paths (no node twice) from `start` to `to` over every edge, at most
    /// `limit` of them, shortest first. The search is a depth-first walk pruned to
    /// nodes that can reach `to`, bounded by [`ALL_PATHS_WORK_BOUND`] expansions.
    pub fn all_paths(&self, start: &Start, to: NodeIndex, limit: usize) -> AllPaths<'m> {
        if start.node == Some(to) {
            return AllPaths {
                paths: vec![Vec::new()],
                complete: true,
            };
        }
        let can_reach = self.reaching(to);
        let mut on_path = vec![false; self.node_count()];
        if let Some(s) = start.node {
            on_path[s.index()] = true;
        }
        let mut paths: Vec<Vec<Step<'m>>> = Vec::new();
        let mut complete = true;
        let mut path: Vec<Step<'m>> = Vec::new();
        let mut stack: Vec<(Out<'m>, usize)> = vec![(self.start_edges(start), 0)];
        let mut work = 0usize;
        while let Some((out, next)) = stack.last_mut() {
            let Some(&(t, edge)) = out.get(*next) else {
                stack.pop();
                if let Some(step) = path.pop() {
                    on_path[step.to.index()] = false;
                }
                continue;
            };
            *next += 1;
            if on_path[t.index()] || !can_reach[t.index()] {
                continue;
            }
            work += 1;
            if work > ALL_PATHS_WORK_BOUND {
                complete = false;
                break;
            }
            let from = path.last().map(|s| s.to).or(start.node);
            let step = Step { from, to: t, edge };
            if t == to {
                if paths.len() == limit {
                    complete = false;
                    break;
                }
                let mut found = path.clone();
                found.push(step);
                paths.push(found);
                continue;
            }
            path.push(step);
            on_path[t.index()] = true;
            stack.push((self.out_edges(t), 0));
        }
        paths.sort_by_cached_key(|p| {
            (
                p.len(),
                p.iter()
                    .map(|s| self.channel_order_key(s.to))
                    .collect::<Vec<_>>(),
            )
        });
        AllPaths { paths, complete }
    }

    /// Every node reachable from `start` over every edge (the start left out),
    /// in index order.
    pub fn reachable_from(&self, start: &Start) -> Vec<NodeIndex> {
        let mut seen = vec![false; self.node_count()];
        if let Some(s) = start.node {
            seen[s.index()] = true;
        }
        let mut queue: VecDeque<NodeIndex> = VecDeque::new();
        for (t, _) in self.start_edges(start) {
            if !seen[t.index()] {
                seen[t.index()] = true;
                queue.push_back(t);
            }
        }
        let mut out = Vec::new();
        while let Some(u) = queue.pop_front() {
            out.push(u);
            for e in self.graph().edges_directed(u, Direction::Outgoing) {
                let t = e.target();
                if !seen[t.index()] {
                    seen[t.index()] = true;
                    queue.push_back(t);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// For each node (by index), the fewest edges from it to the head over
    /// every edge (0 for the head), or `None` when the head is unreachable or
    /// the channel has no single head.
    pub fn hops_to_head(&self) -> Vec<Option<usize>> {
        let mut hops = vec![None; self.node_count()];
        let Some(head) = self.head() else {
            return hops;
        };
        hops[head.index()] = Some(0);
        let mut queue = VecDeque::from([(head, 0usize)]);
        while let Some((u, d)) = queue.pop_front() {
            for e in self.graph().edges_directed(u, Direction::Incoming) {
                let s = e.source();
                if hops[s.index()].is_none() {
                    hops[s.index()] = Some(d + 1);
                    queue.push_back((s, d + 1));
                }
            }
        }
        hops
    }

    /// Entries of the channel from which the head cannot be reached over any
    /// edge (every entry, when the channel has no single head), in index order.
    pub fn dead_ends(&self) -> Vec<NodeIndex> {
        let hops = self.hops_to_head();
        self.node_indices()
            .filter(|n| matches!(self.node(*n).presence, Presence::Entry(_)))
            .filter(|n| hops[n.index()].is_none())
            .collect()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod props;
