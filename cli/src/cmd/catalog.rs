//! `olmsat catalog from-bundles`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use olmsat_graph::bundle::from_bundles::{
    build_catalog, write_catalog, FromBundlesOptions, GraphMode,
};
use olmsat_graph::write::Format;
use serde::Serialize;

use crate::cmd::render::render_options;
use crate::output::{print_json, Exit, JsonDiagnostic};
use crate::{GraphModeArg, MigrateLevel, RenderFormat, ReportFormat};

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

/// Build a catalog from the bundles under `dirs` and write it to `output`.
#[allow(clippy::too_many_arguments)]
pub fn from_bundles(
    dirs: &[PathBuf],
    output: &Path,
    format: RenderFormat,
    image_ref_template: Option<&str>,
    migrate_level: MigrateLevel,
    mode: GraphModeArg,
    report: ReportFormat,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let opts = FromBundlesOptions {
        render: render_options(image_ref_template, migrate_level)?,
        mode: match mode {
            GraphModeArg::Replaces => GraphMode::Replaces,
            GraphModeArg::Semver => GraphMode::Semver,
            GraphModeArg::CiYaml => GraphMode::CiYaml,
        },
        validate: false,
    };
    let build = build_catalog(dirs, &opts)?;
    let format = match format {
        RenderFormat::Json => Format::Json,
        RenderFormat::Yaml => Format::Yaml,
    };
    let files = write_catalog(&build.config, output, format)?;
    let passed = !build.has_errors();
    let f = &build.findings;
    match report {
        ReportFormat::Json => print_json(&JsonReport {
            passed,
            errors: build
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(Into::into)
                .collect(),
            warnings: build
                .diagnostics
                .iter()
                .filter(|d| !d.is_error())
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
        })?,
        ReportFormat::Text => {
            for d in build.diagnostics.iter().filter(|d| d.is_error()) {
                println!("{d}");
            }
            for d in build.diagnostics.iter().filter(|d| !d.is_error()) {
                println!("{d}");
            }
            let errors = build.diagnostics.iter().filter(|d| d.is_error()).count();
            println!(
                "wrote {} package(s), {} bundle(s) to {} ({} bundle dir(s) found, {} left out); {errors} error(s), {} warning(s)",
                build.config.packages.len(),
                f.included,
                output.display(),
                f.found,
                f.skipped.len(),
                build.diagnostics.len() - errors
            );
        }
    }
    Ok(if passed { Exit::Ok } else { Exit::Invalid })
}
