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
            let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
            println!(
                "{verdict}: {} package(s), {} bundle(s) in {}; {} error(s), {} warning(s)",
                model.packages().len(),
                model.bundle_count(),
                read_from(validation.file_count(), stdin),
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

/// What was read: files, standard input, or both.
fn read_from(files: usize, stdin: bool) -> String {
    match (files, stdin) {
        (0, true) => "standard input".to_owned(),
        (n, true) => format!("{n} file(s) and standard input"),
        (n, false) => format!("{n} file(s)"),
    }
}

#[cfg(test)]
mod tests {
    use super::read_from;

    #[test]
    fn standard_input_is_named_not_counted() {
        assert_eq!(read_from(0, true), "standard input");
        assert_eq!(read_from(2, true), "2 file(s) and standard input");
        assert_eq!(read_from(0, false), "0 file(s)");
        assert_eq!(read_from(3, false), "3 file(s)");
    }
}
