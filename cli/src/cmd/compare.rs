//! `olmsat compare-olm`: OLM v0's and OLM v1's paths side by side
//! ([`olmsat_resolver::compare`]).

use crate::args::{CompareOlmArgs, ReportFormat};
use crate::output::{print_data, Exit};

/// Compare v0 and v1 over a catalog and print the comparison.
pub fn run(args: &CompareOlmArgs, o: &olmsat_input::Options) -> super::Outcome {
    let (path, format) = (&args.path, args.output);
    let loaded = match super::load_readable(path, o)? {
        Ok(loaded) => loaded,
        Err(super::NotLoaded::Exit(exit)) => return Ok(exit.into()),
        Err(super::NotLoaded::Errors(_)) => return Ok(Exit::Usage.into()),
    };
    let comparison = olmsat_resolver::compare::compare(
        loaded.config,
        args.package.as_deref(),
        args.only_differences,
    );
    for w in &comparison.warnings {
        errln!("olmsat: {w}");
    }
    match format {
        ReportFormat::Json | ReportFormat::Yaml => print_data(format, &comparison)?,
        ReportFormat::Text => {
            let mut text = Vec::new();
            comparison.write_text(&mut text)?;
            out!("{}", String::from_utf8_lossy(&text));
        }
    }
    Ok(if comparison.differs() {
        Exit::Invalid
    } else {
        Exit::Ok
    }
    .into())
}
