//! Writing a [`Drawing`] of upgrade graphs in one of its formats.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::export::svg::{self, SvgError};
use crate::export::{dot, html, json, mermaid, split, Drawing};

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
            let text = olmsat_findings::report::format::yaml(&value).map_err(io::Error::other)?;
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

/// What [`write_dir`] wrote (`--split`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The drawings' files, in drawing order.
    pub files: Vec<split::SplitFile>,
    /// The index page's path.
    pub index: PathBuf,
}

/// Why [`write_dir`] wrote nothing, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// The directory could not be made.
    #[error("cannot create the directory {}: {source}", dir.display())]
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A drawing could not be made (nothing was written).
    #[error(transparent)]
    Draw(#[from] DrawWriteError),
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Write `drawing` into `dir` as one `format` file per package (or per
/// package and channel), named as [`split::plan`] names them, and the index
/// page. Every file is made before any is written (a drawing that fails
/// leaves the directory as it was), then each goes into the directory
/// atomically, never through a link already there.
///
/// # Errors
///
/// [`SplitError`]: the directory cannot be made, a drawing fails (then
/// nothing is written), or a file cannot be written.
pub fn write_dir(
    drawing: Drawing<'_>,
    format: DrawFormat,
    dir: &Path,
    per_channel: bool,
) -> Result<Written, SplitError> {
    std::fs::create_dir_all(dir).map_err(|source| SplitError::CreateDir {
        dir: dir.to_path_buf(),
        source,
    })?;
    let ext = format.extension();
    let parts = drawing.split(per_channel);
    let files = split::plan(&parts, ext);
    let mut contents = Vec::with_capacity(files.len() + 1);
    for part in &parts {
        let mut bytes = Vec::new();
        draw(&part.drawing, format, &mut bytes)?;
        contents.push(bytes);
    }
    let index_name = split::index_name(ext);
    contents.push(split::index(&files, ext).into_bytes());
    let names = files.iter().map(|f| f.name.as_str()).chain([index_name]);
    let mut index = dir.join(index_name);
    for (name, bytes) in names.zip(&contents) {
        index = olmsat_io::write_in_dir(dir, name, bytes).map_err(|source| SplitError::Write {
            path: dir.join(name),
            source,
        })?;
    }
    Ok(Written { files, index })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::DrawOptions;
    use crate::upgrade::fixture::package;
    use olmsat_catalog::model::Model;

    #[test]
    fn writes_every_file_and_the_index() {
        let m = Model::new(vec![package(&["a@1.0.0", "b@1.1.0<a;<1.1.0", "!o@0.1.0"])]);
        let Ok(d) = Drawing::new(&m, &DrawOptions::default()) else {
            panic!("drawing failed");
        };
        let dir = tempfile::tempdir().expect("temporary directory");
        let out = dir.path().join("graphs");
        let written = write_dir(d, DrawFormat::Yaml, &out, true).expect("written");
        assert_eq!(written.index, out.join("index.md"));
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, vec!["index.md", "p.other.yaml", "p.stable.yaml"]);
        let yaml = std::fs::read_to_string(out.join("p.stable.yaml")).expect("read");
        assert!(yaml.contains("p"), "{yaml}");
        // A file in the way of the directory: nothing written, the reason said.
        let blocked = dir.path().join("file");
        std::fs::write(&blocked, "x").expect("written");
        let Ok(d) = Drawing::new(&m, &DrawOptions::default()) else {
            panic!("drawing failed");
        };
        let e = write_dir(d, DrawFormat::Dot, &blocked, false).expect_err("not a directory");
        assert!(
            e.to_string().starts_with("cannot create the directory"),
            "{e}"
        );
    }
}
