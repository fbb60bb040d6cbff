//! Drawing upgrade graphs for people and tools.
//!
//! - [`drawing`]: what is drawn ([`Drawing`]): the selected packages and
//!   channels, each channel's nodes and edges after the `--minimum-edge`
//!   filter ([`minimum_edge`]), and the OLM path to highlight.
//! - Writers: [`dot`] (Graphviz), [`mermaid`] (in `opm alpha render-graph`'s
//!   style) and [`json`] (nodes and edges with provenance).
//!
//! Every writer is deterministic: the same catalog gives byte-identical output.

pub mod dot;
pub mod drawing;
pub mod json;
pub mod mermaid;
pub mod minimum_edge;

pub use drawing::{DrawError, DrawOptions, Drawing, DrawnChannel, DrawnPackage, Highlight};
