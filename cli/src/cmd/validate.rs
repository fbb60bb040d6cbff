//! `olmsat validate`

use std::path::PathBuf;

use olmsat_graph::load;
use olmsat_graph::validate::validate;
use serde::Serialize;

use crate::output::{print_json, Exit, JsonDiagnostic};
use crate::ReportFormat;

#[derive(Serialize)]
struct JsonReport<'a> {
    passed: bool,
    errors: Vec<JsonDiagnostic<'a>>,
    warnings: Vec<JsonDiagnostic<'a>>,
}

/// Validate the catalogs at `paths` and print the report.
pub fn run(paths: &[PathBuf], format: ReportFormat) -> Result<Exit, Box<dyn std::error::Error>> {
    crate::memory::fit_to_input(paths.iter().map(PathBuf::as_path));
    let mut loaded = load::Loaded::default();
    for p in paths {
        // A template file given explicitly is validated as the catalog it renders to.
        let one = match crate::cmd::template::load_if_template(p) {
            Ok(Some(rendered)) => rendered,
            Ok(None) => crate::output::timed("read+parse", || load::load_path(p))?,
            Err(exit) => return Ok(exit),
        };
        loaded.config.merge(one.config);
        loaded.diagnostics.extend(one.diagnostics);
        loaded.files += one.files;
    }
    let files = loaded.files;
    let (model, report) = crate::output::timed("validate", || validate(loaded));
    match format {
        ReportFormat::Json => print_json(&JsonReport {
            passed: report.passed(),
            errors: report.errors.iter().map(Into::into).collect(),
            warnings: report.warnings.iter().map(Into::into).collect(),
        })?,
        ReportFormat::Text => {
            for d in report.errors.iter().chain(&report.warnings) {
                println!("{d}");
            }
            let verdict = if report.passed() { "valid" } else { "invalid" };
            println!(
                "{verdict}: {} package(s), {} bundle(s) in {files} file(s); {} error(s), {} warning(s)",
                model.packages.len(),
                model.bundle_count(),
                report.errors.len(),
                report.warnings.len()
            );
        }
    }
    let exit = if report.passed() {
        Exit::Ok
    } else {
        Exit::Invalid
    };
    crate::output::release_at_exit((model, report));
    Ok(exit)
}
