//! The `--minimum-edge` filter of `opm alpha render-graph`: draw only the upgrade
//! edges at or above a floor bundle's version.
//!
//! With a floor bundle `F` (an entry of some channel) of version `v`:
//!
//! - only the package containing `F` is drawn;
//! - `F` is drawn without the edges it declares;
//! - an edge whose source version is below `v` (or unknown) is dropped;
//! - a `skipRange` is kept only if it contains `v`, and then gives edges only
//!   from drawn entries;
//! - an entry is drawn when it keeps some edge it declares, or declares none
//!   and is not below `v`.

use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::upgrade::{ChannelGraph, EdgeKind, Presence};
use olmsat_catalog::model::{Model, Package};
use olmsat_versions::range::Range;
use olmsat_versions::version;

/// The floor: a bundle named by `--minimum-edge` and its version.
#[derive(Debug, Clone)]
pub struct MinimumEdge {
    /// The floor bundle's name.
    pub name: String,
    /// Its package.
    pub package: String,
    /// Its version.
    pub version: semver::Version,
}

/// Why a floor could not be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinimumEdgeError {
    /// No channel entry of that name (opm's message).
    #[error("unknown minimum edge name: {}", version::go_quote(.0))]
    Unknown(String),
    /// The bundle has no usable version.
    #[error("minimum edge {} has no valid version", version::go_quote(.0))]
    NoVersion(String),
}

impl MinimumEdge {
    /// Find the floor `name` among the channel entries of `packages` (in order;
    /// the first package with such an entry wins).
    pub fn find<'m>(
        packages: impl IntoIterator<Item = &'m Package>,
        name: &str,
    ) -> Result<MinimumEdge, MinimumEdgeError> {
        let package = packages
            .into_iter()
            .find(|p| p.channels().iter().any(|c| c.entry(name).is_some()))
            .ok_or_else(|| MinimumEdgeError::Unknown(name.to_owned()))?;
        let version = package
            .bundle(name)
            .and_then(|b| b.version.clone())
            .ok_or_else(|| MinimumEdgeError::NoVersion(name.to_owned()))?;
        Ok(MinimumEdge {
            name: name.to_owned(),
            package: package.name.clone(),
            version,
        })
    }

    /// [`MinimumEdge::find`] over a whole model.
    pub fn find_in(model: &Model, name: &str) -> Result<MinimumEdge, MinimumEdgeError> {
        MinimumEdge::find(model.packages(), name)
    }

    fn at_or_above(&self, v: Option<&semver::Version>) -> bool {
        v.is_some_and(|v| version::compare(v, &self.version).is_ge())
    }

    /// The nodes and edges of `graph` drawn under this floor: (nodes in index
    /// order, edges in index order).
    pub fn filter(&self, graph: &ChannelGraph<'_>) -> (Vec<NodeIndex>, Vec<EdgeIndex>) {
        let entries = &graph.channel().entries();
        let version_of = |name: &str| graph.node_index(name).and_then(|n| graph.node(n).version);
        let mut keeps_range = vec![false; entries.len()];
        let mut drawn = vec![false; graph.node_count()];
        for (i, e) in entries.iter().enumerate() {
            let Some(n) = graph.entry_node(i) else {
                continue;
            };
            if e.name == self.name {
                drawn[n.index()] = true;
                continue;
            }
            let replaces = e
                .replaces
                .as_deref()
                .is_some_and(|r| self.at_or_above(version_of(r)));
            let skips = e.skips.iter().any(|s| self.at_or_above(version_of(s)));
            keeps_range[i] = e
                .skip_range
                .as_deref()
                .and_then(|r| Range::parse(r).ok())
                .is_some_and(|r| r.matches(&self.version));
            let declares_none =
                e.replaces.is_none() && e.skips.is_empty() && e.skip_range.is_none();
            drawn[n.index()] = replaces
                || skips
                || keeps_range[i]
                || (declares_none && self.at_or_above(graph.node(n).version));
        }
        let entry_drawn = drawn.clone();
        let mut edges = Vec::new();
        for (ix, from, to) in graph.edge_list() {
            let Presence::Entry(t) = graph.node(to).presence else {
                continue;
            };
            if entries[t].name == self.name || !entry_drawn[to.index()] {
                continue;
            }
            if !self.at_or_above(graph.node(from).version) {
                continue;
            }
            let keep = match graph.edge(ix).kind {
                EdgeKind::Replaces | EdgeKind::Skips => true,
                EdgeKind::SkipRange => keeps_range[t] && entry_drawn[from.index()],
            };
            if keep {
                drawn[from.index()] = true;
                edges.push(ix);
            }
        }
        let nodes = graph.node_indices().filter(|n| drawn[n.index()]).collect();
        (nodes, edges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::{package, stable};

    fn drawn(specs: &[&str], floor: &str) -> (Vec<String>, Vec<String>) {
        let p = package(specs);
        let g = ChannelGraph::build(&p, stable(&p));
        let m = MinimumEdge::find([&p], floor).map_err(|e| e.to_string());
        let Ok(m) = m else {
            return (vec![], vec![]);
        };
        let (nodes, edges) = m.filter(&g);
        let nodes = nodes.iter().map(|n| g.node(*n).name.to_owned()).collect();
        let edges = edges
            .iter()
            .filter_map(|e| {
                g.graph().edge_endpoints(*e).map(|(a, b)| {
                    format!("{}->{} {}", g.node(a).name, g.node(b).name, g.edge(*e).kind)
                })
            })
            .collect();
        (nodes, edges)
    }

    #[test]
    fn edges_below_the_floor_are_dropped() {
        let specs = [
            "a@1.0.0",
            "b@1.1.0<a",
            "c@1.2.0<b|a",
            "d@1.3.0<c;>=1.1.0 <1.3.0",
            "e@1.4.0<d;<1.0.0",
        ];
        let (nodes, edges) = drawn(&specs, "b");
        assert_eq!(nodes, vec!["b", "c", "d", "e"]);
        assert_eq!(
            edges,
            vec![
                "b->c replaces",
                "c->d replaces",
                "d->e replaces",
                "b->d skipRange",
                "c->d skipRange"
            ]
        );
    }

    #[test]
    fn unknown_floors_are_errors() {
        let p = package(&["a@1.0.0", "b<a"]);
        let err = |n: &str| MinimumEdge::find([&p], n).err().map(|e| e.to_string());
        assert_eq!(
            err("zz").as_deref(),
            Some("unknown minimum edge name: \"zz\"")
        );
        assert_eq!(
            err("b").as_deref(),
            Some("minimum edge \"b\" has no valid version")
        );
    }
}
