//! `olmsat list`

use olmsat_catalog::list_bundles;
use olmsat_catalog::list_channels;
use olmsat_catalog::list_packages;

use crate::args::{ListArgs, ListWhat, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;

/// List packages, channels or bundles of the catalog.
pub fn run(args: &ListArgs, o: &olmsat_input::Options) -> super::Outcome {
    let (package, format) = (args.package.as_deref(), args.output);
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
    let text = match args.what {
        ListWhat::Packages => {
            let rows = list_packages(model, package);
            if format != ReportFormat::Text {
                print_data(format, &rows)?;
                None
            } else {
                Some(olmsat_catalog::list_packages_text(&rows))
            }
        }
        ListWhat::Channels => {
            let rows = list_channels(model, package);
            if format != ReportFormat::Text {
                print_data(format, &rows)?;
                None
            } else {
                Some(olmsat_catalog::list_channels_text(&rows))
            }
        }
        ListWhat::Bundles => {
            let rows = list_bundles(model, package);
            if format != ReportFormat::Text {
                print_data(format, &rows)?;
                None
            } else {
                Some(olmsat_catalog::list_bundles_text(&rows))
            }
        }
    };
    if let Some(text) = text {
        out!("{text}");
    }
    Ok(Finished::new(Exit::Ok).keeping(catalog))
}
