//! `olmsat catalog from-bundles`

use std::collections::BTreeMap;

use olmsat_bundle::build_catalog_from_bundles;
use olmsat_bundle::write_catalog_dir;
use olmsat_bundle::FromBundlesOptions;
use olmsat_bundle::GraphMode;
use olmsat_catalog::Diagnostic;
use serde::Serialize;

use crate::args::{FromBundlesArgs, GraphModeArg, OldSpelling, ReportFormat};
use crate::cmd::render::render_options;
use crate::output::{print_data, Exit, JsonDiagnostic};

#[derive(Serialize)]
struct Skipped {
    path: String,
    reason: String,
}

#[derive(Serialize)]
struct AbsentReplaces<'a> {
    package: &'a str,
    bundle: &'a str,
    replaces: &'a str,
}

#[derive(Serialize)]
struct Disagreement<'a> {
    package: &'a str,
    chosen: &'a str,
    #[serde(rename = "namedBy")]
    named_by: &'a BTreeMap<String, Vec<String>>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    passed: bool,
    errors: Vec<JsonDiagnostic<'a>>,
    warnings: Vec<JsonDiagnostic<'a>>,
    found: usize,
    packages: usize,
    bundles: usize,
    files: Vec<String>,
    skipped: Vec<Skipped>,
    #[serde(rename = "absentReplaces")]
    absent_replaces: Vec<AbsentReplaces<'a>>,
    #[serde(rename = "defaultChannelDisagreements")]
    default_channel_disagreements: Vec<Disagreement<'a>>,
}

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
        mode: match args.mode {
            GraphModeArg::Replaces => GraphMode::Replaces,
            GraphModeArg::Semver => GraphMode::Semver,
            GraphModeArg::CiYaml => GraphMode::CiYaml,
        },
        validate: false,
        follow_links: o.read.follow_links,
    };
    let build = build_catalog_from_bundles(&args.dirs, &opts)?;
    let format = super::render::format(args.format);
    let files = write_catalog_dir(&build.config, output, format)?;
    // The catalog as written, read back and validated with opm's rules.
    let written = if args.no_validate {
        None
    } else {
        Some(olmsat_catalog::CatalogFiles::read(&[output])?.validate())
    };
    let (catalog_errors, catalog_warnings): (&[Diagnostic], &[Diagnostic]) = match &written {
        Some(v) => (&v.report().errors, &v.report().warnings),
        None => (&[], &[]),
    };
    let passed = !build.has_errors() && catalog_errors.is_empty();
    let f = &build.findings;
    match args.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(
            args.output,
            &JsonReport {
                passed,
                errors: build
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .chain(catalog_errors)
                    .map(Into::into)
                    .collect(),
                warnings: build
                    .diagnostics
                    .iter()
                    .filter(|d| !d.is_error())
                    .chain(catalog_warnings)
                    .map(Into::into)
                    .collect(),
                found: f.found,
                packages: build.config.packages.len(),
                bundles: f.included,
                files: files.iter().map(|p| p.display().to_string()).collect(),
                skipped: f
                    .skipped
                    .iter()
                    .map(|(p, r)| Skipped {
                        path: p.display().to_string(),
                        reason: r.clone(),
                    })
                    .collect(),
                absent_replaces: f
                    .absent_replaces
                    .iter()
                    .map(|(p, b, r)| AbsentReplaces {
                        package: p,
                        bundle: b,
                        replaces: r,
                    })
                    .collect(),
                default_channel_disagreements: f
                    .default_disagreements
                    .iter()
                    .map(|(p, c, m)| Disagreement {
                        package: p,
                        chosen: c,
                        named_by: m,
                    })
                    .collect(),
            },
        )?,
        ReportFormat::Text => {
            for d in build.diagnostics.iter().filter(|d| d.is_error()) {
                outln!("{d}");
            }
            for d in build.diagnostics.iter().filter(|d| !d.is_error()) {
                outln!("{d}");
            }
            // Findings on the written catalog go to standard error.
            crate::output::eprint_diagnostics(catalog_errors);
            crate::output::eprint_diagnostics(catalog_warnings);
            let errors =
                build.diagnostics.iter().filter(|d| d.is_error()).count() + catalog_errors.len();
            let warnings =
                build.diagnostics.iter().filter(|d| !d.is_error()).count() + catalog_warnings.len();
            outln!(
                "wrote {} package(s), {} bundle(s) to {} ({} bundle dir(s) found, {} left out); {errors} error(s), {warnings} warning(s){}",
                build.config.packages.len(),
                f.included,
                output.display(),
                f.found,
                f.skipped.len(),
                if written.is_some() { "" } else { " (not validated)" }
            );
        }
    }
    Ok(if passed { Exit::Ok } else { Exit::Invalid }.into())
}
