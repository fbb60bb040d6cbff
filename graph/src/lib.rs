//! # olmsat-graph
//!
//! The upgrade graph of each channel of an OLM catalog, built from the
//! channel's `replaces`, `skips` and `skipRange`s with every edge traced to
//! the file and line that declares it; the path OLM v0 takes through it and
//! why it stops; and drawings of it.
//!
//! - [`ChannelGraphs::channel_graph`] gives a channel's [`ChannelGraph`]
//!   (for a [`Catalog`] or a [`Model`]);
//!   [`ChannelGraph::resolve_start`] finds where an upgrade starts (a bundle
//!   name, or a version no longer in the catalog) and
//!   [`ChannelGraph::olm_path`] the steps OLM v0 takes from there.
//! - [`path`]: `olmsat path` as one call — which channels, the path in each,
//!   and the reasons when it does not get there, as text and as data.
//! - [`Drawing`] and [`draw`] draw upgrade graphs as DOT, Mermaid or JSON.
//!
//! ```
//! use olmsat_catalog::Catalog;
//! use olmsat_graph::ChannelGraphs;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let catalog = Catalog::open(&[dir]).expect("the catalog reads without errors");
//! let graph = catalog.channel_graph("etcd", None).expect("its default channel");
//! let start = graph.resolve_start("etcdoperator.v0.9.0").expect("a bundle of the channel");
//! let path = graph.olm_path(&start);
//! let names: Vec<&str> = path.steps.iter().map(|s| graph.node(s.to).name).collect();
//! assert_eq!(names, ["etcdoperator.v0.9.4", "etcdoperator.v0.9.5"]);
//! ```
#![deny(missing_docs)]

mod channels;
mod draw;
pub mod export;
pub mod path;
pub mod stuck;
pub mod upgrade;

pub use channels::{target_node, ChannelError, ChannelGraphs};
pub use olmsat_catalog::{Catalog, Model};

// Upgrade graphs and paths.
pub use upgrade::{
    select_channel, select_package, version_in_name, AllPaths, Blocked, ChannelGraph, Edge,
    EdgeKind, Node, NodeIndex, NotOffered, OlmEnd, OlmPath, Presence, SelectError, Start,
    StartError, StartMatch, Step, Stuck, TooManyEdges, Unreachable,
};

// Drawing upgrade graphs.
pub use draw::{dot_text, draw, write_dir, DrawFormat, DrawWriteError, SplitError, Written};
pub use export::json::PathStep;
pub use export::{DrawError, DrawOptions, Drawing, DrawingPart, EdgeView, EdgeViewError};

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
