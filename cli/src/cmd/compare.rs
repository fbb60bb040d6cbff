//! `olmsat compare-olm`: OLM v0's and OLM v1's paths side by side
//! ([`olmsat_resolver::compare`]).

use std::io::Write;
use std::path::Path;

use crate::args::ReportFormat;
use crate::output::{print_data, Exit};

/// Compare v0 and v1 over a catalog and print the comparison.
pub fn run(
    path: &Path,
    package: Option<&str>,
    only_differences: bool,
    format: ReportFormat,
    o: &olmsat_input::Options,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let input = olmsat_input::Input::from_path(path)?;
    let loaded = match super::load_input(&input, o)? {
        Ok(loaded) => loaded,
        Err(exit) => return Ok(exit),
    };
    if loaded.has_errors() {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        crate::output::eprint_diagnostics(&errors);
        return Ok(Exit::Usage);
    }
    let comparison = olmsat_resolver::compare::compare(loaded.config, package, only_differences);
    for w in &comparison.warnings {
        errln!("olmsat: {w}");
    }
    match format {
        ReportFormat::Json | ReportFormat::Yaml => print_data(format, &comparison)?,
        ReportFormat::Text => {
            let mut text = Vec::new();
            comparison.write_text(&mut text)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            out.write_all(olmsat_io::terminal(&String::from_utf8_lossy(&text)).as_bytes())?;
            out.flush()?;
        }
    }
    Ok(if comparison.differs() {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}
