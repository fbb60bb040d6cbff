//! What a picture of upgrade graphs shows: the selected packages and channels,
//! the nodes and edges of each, and the OLM path to highlight.

use std::cmp::Ordering;

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::fold::{shown_edges, EdgeView};
use super::minimum_edge::{MinimumEdge, MinimumEdgeError};
use crate::upgrade::{select, ChannelGraph, OlmPath, SelectError, Start, StartError, TooManyEdges};
use olmsat_catalog::model::{Model, Package};
use olmsat_findings::suggest;

/// What to draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct DrawOptions<'a> {
    /// Only this package.
    pub package: Option<&'a str>,
    /// Only channels of this name.
    pub channel: Option<&'a str>,
    /// Only edges at or above this bundle's version (see [`super::minimum_edge`]).
    pub minimum_edge: Option<&'a str>,
    /// Highlight the OLM v0 path from this bundle name or version.
    pub highlight_from: Option<&'a str>,
    /// Which edges to show (every edge by default; see [`super::fold`]).
    pub edges: EdgeView,
    /// Add a legend (DOT, SVG and JSON; never Mermaid).
    pub legend: bool,
}

/// Why a drawing could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// Unknown package.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// No package has a channel of that name.
    #[error("no package has a channel {name:?}; channels: {}", suggest::join_listed(.known))]
    UnknownChannel {
        /// The name given.
        name: String,
        /// The channel names of the selected packages, closest first.
        known: Vec<String>,
    },
    /// Bad `--minimum-edge`.
    #[error(transparent)]
    MinimumEdge(#[from] MinimumEdgeError),
    /// A channel's graph is too large to draw.
    #[error(transparent)]
    TooManyEdges(#[from] TooManyEdges),
    /// The highlight start is in none of the drawn channels.
    #[error("cannot highlight a path: {0}")]
    HighlightStart(StartError),
}

/// The OLM v0 path drawn over a channel.
#[derive(Debug, Clone)]
pub struct Highlight<'m> {
    /// Where it starts.
    pub start: Start,
    /// The path.
    pub path: OlmPath<'m>,
}

/// One channel as drawn.
#[derive(Debug)]
pub struct DrawnChannel<'m> {
    /// Its graph.
    pub graph: ChannelGraph<'m>,
    /// The nodes drawn, by version (lowest first), unversioned last, then by name.
    pub nodes: Vec<NodeIndex>,
    /// Every edge in the channel's part of the drawing (after
    /// `--minimum-edge`), by source then target in node order, then kind: what
    /// Mermaid draws, whatever the view.
    pub edges: Vec<EdgeIndex>,
    /// The edges the view shows, when it is not every edge.
    shown: Option<Vec<EdgeIndex>>,
    /// How many of `edges` the folded view folded.
    pub folded: usize,
    /// The OLM path to highlight, when asked for and the start is known here.
    pub highlight: Option<Highlight<'m>>,
}

/// One package as drawn.
#[derive(Debug)]
pub struct DrawnPackage<'m> {
    /// The package.
    pub package: &'m Package,
    /// Its drawn channels, by name.
    pub channels: Vec<DrawnChannel<'m>>,
}

/// Everything drawn, packages by name.
#[derive(Debug)]
pub struct Drawing<'m> {
    /// The catalog drawn from (the HTML explorer answers `path` questions in it).
    pub model: &'m Model,
    /// The packages.
    pub packages: Vec<DrawnPackage<'m>>,
    /// The `--minimum-edge` floor in effect.
    pub minimum_edge: Option<MinimumEdge>,
    /// Which edges are shown.
    pub view: EdgeView,
    /// Whether a legend is drawn.
    pub legend: bool,
}

/// One file of a split drawing: a package, or one channel of it.
#[derive(Debug)]
pub struct DrawingPart<'m> {
    /// The package's name.
    pub package: &'m str,
    /// The channel's name, when split by channel.
    pub channel: Option<&'m str>,
    /// What the file draws.
    pub drawing: Drawing<'m>,
}

impl<'m> DrawnChannel<'m> {
    fn new(
        graph: ChannelGraph<'m>,
        floor: Option<&MinimumEdge>,
        view: EdgeView,
    ) -> DrawnChannel<'m> {
        let (mut nodes, mut edges) = match floor {
            Some(f) => f.filter(&graph),
            None => (
                graph.node_indices().collect(),
                graph.edge_list().map(|(e, _, _)| e).collect(),
            ),
        };
        nodes.sort_by(|a, b| graph.version_order(*a, *b));
        let mut rank = vec![usize::MAX; graph.node_count()];
        for (i, n) in nodes.iter().enumerate() {
            rank[n.index()] = i;
        }
        let key = |e: EdgeIndex| {
            let (a, b) = graph
                .graph()
                .edge_endpoints(e)
                .unwrap_or((NodeIndex::end(), NodeIndex::end()));
            let r = |n: NodeIndex| rank.get(n.index()).copied().unwrap_or(usize::MAX);
            (r(a), r(b), graph.edge(e).kind, e.index())
        };
        edges.sort_by_key(|e| key(*e));
        let (shown, folded) = match view {
            EdgeView::All => (None, 0),
            view => {
                let (shown, folded) = shown_edges(&graph, &nodes, &edges, view);
                (Some(shown), folded)
            }
        };
        DrawnChannel {
            graph,
            nodes,
            edges,
            shown,
            folded,
            highlight: None,
        }
    }

    /// The edges the view shows (DOT and JSON draw these), in the order of
    /// [`DrawnChannel::edges`].
    pub fn shown_edges(&self) -> &[EdgeIndex] {
        self.shown.as_deref().unwrap_or(&self.edges)
    }

    /// Mermaid's node order: by decreasing version, unversioned last, then by
    /// name.
    pub fn nodes_by_decreasing_version(&self) -> Vec<NodeIndex> {
        let g = &self.graph;
        let mut v = self.nodes.clone();
        v.sort_by(|a, b| match (g.node(*a).version, g.node(*b).version) {
            (Some(_), Some(_)) => g
                .version_order(*b, *a)
                .then_with(|| g.node(*a).name.cmp(g.node(*b).name)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => g.node(*a).name.cmp(g.node(*b).name),
        });
        v
    }
}

impl<'m> Drawing<'m> {
    /// Select and filter what to draw from `model`.
    pub fn new(model: &'m Model, opts: &DrawOptions<'_>) -> Result<Drawing<'m>, DrawError> {
        let mut packages: Vec<&'m Package> = match opts.package {
            Some(name) => vec![select::select_package(model, name)?],
            None => model.packages().iter().collect(),
        };
        if let Some(ch) = opts.channel {
            let with_channel: Vec<&'m Package> = packages
                .iter()
                .copied()
                .filter(|p| p.channel(ch).is_some_and(|c| !c.is_synthesized()))
                .collect();
            if with_channel.is_empty() {
                if let Some(p) = opts.package {
                    // The package's own error, listing its channels.
                    select::select_channel(model, p, Some(ch))?;
                }
                let mut names: Vec<&str> = packages
                    .iter()
                    .flat_map(|p| p.channels().iter().filter(|c| !c.is_synthesized()))
                    .map(|c| c.name.as_str())
                    .collect();
                names.sort_unstable();
                names.dedup();
                return Err(DrawError::UnknownChannel {
                    name: ch.to_owned(),
                    known: suggest::closest(ch, names)
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                });
            }
            packages = with_channel;
        }
        let floor = match opts.minimum_edge {
            Some(name) => {
                let f = MinimumEdge::find(packages.iter().copied(), name)?;
                packages.retain(|p| p.name == f.package);
                Some(f)
            }
            None => None,
        };
        let mut drawn = Vec::with_capacity(packages.len());
        for p in packages {
            let channels = p
                .channels()
                .iter()
                .filter(|c| !c.is_synthesized())
                .filter(|c| opts.channel.is_none_or(|name| c.name == name))
                .map(|c| {
                    let g = ChannelGraph::build(p, c).complete()?;
                    Ok(DrawnChannel::new(g, floor.as_ref(), opts.edges))
                })
                .collect::<Result<Vec<_>, TooManyEdges>>()?;
            drawn.push(DrawnPackage {
                package: p,
                channels,
            });
        }
        let mut drawing = Drawing {
            model,
            packages: drawn,
            minimum_edge: floor,
            view: opts.edges,
            legend: opts.legend,
        };
        if let Some(from) = opts.highlight_from {
            drawing.highlight(from)?;
        }
        Ok(drawing)
    }

    fn highlight(&mut self, from: &str) -> Result<(), DrawError> {
        let mut first_error = None;
        let mut found = false;
        for ch in self.packages.iter_mut().flat_map(|p| p.channels.iter_mut()) {
            match ch.graph.resolve_start(from) {
                Ok(start) => {
                    let path = ch.graph.olm_path(&start);
                    ch.highlight = Some(Highlight { start, path });
                    found = true;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match (found, first_error) {
            (false, Some(e)) => Err(DrawError::HighlightStart(e)),
            _ => Ok(()),
        }
    }

    /// How many edges the folded view folded, over every channel.
    pub fn folded(&self) -> usize {
        self.channels().map(|(_, c)| c.folded).sum()
    }

    /// The note a folded drawing carries, e.g. `12 edges folded; `--edges all`
    /// shows them`; `None` when nothing was folded.
    pub fn folded_note(&self) -> Option<String> {
        match self.folded() {
            0 => None,
            1 => Some("1 edge folded; `--edges all` shows it".to_owned()),
            n => Some(format!("{n} edges folded; `--edges all` shows them")),
        }
    }

    /// One drawing per package, or per package and channel with
    /// `per_channel`, in drawing order; each keeps the view and legend.
    pub fn split(self, per_channel: bool) -> Vec<DrawingPart<'m>> {
        let (model, floor, view, legend) = (self.model, self.minimum_edge, self.view, self.legend);
        let mut parts = Vec::new();
        for p in self.packages {
            let package = p.package;
            if per_channel {
                for ch in p.channels {
                    parts.push(DrawingPart {
                        package: &package.name,
                        channel: Some(&ch.graph.channel().name),
                        drawing: Drawing {
                            model,
                            packages: vec![DrawnPackage {
                                package,
                                channels: vec![ch],
                            }],
                            minimum_edge: floor.clone(),
                            view,
                            legend,
                        },
                    });
                }
            } else {
                parts.push(DrawingPart {
                    package: &package.name,
                    channel: None,
                    drawing: Drawing {
                        model,
                        packages: vec![p],
                        minimum_edge: floor.clone(),
                        view,
                        legend,
                    },
                });
            }
        }
        parts
    }

    /// All drawn channels, package by package.
    pub fn channels(&self) -> impl Iterator<Item = (&DrawnPackage<'m>, &DrawnChannel<'m>)> {
        self.packages
            .iter()
            .flat_map(|p| p.channels.iter().map(move |c| (p, c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::package;

    fn model() -> Model {
        Model::new(vec![package(&[
            "a@1.0.0",
            "b@1.1.0<a",
            "c@1.2.0<b|a",
            "!o@0.1.0",
        ])])
    }

    #[test]
    fn selects_packages_and_channels() {
        let m = model();
        let d = Drawing::new(&m, &DrawOptions::default()).ok();
        assert_eq!(d.map(|d| d.channels().count()), Some(2));
        let opts = DrawOptions {
            channel: Some("stable"),
            ..DrawOptions::default()
        };
        let d = Drawing::new(&m, &opts).ok();
        assert_eq!(d.map(|d| d.channels().count()), Some(1));
        let opts = DrawOptions {
            channel: Some("stabel"),
            ..DrawOptions::default()
        };
        let err = Drawing::new(&m, &opts).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("no package has a channel \"stabel\"; channels: stable, other")
        );
        let opts = DrawOptions {
            package: Some("q"),
            ..DrawOptions::default()
        };
        let err = Drawing::new(&m, &opts).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unknown package \"q\"; the catalog has: p")
        );
    }

    #[test]
    fn nodes_sorted_by_version_and_highlights_resolved() {
        let m = model();
        let opts = DrawOptions {
            channel: Some("stable"),
            highlight_from: Some("a"),
            ..DrawOptions::default()
        };
        let Ok(d) = Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let Some((_, ch)) = d.channels().next() else {
            panic!("no channel");
        };
        let names: Vec<&str> = ch.nodes.iter().map(|n| ch.graph.node(*n).name).collect();
        assert_eq!(names, vec!["a", "b", "c"]);
        let desc: Vec<&str> = ch
            .nodes_by_decreasing_version()
            .iter()
            .map(|n| ch.graph.node(*n).name)
            .collect();
        assert_eq!(desc, vec!["c", "b", "a"]);
        assert_eq!(ch.highlight.as_ref().map(|h| h.path.steps.len()), Some(1));
        let opts = DrawOptions {
            highlight_from: Some("nope"),
            ..opts
        };
        assert!(matches!(
            Drawing::new(&m, &opts),
            Err(DrawError::HighlightStart(_))
        ));
    }
}
