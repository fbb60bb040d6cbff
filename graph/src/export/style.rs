//! What the DOT and Mermaid writers draw alike, whatever their syntax: the
//! colours, which bundles and channels are deprecated, and which nodes and
//! edges lie on the highlighted OLM path.

use std::collections::HashSet;

use petgraph::graph::NodeIndex;

use super::drawing::{DrawnChannel, DrawnPackage};
use crate::upgrade::{EdgeKind, Node, Step};

/// Fill of bundles deprecated by `olm.deprecations` (as opm draws them).
pub const DEPRECATED_FILL: &str = "#E8960F";
/// Fill of bundles carrying the legacy `olm.deprecated` property.
pub const LEGACY_DEPRECATED_FILL: &str = "#F4A3A3";
/// Fill of a deprecated channel (as opm draws it).
pub const DEPRECATED_CHANNEL_FILL: &str = "#DCD0FF";
/// Colour of the highlighted path.
pub const HIGHLIGHT: &str = "#D62728";

/// A bundle's fill: the legacy `olm.deprecated` property first (OLM v0 refuses
/// to install such a bundle), then an `olm.deprecations` entry.
pub fn bundle_fill(node: &Node<'_>) -> Option<&'static str> {
    if node.legacy_deprecated {
        Some(LEGACY_DEPRECATED_FILL)
    } else if node.deprecation.is_some() {
        Some(DEPRECATED_FILL)
    } else {
        None
    }
}

impl DrawnPackage<'_> {
    /// The package's deprecation message, if `olm.deprecations` deprecates it.
    pub fn deprecation(&self) -> Option<&str> {
        self.package.deprecations.package.as_deref()
    }
}

impl<'m> DrawnChannel<'m> {
    /// The channel's deprecation message, if `olm.deprecations` deprecates it.
    pub fn deprecation(&self) -> Option<&'m str> {
        let g = &self.graph;
        g.package()
            .deprecations
            .channels
            .get(&g.channel().name)
            .map(String::as_str)
    }

    /// The nodes and edges of the highlighted path (none without a highlight).
    pub fn path_marks(&self) -> PathMarks {
        let mut marks = PathMarks {
            nodes: vec![false; self.graph.node_count()],
            edges: HashSet::new(),
        };
        if let Some(h) = &self.highlight {
            if let Some(n) = h.start.node {
                marks.nodes[n.index()] = true;
            }
            for st in &h.path.steps {
                marks.nodes[st.to.index()] = true;
                if let Some(from) = st.from {
                    marks.edges.insert((from, st.to, st.edge.kind));
                }
            }
        }
        marks
    }

    /// The steps of the highlighted path that leave a start which is not a
    /// node of the graph (a version the catalog does not have).
    pub fn steps_from_outside(&self) -> impl Iterator<Item = &Step<'m>> {
        self.highlight
            .iter()
            .flat_map(|h| h.path.steps.iter())
            .filter(|st| st.from.is_none())
    }
}

/// Which nodes and edges of a channel the highlighted path goes through.
#[derive(Debug, Clone, Default)]
pub struct PathMarks {
    /// Per node index: on the path (its start or a step's target).
    nodes: Vec<bool>,
    /// The path's steps between two nodes: (from, to, kind).
    edges: HashSet<(NodeIndex, NodeIndex, EdgeKind)>,
}

impl PathMarks {
    /// Whether node `n` is on the path.
    pub fn has_node(&self, n: NodeIndex) -> bool {
        self.nodes.get(n.index()).copied().unwrap_or(false)
    }

    /// Whether the path takes an edge of `kind` from `from` to `to`.
    pub fn has_edge(&self, from: NodeIndex, to: NodeIndex, kind: EdgeKind) -> bool {
        !self.edges.is_empty() && self.edges.contains(&(from, to, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{DrawOptions, Drawing};
    use crate::upgrade::fixture::package_with;
    use olmsat_catalog::model::{Deprecations, Model};

    #[test]
    fn marks_path_and_deprecations() {
        let mut d = Deprecations::default();
        d.bundles.insert("a".into(), "old".into());
        d.channels.insert("stable".into(), "gone".into());
        let m = Model::new(vec![package_with(
            &["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b"],
            d,
        )]);
        let opts = DrawOptions {
            channel: Some("stable"),
            highlight_from: Some("a"),
            ..DrawOptions::default()
        };
        let Ok(drawing) = Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let Some((pkg, ch)) = drawing.channels().next() else {
            panic!("no channel");
        };
        assert_eq!(pkg.deprecation(), None);
        assert_eq!(ch.deprecation(), Some("gone"));
        let g = &ch.graph;
        let by_name = |name: &str| ch.nodes.iter().copied().find(|n| g.node(*n).name == name);
        let (Some(a), Some(b), Some(c)) = (by_name("a"), by_name("b"), by_name("c")) else {
            panic!("nodes missing");
        };
        assert_eq!(bundle_fill(g.node(a)), Some(DEPRECATED_FILL));
        assert_eq!(bundle_fill(g.node(c)), None);
        // The legacy property wins over an `olm.deprecations` entry.
        let mut legacy = g.node(a).clone();
        legacy.legacy_deprecated = true;
        assert_eq!(bundle_fill(&legacy), Some(LEGACY_DEPRECATED_FILL));
        let marks = ch.path_marks();
        // a replaces its way to c through b.
        assert!(marks.has_node(a) && marks.has_node(b) && marks.has_node(c));
        assert!(marks.has_edge(a, b, EdgeKind::Replaces));
        assert!(!marks.has_edge(a, b, EdgeKind::Skips));
        assert!(!marks.has_edge(b, a, EdgeKind::Replaces));
        assert_eq!(ch.steps_from_outside().count(), 0);
    }
}
