//! `olmsat validate`

use std::path::PathBuf;

use olmsat_graph::load;
use olmsat_graph::report::{Findings, Format};
use olmsat_graph::validate::validate;
use serde::Serialize;

use crate::output::{
    print_finding_lines, print_json, print_sarif, print_yaml, Exit, JsonDiagnostic,
};
use crate::report_args::ReportArgs;

#[derive(Serialize)]
struct JsonReport<'a> {
    passed: bool,
    errors: Vec<JsonDiagnostic<'a>>,
    warnings: Vec<JsonDiagnostic<'a>>,
}

impl<'a> JsonReport<'a> {
    fn new(findings: &'a Findings) -> Self {
        JsonReport {
            passed: findings.passed(),
            errors: findings.errors().map(Into::into).collect(),
            warnings: findings.warnings().map(Into::into).collect(),
        }
    }
}

/// Validate the catalogs at `paths` and print the report.
pub fn run(paths: &[PathBuf], args: &ReportArgs) -> Result<Exit, Box<dyn std::error::Error>> {
    let policy = args.policy()?;
    crate::memory::fit_to_input(paths.iter().map(PathBuf::as_path));
    let loaded = crate::output::timed("read+parse", || load::load_paths(paths))?;
    let files = loaded.files;
    let (model, report) = crate::output::timed("validate", || validate(loaded));
    let findings = policy.apply(report.errors.into_iter().chain(report.warnings));
    let format = args.format();
    match format {
        Format::Json => print_json(&JsonReport::new(&findings))?,
        Format::Yaml => print_yaml(&JsonReport::new(&findings))?,
        Format::Sarif => print_sarif(
            &findings
                .errors()
                .chain(findings.warnings())
                .cloned()
                .collect::<Vec<_>>(),
        )?,
        Format::Text | Format::Short | Format::Github => {
            print_finding_lines(
                format,
                args.color(),
                findings.errors().chain(findings.warnings()),
            )?;
            if format == Format::Text {
                let verdict = if findings.passed() {
                    "valid"
                } else {
                    "invalid"
                };
                println!(
                    "{verdict}: {} package(s), {} bundle(s) in {files} file(s); {} error(s), {} warning(s)",
                    model.packages.len(),
                    model.bundle_count(),
                    findings.errors().count(),
                    findings.warnings().count()
                );
            }
        }
    }
    let exit = if findings.passed() {
        Exit::Ok
    } else {
        Exit::Invalid
    };
    crate::output::release_at_exit((model, findings));
    Ok(exit)
}
