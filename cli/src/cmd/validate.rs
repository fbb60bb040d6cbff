//! `olmsat validate`

use olmsat_catalog::CatalogFiles;
use olmsat_findings::report::{FindingsDocument, Format};

use crate::args::ValidateArgs;
use crate::output::{print_finding_lines, print_json, print_sarif, print_yaml, Exit};
use crate::process::Finished;
use crate::timings::timed;

/// Read the catalogs at `paths` through the input layer (every kind of
/// input; a template counts as the catalog it renders to, an `Err` exit when
/// it cannot be rendered) into one catalog.
fn read(
    paths: &[std::path::PathBuf],
    o: &olmsat_input::Options,
) -> Result<Result<CatalogFiles, Exit>, olmsat_input::InputError> {
    let mut all = olmsat_catalog::load::Loaded::default();
    for p in paths {
        let input = olmsat_input::Input::from_path(p)?;
        match super::load_input(&input, o)? {
            Ok(loaded) => all.absorb(loaded),
            Err(exit) => return Ok(Err(exit)),
        }
    }
    Ok(Ok(CatalogFiles::from_loaded(all)))
}

/// Validate the catalogs and print the report.
pub fn run(args: &ValidateArgs, o: &olmsat_input::Options) -> super::Outcome {
    let policy = args.report.policy()?;
    let spinner = crate::progress::Progress::start(
        "validating",
        args.report.format() == olmsat_findings::report::Format::Text,
    );
    let files = match timed("read+parse", || read(&args.paths, o))? {
        Ok(files) => files,
        Err(exit) => return Ok(Finished::new(exit)),
    };
    // With opm's rules, the users OLM v0 leaves behind, in `path`'s words.
    let (validation, found) = timed("validate", || olmsat_graph::stuck::validate(files));
    drop(spinner);
    let findings = policy.apply(found);
    let format = args.report.format();
    match format {
        Format::Json => print_json(&FindingsDocument::new(&findings))?,
        Format::Yaml => print_yaml(&FindingsDocument::new(&findings))?,
        Format::Sarif => print_sarif(&findings.reported().cloned().collect::<Vec<_>>())?,
        Format::Text | Format::Short | Format::Github => {
            print_finding_lines(format, args.report.color(), findings.reported())?;
            if format == Format::Text {
                let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
                outln!("{}", validation.summary(&findings, stdin));
            }
        }
    }
    let exit = if findings.passed() {
        Exit::Ok
    } else {
        Exit::Invalid
    };
    Ok(Finished::new(exit).keeping((validation, findings)))
}
