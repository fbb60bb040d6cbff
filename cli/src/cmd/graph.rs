//! `olmsat graph`

use std::io::Write;

use std::path::Path;

use olmsat_graph::dot_text;
use olmsat_graph::draw;
use olmsat_graph::export::split;
use olmsat_graph::export::svg::{self, SvgError};
use olmsat_graph::DrawFormat;
use olmsat_graph::DrawOptions;
use olmsat_graph::Drawing;
use olmsat_graph::EdgeView;

use crate::args::{GraphArgs, GraphFormat};
use crate::output::Exit;
use crate::process::Finished;
use crate::timings::{timed, PhaseClock};

/// [`render_svg`] with the spinner shown while Graphviz works.
fn laid_out(dot_text: &str) -> Result<Vec<u8>, SvgError> {
    let _spinner = crate::progress::Progress::start("laying out with Graphviz", true);
    svg::render(dot_text)
}

/// Draw the upgrade graphs of the catalog.
pub fn run(args: &GraphArgs, o: &olmsat_input::Options) -> super::Outcome {
    // Mermaid keeps opm's layout: every edge, no legend.
    let mermaid = args.output == GraphFormat::Mermaid;
    let opts = DrawOptions {
        package: args.package.as_deref(),
        channel: args.channel.as_deref(),
        minimum_edge: args.minimum_edge.as_deref(),
        highlight_from: args.highlight_from.as_deref(),
        edges: if mermaid { EdgeView::All } else { args.edges },
        legend: !mermaid && !args.no_legend,
    };
    let catalog = match super::open_catalog(&args.path, opts.package, o)? {
        Ok(catalog) => catalog,
        Err(exit) => return Ok(exit.into()),
    };
    let split = args.split.as_deref().map(|dir| (dir, args.split_channels));
    let exit = write_drawing(&catalog, &opts, args.output, split)?;
    Ok(Finished::new(exit).keeping(catalog))
}

/// The file extension of a format.
fn extension(format: GraphFormat) -> &'static str {
    match format {
        GraphFormat::Dot => "dot",
        GraphFormat::Mermaid => "mmd",
        GraphFormat::Json => "json",
        GraphFormat::Yaml => "yaml",
        GraphFormat::Svg => "svg",
        GraphFormat::Html => "html",
    }
}

/// Draw and write; the drawing (a few large vectors) is freed on return.
fn write_drawing(
    catalog: &olmsat_catalog::Catalog,
    opts: &DrawOptions<'_>,
    format: GraphFormat,
    split: Option<(&Path, bool)>,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let drawing = match timed("graph", || Drawing::new(catalog.model(), opts)) {
        Ok(d) => d,
        Err(e) => {
            errln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    for (_, ch) in drawing.channels() {
        for r in ch.graph.invalid_ranges() {
            errln!(
                "olmsat: warning: ignoring invalid skipRange {:?} of {} ({}): {}",
                r.entry.skip_range.as_deref().unwrap_or_default(),
                r.entry.name,
                r.entry.location,
                r.error
            );
        }
    }
    if let Some((dir, per_channel)) = split {
        return write_split(drawing, format, dir, per_channel);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let clock = PhaseClock::start();
    let exit = write_one(&drawing, format, &mut out)?;
    out.flush()?;
    clock.record("write");
    Ok(exit)
}

/// Write one file per package (or channel) of `drawing` into `dir`, and the
/// index page; say on standard output what was written.
fn write_split(
    drawing: Drawing<'_>,
    format: GraphFormat,
    dir: &Path,
    per_channel: bool,
) -> Result<Exit, Box<dyn std::error::Error>> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        errln!("olmsat: cannot create the directory {}: {e}", dir.display());
        return Ok(Exit::Usage);
    }
    let ext = extension(format);
    let parts = drawing.split(per_channel);
    let files = split::plan(&parts, ext);
    // Every file is made before any is written: a drawing that fails leaves
    // the directory as it was.
    let mut contents = Vec::with_capacity(files.len());
    for part in &parts {
        let mut bytes = Vec::new();
        let exit = write_one(&part.drawing, format, &mut bytes)?;
        if exit != Exit::Ok {
            return Ok(exit);
        }
        contents.push(bytes);
    }
    let index_name = split::index_name(ext);
    contents.push(split::index(&files, ext).into_bytes());
    let names = files.iter().map(|f| f.name.as_str()).chain([index_name]);
    let mut index = dir.join(index_name);
    for (name, bytes) in names.zip(&contents) {
        // Into `dir` only, atomically, and never through a link that is
        // already there.
        match olmsat_io::write_in_dir(dir, name, bytes) {
            Ok(path) => index = path,
            Err(e) => {
                errln!("olmsat: cannot write {}: {e}", dir.join(name).display());
                return Ok(Exit::Usage);
            }
        }
    }
    let n = files.len();
    outln!(
        "wrote {n} {} and {}",
        if n == 1 { "file" } else { "files" },
        index.display()
    );
    Ok(Exit::Ok)
}

/// Write `drawing` as `format` to `out`.
fn write_one(
    drawing: &Drawing<'_>,
    format: GraphFormat,
    out: &mut impl Write,
) -> Result<Exit, Box<dyn std::error::Error>> {
    match format {
        GraphFormat::Dot => draw(drawing, DrawFormat::Dot, out)?,
        GraphFormat::Mermaid => draw(drawing, DrawFormat::Mermaid, out)?,
        GraphFormat::Json => draw(drawing, DrawFormat::Json, out)?,
        GraphFormat::Html => draw(drawing, DrawFormat::Html, out)?,
        GraphFormat::Yaml => {
            let mut json = Vec::new();
            draw(drawing, DrawFormat::Json, &mut json)?;
            let value: serde_json::Value = serde_json::from_slice(&json)?;
            out.write_all(olmsat_findings::report::format::yaml(&value)?.as_bytes())?;
        }
        GraphFormat::Svg => match laid_out(&dot_text(drawing)) {
            Ok(svg) => out.write_all(&svg)?,
            Err(e) => {
                errln!("olmsat: {e}");
                return Ok(Exit::Usage);
            }
        },
    }
    Ok(Exit::Ok)
}
