//! Writing a [`Drawing`] of upgrade graphs in one of its formats.

use std::io::{self, Write};

use crate::export::svg::{self, SvgError};
use crate::export::{dot, html, json, mermaid, Drawing};

/// The formats a [`Drawing`] is written in (with the `clap` feature, the
/// command line's `-o` values, whose help texts these are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum DrawFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid, in the style of `opm alpha render-graph`.
    Mermaid,
    /// Nodes and edges with provenance.
    Json,
    /// The JSON drawing, in YAML.
    Yaml,
    /// SVG rendered by Graphviz's `dot`.
    Svg,
    /// The explorer: one self-contained HTML page (olmsat's own layout, the
    /// OLM v0 path of every version to highlight; no network, no Graphviz).
    Html,
}

impl DrawFormat {
    /// The file name extension of the format (`--split` files).
    pub fn extension(self) -> &'static str {
        match self {
            DrawFormat::Dot => "dot",
            DrawFormat::Mermaid => "mmd",
            DrawFormat::Json => "json",
            DrawFormat::Yaml => "yaml",
            DrawFormat::Svg => "svg",
            DrawFormat::Html => "html",
        }
    }
}

/// Why a drawing could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DrawWriteError {
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// Graphviz could not lay the drawing out.
    #[error(transparent)]
    Svg(#[from] SvgError),
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
/// Those of `w`; for SVG, Graphviz's (missing, or failing on the drawing).
pub fn draw(
    drawing: &Drawing<'_>,
    format: DrawFormat,
    w: &mut impl Write,
) -> Result<(), DrawWriteError> {
    match format {
        DrawFormat::Dot => dot::write(drawing, w)?,
        DrawFormat::Mermaid => mermaid::write(drawing, w)?,
        DrawFormat::Json => json::write(drawing, w)?,
        DrawFormat::Html => html::write(drawing, w)?,
        DrawFormat::Yaml => {
            let mut json = Vec::new();
            json::write(drawing, &mut json)?;
            let value: serde_json::Value =
                serde_json::from_slice(&json).map_err(io::Error::other)?;
            let mut text = String::new();
            olmsat_encoding::yaml_emit::emit_document(&value, &mut text);
            w.write_all(text.as_bytes())?;
        }
        DrawFormat::Svg => w.write_all(&svg::render(&dot_text(drawing))?)?,
    }
    Ok(())
}

/// `drawing` as Graphviz DOT text (to hand to `dot -Tsvg`, say).
pub fn dot_text(drawing: &Drawing<'_>) -> String {
    dot::to_string(drawing)
}
