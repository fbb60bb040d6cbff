//! Writing a [`Drawing`] of upgrade graphs in one of its formats.

use std::io::{self, Write};

use crate::export::{dot, html, json, mermaid, Drawing};

/// The formats a [`Drawing`] is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawFormat {
    /// Graphviz DOT: a cluster per package and channel.
    Dot,
    /// Mermaid, in the style of `opm alpha render-graph`.
    Mermaid,
    /// Nodes and edges with where each edge is declared, as JSON.
    Json,
    /// The explorer: one self-contained HTML page.
    Html,
}

/// Write `drawing` to `w` as `format`.
///
/// ```
/// use olmsat_graph::{draw, Catalog, DrawFormat, DrawOptions, Drawing};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
/// let catalog = Catalog::open(&[dir]).expect("valid");
/// let options = DrawOptions { package: Some("etcd"), ..DrawOptions::default() };
/// let drawing = Drawing::new(catalog.model(), &options).expect("a known package");
/// let mut out = Vec::new();
/// draw(&drawing, DrawFormat::Mermaid, &mut out).expect("written to memory");
/// assert!(String::from_utf8(out).expect("text").starts_with("graph LR"));
/// ```
///
/// # Errors
///
/// Those of `w`.
pub fn draw(drawing: &Drawing<'_>, format: DrawFormat, w: &mut impl Write) -> io::Result<()> {
    match format {
        DrawFormat::Dot => dot::write(drawing, w),
        DrawFormat::Mermaid => mermaid::write(drawing, w),
        DrawFormat::Json => json::write(drawing, w),
        DrawFormat::Html => html::write(drawing, w),
    }
}

/// `drawing` as Graphviz DOT text (to hand to `dot -Tsvg`, say).
pub fn dot_text(drawing: &Drawing<'_>) -> String {
    dot::to_string(drawing)
}
