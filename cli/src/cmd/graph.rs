//! `olmsat graph`

use std::io::Write;

use std::path::Path;

use olmsat_graph::draw;
use olmsat_graph::write_dir;
use olmsat_graph::DrawFormat;
use olmsat_graph::DrawOptions;
use olmsat_graph::Drawing;
use olmsat_graph::EdgeView;

use crate::args::GraphArgs;
use crate::output::Exit;
use crate::process::Finished;
use crate::timings::{timed, PhaseClock};

/// Draw the upgrade graphs of the catalog.
pub fn run(args: &GraphArgs, o: &olmsat_input::Options) -> super::Outcome {
    // Mermaid keeps opm's layout: every edge, no legend.
    let mermaid = args.output == DrawFormat::Mermaid;
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

/// Draw and write; the drawing (a few large vectors) is freed on return.
fn write_drawing(
    catalog: &olmsat_catalog::Catalog,
    opts: &DrawOptions<'_>,
    format: DrawFormat,
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
    // Graphviz can take seconds on a large channel: say so meanwhile.
    let _spinner = (format == DrawFormat::Svg)
        .then(|| crate::progress::Progress::start("laying out with Graphviz", true));
    if let Some((dir, per_channel)) = split {
        let written = write_dir(drawing, format, dir, per_channel)?;
        let n = written.files.len();
        let files = if n == 1 { "file" } else { "files" };
        outln!("wrote {n} {files} and {}", written.index.display());
        return Ok(Exit::Ok);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let clock = PhaseClock::start();
    draw(&drawing, format, &mut out)?;
    out.flush()?;
    clock.record("write");
    Ok(Exit::Ok)
}
