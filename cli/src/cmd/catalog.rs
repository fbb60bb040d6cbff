//! `olmsat catalog from-bundles`

use olmsat_bundle::build_catalog_from_bundles;
use olmsat_bundle::build_report::BuildReport;
use olmsat_bundle::write_catalog_dir;
use olmsat_bundle::FromBundlesOptions;

use crate::args::{FromBundlesArgs, OldSpelling, ReportFormat};
use crate::cmd::render::render_options;
use crate::output::{print_data, Exit};

/// Build a catalog from the bundles under the directories given and write it
/// to the output directory.
pub fn from_bundles(args: &FromBundlesArgs, o: &olmsat_input::Options) -> super::Outcome {
    if let Some(format) = &args.report {
        return Err(OldSpelling {
            old: "--report",
            hint: format!("give the report format with -o {format}"),
        }
        .into());
    }
    let output = &args.output_dir;
    let opts = FromBundlesOptions {
        render: render_options(args.image_ref_template.as_deref(), args.migrate_level)?,
        mode: args.mode,
        validate: false,
        follow_links: o.read.follow_links,
    };
    let build = build_catalog_from_bundles(&args.dirs, &opts)?;
    let format = args.format;
    let files = write_catalog_dir(&build.config, output, format)?;
    // The catalog as written, read back and validated with opm's rules.
    let written = if args.no_validate {
        None
    } else {
        Some(olmsat_catalog::CatalogFiles::read(&[output])?.validate())
    };
    let report = BuildReport {
        build: &build,
        files: &files,
        output,
        written: written
            .as_ref()
            .map(|v| (&v.report().errors[..], &v.report().warnings[..])),
    };
    let passed = report.passed();
    match args.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(args.output, &report.document())?,
        ReportFormat::Text => {
            for d in build.diagnostics.iter().filter(|d| d.is_error()) {
                outln!("{d}");
            }
            for d in build.diagnostics.iter().filter(|d| !d.is_error()) {
                outln!("{d}");
            }
            // Findings on the written catalog go to standard error.
            if let Some((errors, warnings)) = report.written {
                crate::output::eprint_diagnostics(errors);
                crate::output::eprint_diagnostics(warnings);
            }
            outln!("{}", report.summary());
        }
    }
    Ok(if passed { Exit::Ok } else { Exit::Invalid }.into())
}
