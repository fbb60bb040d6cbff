//! `olmsat list`

use olmsat_catalog::Listing;

use crate::args::{ListArgs, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;

/// List packages, channels or bundles of the catalog.
pub fn run(args: &ListArgs, o: &olmsat_input::Options) -> super::Outcome {
    let package = args.package.as_deref();
    let catalog = match super::open_catalog(&args.path, None, o)? {
        Ok(catalog) => catalog,
        Err(exit) => return Ok(exit.into()),
    };
    let model = catalog.model();
    if let Some(p) = package {
        // An unknown package lists the catalog's closest names first.
        if let Err(e) = olmsat_graph::select_package(model, p) {
            errln!("olmsat: {e}");
            return Ok(Finished::new(Exit::Invalid).keeping(catalog));
        }
    }
    let listing = Listing::new(model, args.what, package);
    match args.output {
        ReportFormat::Text => out!("{}", listing.text()),
        format => print_data(format, &listing)?,
    }
    Ok(Finished::new(Exit::Ok).keeping(catalog))
}
