//! Which edges a drawing shows ([`EdgeView`]) and the readable view's folding.
//!
//! Real channels draw as hairballs: a `skipRange` gives an edge from every
//! older entry, so a channel of 30 bundles can have 300 edges. The folded view
//! ([`EdgeView::Folded`]) keeps
//!
//! - every `replaces` edge;
//! - every edge OLM v0 takes: from each drawn node, its first candidate (the
//!   step [`ChannelGraph::successors`] puts first), when the channel has a
//!   single head;
//! - a `skips` or `skipRange` edge only when no other drawn path already leads
//!   from its source to its target,
//!
//! and folds the rest. Several edges between the same two nodes count as one:
//! a kept edge folds the others, else the first kind (skips before skipRange)
//! stands for them. Folding never changes which nodes reach which: in a graph
//! without cycles an edge is folded only when another path of two or more
//! drawn edges joins its ends, and removing all such edges at once keeps every
//! path (the transitive reduction). A channel whose edges form a cycle, or
//! that has more than [`MAX_FOLD_NODES`] drawn nodes, only folds duplicate
//! edges between the same two nodes.

use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::upgrade::{ChannelGraph, EdgeKind, Start};

/// The most drawn nodes a channel may have for its implied edges to be folded
/// (the reachability sets take `nodes²` bits: 8 MiB here).
pub const MAX_FOLD_NODES: usize = 8192;

/// A set of edge kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds {
    /// `replaces` edges.
    pub replaces: bool,
    /// `skips` edges.
    pub skips: bool,
    /// `skipRange` edges.
    pub skip_range: bool,
}

impl Kinds {
    /// Whether `kind` is in the set.
    pub fn has(self, kind: EdgeKind) -> bool {
        match kind {
            EdgeKind::Replaces => self.replaces,
            EdgeKind::Skips => self.skips,
            EdgeKind::SkipRange => self.skip_range,
        }
    }
}

/// Which edges a drawing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EdgeView {
    /// Every edge, drawn as they always were (labelled, each range on its
    /// edge): the library's default.
    #[default]
    All,
    /// The readable view: implied edges folded (see the module documentation).
    Folded,
    /// Every edge of these kinds (nothing folded).
    Kinds(Kinds),
}

/// A bad `--edges` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EdgeViewError {
    /// A word that is no edge kind.
    #[error("unknown edge kind {0:?}: use all, folded, or kinds among replaces, skips, skipRange separated by commas")]
    UnknownKind(String),
}

impl std::str::FromStr for EdgeView {
    type Err = EdgeViewError;

    /// `all`, `folded`, or a comma-separated list of `replaces`, `skips` and
    /// `skipRange`.
    fn from_str(s: &str) -> Result<EdgeView, EdgeViewError> {
        match s {
            "all" => return Ok(EdgeView::All),
            "folded" => return Ok(EdgeView::Folded),
            _ => {}
        }
        let mut kinds = Kinds::default();
        for word in s.split(',') {
            match word.trim() {
                "replaces" => kinds.replaces = true,
                "skips" => kinds.skips = true,
                "skipRange" => kinds.skip_range = true,
                other => return Err(EdgeViewError::UnknownKind(other.to_owned())),
            }
        }
        Ok(EdgeView::Kinds(kinds))
    }
}

impl EdgeView {
    /// Whether this is the view drawn as it always was ([`EdgeView::All`]).
    pub fn is_all(self) -> bool {
        self == EdgeView::All
    }
}

/// `edges` (of `graph`, between `nodes`) as `view` shows them, in the same
/// order, and how many were folded.
pub fn shown_edges(
    graph: &ChannelGraph<'_>,
    nodes: &[NodeIndex],
    edges: &[EdgeIndex],
    view: EdgeView,
) -> (Vec<EdgeIndex>, usize) {
    match view {
        EdgeView::All => (edges.to_vec(), 0),
        EdgeView::Kinds(k) => (
            edges
                .iter()
                .copied()
                .filter(|e| k.has(graph.edge(*e).kind))
                .collect(),
            0,
        ),
        EdgeView::Folded => {
            let keep = fold(graph, nodes, edges);
            let shown: Vec<EdgeIndex> = edges
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(e, _)| *e)
                .collect();
            let folded = edges.len() - shown.len();
            (shown, folded)
        }
    }
}

/// Per edge of `edges`: whether the folded view keeps it.
fn fold(graph: &ChannelGraph<'_>, nodes: &[NodeIndex], edges: &[EdgeIndex]) -> Vec<bool> {
    let g = graph.graph();
    // Dense positions of the drawn nodes.
    let mut pos = vec![usize::MAX; graph.node_count()];
    for (i, n) in nodes.iter().enumerate() {
        pos[n.index()] = i;
    }
    let ends: Vec<Option<(usize, usize)>> = edges
        .iter()
        .map(|e| {
            let (a, b) = g.edge_endpoints(*e)?;
            let (a, b) = (pos[a.index()], pos[b.index()]);
            (a != usize::MAX && b != usize::MAX).then_some((a, b))
        })
        .collect();
    // Kept for sure: replaces, OLM's steps, self edges, edges of unknown ends.
    let mut olm_step: Vec<Option<(usize, EdgeKind)>> = vec![None; nodes.len()];
    if graph.head().is_some() {
        for (i, n) in nodes.iter().enumerate() {
            if let Some(step) = graph.successors(&Start::node(graph, *n)).first() {
                let to = pos[step.to.index()];
                if to != usize::MAX {
                    olm_step[i] = Some((to, step.edge.kind));
                }
            }
        }
    }
    let mut keep: Vec<bool> = edges
        .iter()
        .zip(&ends)
        .map(|(e, ends)| match ends {
            None => true,
            Some((a, b)) => {
                let kind = graph.edge(*e).kind;
                a == b || kind == EdgeKind::Replaces || olm_step[*a] == Some((*b, kind))
            }
        })
        .collect();
    // One edge per pair of nodes: a kept one, else the first kind.
    let mut by_pair: Vec<usize> = (0..edges.len()).filter(|i| ends[*i].is_some()).collect();
    by_pair.sort_by_key(|i| (ends[*i], !keep[*i], graph.edge(edges[*i]).kind, *i));
    // The pairs whose edge may still fold: (from, to, edge position).
    let mut candidates = Vec::new();
    // The distinct pairs, for reachability.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < by_pair.len() {
        let first = by_pair[i];
        let Some((a, b)) = ends[first] else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < by_pair.len() && ends[by_pair[j]] == Some((a, b)) {
            // Duplicates fold, unless kept for themselves.
            j += 1;
        }
        if !keep[first] {
            keep[first] = true;
            candidates.push((a, b, first));
        }
        if a != b {
            pairs.push((a, b));
        }
        i = j;
    }
    if nodes.len() > MAX_FOLD_NODES || candidates.is_empty() {
        return keep;
    }
    let Some(beyond) = reach_beyond(nodes.len(), &pairs) else {
        return keep;
    };
    for (a, b, e) in candidates {
        if beyond.has(a, b) {
            keep[e] = false;
        }
    }
    keep
}

/// Per node, a bit per node: a square bit matrix.
struct Bits {
    words: usize,
    bits: Vec<u64>,
}

impl Bits {
    fn has(&self, row: usize, col: usize) -> bool {
        self.bits[row * self.words + col / 64] & (1 << (col % 64)) != 0
    }
}

/// For each node `u`, the nodes reachable from `u` by two edges or more
/// (through any of its successors), or `None` when `pairs` has a cycle.
fn reach_beyond(n: usize, pairs: &[(usize, usize)]) -> Option<Bits> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    for &(a, b) in pairs {
        out[a].push(b);
        indegree[b] += 1;
    }
    // Kahn's order; nodes left over are on a cycle.
    let mut order: Vec<usize> = (0..n).filter(|v| indegree[*v] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &w in &out[v] {
            indegree[w] -= 1;
            if indegree[w] == 0 {
                order.push(w);
            }
        }
    }
    if order.len() < n {
        return None;
    }
    let words = n.div_ceil(64);
    // reach[v]: reachable from v by one edge or more; beyond[v]: by two or more.
    let mut reach = vec![0u64; n * words];
    let mut beyond = vec![0u64; n * words];
    let mut row = vec![0u64; words];
    for &v in order.iter().rev() {
        row.iter_mut().for_each(|w| *w = 0);
        for &w in &out[v] {
            let r = &reach[w * words..(w + 1) * words];
            row.iter_mut().zip(r).for_each(|(x, y)| *x |= *y);
        }
        beyond[v * words..(v + 1) * words].copy_from_slice(&row);
        for &w in &out[v] {
            row[w / 64] |= 1 << (w % 64);
        }
        reach[v * words..(v + 1) * words].copy_from_slice(&row);
    }
    Some(Bits {
        words,
        bits: beyond,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::package;
    use olmsat_catalog::model::Model;

    fn names(g: &ChannelGraph<'_>, edges: &[EdgeIndex]) -> Vec<String> {
        edges
            .iter()
            .filter_map(|e| {
                let (a, b) = g.graph().edge_endpoints(*e)?;
                Some(format!(
                    "{}-{}>{}",
                    g.node(a).name,
                    g.edge(*e).kind.as_str(),
                    g.node(b).name
                ))
            })
            .collect()
    }

    fn view(entries: &[&str], view: EdgeView) -> (Vec<String>, usize) {
        let m = Model::new(vec![package(entries)]);
        let p = &m.packages()[0];
        let Some(c) = p.channel("stable") else {
            panic!("no channel");
        };
        let g = ChannelGraph::build(p, c);
        let mut nodes: Vec<NodeIndex> = g.node_indices().collect();
        nodes.sort_by(|a, b| g.version_order(*a, *b));
        let mut edges: Vec<EdgeIndex> = g.edge_list().map(|(e, _, _)| e).collect();
        edges.sort_by_key(|e| e.index());
        let (shown, folded) = shown_edges(&g, &nodes, &edges, view);
        let mut names = names(&g, &shown);
        names.sort();
        (names, folded)
    }

    #[test]
    fn parses_views() {
        assert_eq!("all".parse(), Ok(EdgeView::All));
        assert_eq!("folded".parse(), Ok(EdgeView::Folded));
        assert_eq!(
            "replaces,skipRange".parse(),
            Ok(EdgeView::Kinds(Kinds {
                replaces: true,
                skips: false,
                skip_range: true
            }))
        );
        let err = "replaces,skiprange".parse::<EdgeView>().err();
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some("unknown edge kind \"skiprange\": use all, folded, or kinds among replaces, skips, skipRange separated by commas")
        );
    }

    #[test]
    fn folds_ranges_a_replaces_chain_implies() {
        // d's range covers a, b and c; OLM takes it from a and b, so those
        // edges stay; c's range edge from a is implied by a -> b -> c, and the
        // range edges beside a replaces edge fold into it.
        let entries = [
            "a@1.0.0",
            "b@1.1.0<a",
            "c@1.2.0<b;<1.2.0",
            "d@1.3.0<c;<1.3.0",
        ];
        let (all, folded) = view(&entries, EdgeView::All);
        assert_eq!(all.len(), 8);
        assert_eq!(folded, 0);
        let (shown, folded) = view(&entries, EdgeView::Folded);
        assert_eq!(
            shown,
            vec![
                "a-replaces>b",
                "a-skipRange>d",
                "b-replaces>c",
                "b-skipRange>d",
                "c-replaces>d"
            ]
        );
        assert_eq!(folded, 3);
        let kinds = "skipRange".parse().unwrap_or_default();
        let (shown, folded) = view(&entries, kinds);
        assert_eq!(shown.len(), 5);
        assert_eq!(folded, 0);
    }

    #[test]
    fn keeps_olm_steps_and_only_paths() {
        // b both replaces and skips a: the skips edge folds into the replaces
        // one; c's skips of a is OLM's step from a, so it stays.
        let entries = ["a@1.0.0", "b@1.1.0<a|a", "c@1.2.0<b|a"];
        let (shown, folded) = view(&entries, EdgeView::Folded);
        assert_eq!(shown, vec!["a-replaces>b", "a-skips>c", "b-replaces>c"]);
        assert_eq!(folded, 1);
        // Two heads: OLM takes nothing, and a -> c is the only way to c.
        let entries = ["a@1.0.0", "b@1.1.0<a", "c@1.2.0;<1.1.0"];
        let (shown, folded) = view(&entries, EdgeView::Folded);
        assert_eq!(shown, vec!["a-replaces>b", "a-skipRange>c"]);
        assert_eq!(folded, 0);
    }

    #[test]
    fn cycles_fold_only_duplicates() {
        let pairs = [(0, 1), (1, 2), (2, 0)];
        assert!(reach_beyond(3, &pairs).is_none());
        let Some(bits) = reach_beyond(3, &[(0, 1), (1, 2), (0, 2)]) else {
            panic!("no cycle");
        };
        assert!(bits.has(0, 2));
        assert!(!bits.has(0, 1));
        assert!(!bits.has(1, 2));
    }
}
