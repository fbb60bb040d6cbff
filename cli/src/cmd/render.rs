//! `olmsat render`

use std::io::Write;
use std::path::PathBuf;

use olmsat_graph::load;
use olmsat_graph::write::{write, Format};

use crate::output::{eprint_diagnostics, Exit};
use crate::RenderFormat;

/// Load the catalogs at `paths` and write them back out.
pub fn run(paths: &[PathBuf], format: RenderFormat) -> Result<Exit, Box<dyn std::error::Error>> {
    let loaded = load::load_paths(paths)?;
    if loaded.has_errors() {
        eprint_diagnostics(&loaded.diagnostics);
        return Ok(Exit::Invalid);
    }
    let format = match format {
        RenderFormat::Json => Format::Json,
        RenderFormat::Yaml => Format::Yaml,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    write(&loaded.config, format, &mut out)?;
    out.flush()?;
    Ok(Exit::Ok)
}
