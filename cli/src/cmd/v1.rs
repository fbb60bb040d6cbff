//! OLM v1's flags (`--extension` and the rest, for `resolve` and `simulate`)
//! and `path --olm v1`; the answers are [`olmsat_resolver::v1::answer`]'s and
//! [`olmsat_resolver::v1::path`]'s.

use std::path::Path;

use olmsat_resolver::v1::path::PathRequest;
use olmsat_resolver::v1::CatalogContent;

use super::NotLoaded;
use crate::output::ReportFormat;
use crate::output::{print_data, Exit};

/// Read one catalog's content as catalogd serves it (unvalidated); `Err`
/// holds the exit code after the problem was printed.
fn load_content(
    path: &Path,
    o: &olmsat_input::Options,
) -> Result<Result<CatalogContent, Exit>, Box<dyn std::error::Error>> {
    let loaded = match super::load_readable(path, o)? {
        Ok(loaded) => loaded,
        Err(not) => {
            let path = path.display();
            match not {
                NotLoaded::Exit(_) => errln!("olmsat: catalog \"catalog\" ({path}) cannot be read"),
                NotLoaded::Errors(n) => {
                    errln!("olmsat: catalog \"catalog\" ({path}) cannot be read: {n} error(s)")
                }
            }
            return Ok(Err(Exit::Usage));
        }
    };
    Ok(Ok(CatalogContent::from_owned(loaded.config, false)))
}

/// `path --olm v1`: one hop per reconcile, to the highest successor.
pub fn path(
    catalog: &Path,
    request: &PathRequest,
    format: ReportFormat,
    o: &olmsat_input::Options,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let content = match load_content(catalog, o)? {
        Ok(c) => c,
        Err(exit) => return Ok(exit),
    };
    let report = match olmsat_resolver::v1::path::path(&content, request) {
        Ok(r) => r,
        Err(e) => {
            errln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    match format {
        ReportFormat::Json | ReportFormat::Yaml => print_data(format, &report)?,
        ReportFormat::Text => out!("{report}"),
    }
    Ok(Exit::from_code(report.exit))
}
