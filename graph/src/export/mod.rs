//! Drawing upgrade graphs for people and tools.
//!
//! - [`drawing`]: what is drawn ([`Drawing`]): the selected packages and
//!   channels, each channel's nodes and edges after the `--minimum-edge`
//!   filter ([`minimum_edge`]), and the OLM path to highlight.
//! - [`fold`]: which edges are shown ([`EdgeView`]): all, some kinds, or the
//!   readable view with implied edges folded.
//! - [`split`]: one file per package or channel, and the index page.
//! - [`style`]: what the writers show alike (colours,
//!   deprecations, the nodes and edges of the highlighted path), so that each
//!   writer only spells it in its own syntax.
//! - Writers: [`dot`] (Graphviz), [`mermaid`] (in `opm alpha render-graph`'s
//!   style), [`json`] (nodes and edges with provenance) and [`html`] (the
//!   explorer: one self-contained page with olmsat's own layout and the
//!   answers of `olmsat path` to highlight); [`svg`] lays the DOT out with
//!   Graphviz.
//!
//! Every writer is deterministic: the same catalog gives byte-identical output.

pub mod dot;
pub mod drawing;
pub mod fold;
pub mod html;
pub mod json;
pub mod mermaid;
pub mod minimum_edge;
pub mod split;
pub mod style;
pub mod svg;

pub use drawing::{
    DrawError, DrawOptions, Drawing, DrawingPart, DrawnChannel, DrawnPackage, Highlight,
};
pub use fold::{EdgeView, EdgeViewError, Kinds};
