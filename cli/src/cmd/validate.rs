//! `olmsat validate`

use olmsat_graph::CatalogFiles;
use serde::Serialize;

use crate::args::{ReportFormat, ValidateArgs};
use crate::output::{print_json, Exit, JsonDiagnostic};
use crate::process::Finished;
use crate::timings::timed;

#[derive(Serialize)]
struct JsonReport<'a> {
    passed: bool,
    errors: Vec<JsonDiagnostic<'a>>,
    warnings: Vec<JsonDiagnostic<'a>>,
}

/// Validate the catalogs and print the report.
pub fn run(args: &ValidateArgs) -> super::Outcome {
    let files = timed("read+parse", || CatalogFiles::read(&args.paths))?;
    let validation = timed("validate", || files.validate());
    let report = validation.report();
    let model = validation.model();
    match args.output {
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
                "{verdict}: {} package(s), {} bundle(s) in {} file(s); {} error(s), {} warning(s)",
                model.packages.len(),
                model.bundle_count(),
                validation.file_count(),
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
    Ok(Finished::new(exit).keeping(validation))
}
