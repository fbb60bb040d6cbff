//! Upgrade graphs: one directed graph per (package, channel) built from the
//! channel's entries, with the questions users ask of it.
//!
//! - [`graph`]: the graph itself ([`ChannelGraph`]): an edge old -> new for each
//!   `replaces`, each `skips` name, and each entry whose version a `skipRange`
//!   contains; every edge keeps its kind and the entry (file:line) declaring it.
//!   Names an entry points at that are not in the channel are external nodes.
//! - [`start`]: where an upgrade starts ([`Start`]): a bundle name, or a version
//!   that may no longer be in the catalog.
//! - [`query`]: OLM v0's successors and path, shortest and all paths,
//!   reachability, hops to the head and dead ends.
//! - [`explain`]: why OLM v0 stops where it does, and why a target is out of
//!   reach.
//! - [`select`]: finding a package and channel by name, with suggestions.
//!
//! Head and replaces chain are opm's analysis (`chain`), stored on
//! the channel; they are exposed here, not recomputed.

pub mod explain;
pub mod graph;
pub mod query;
pub mod select;
pub mod start;

#[cfg(test)]
pub(crate) mod fixture;

pub use petgraph::graph::{EdgeIndex, NodeIndex};

pub use explain::{Blocked, Stuck, Unreachable};
pub use graph::{
    ChannelGraph, Edge, EdgeKind, InvalidRange, Node, Presence, TooManyEdges, MAX_SKIP_RANGE_EDGES,
};
pub use query::{AllPaths, NotOffered, OlmEnd, OlmPath, Step};
pub use select::{select_channel, select_package, SelectError};
pub use start::{version_in_name, Start, StartError, StartMatch};
